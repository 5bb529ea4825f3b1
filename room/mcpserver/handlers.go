package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// status is the reply every tool shares: the keys of the original server.
type status struct {
	Room          string  `json:"room"`
	Topic         string  `json:"topic"`
	YouAre        string  `json:"you_are"`
	YourAgent     string  `json:"your_agent"`
	Round         int     `json:"round"`
	Budget        int     `json:"budget"`
	Turn          string  `json:"turn"`
	YourTurn      bool    `json:"your_turn"`
	MessageCount  int     `json:"message_count"`
	Closed        bool    `json:"closed"`
	ClosedReason  *string `json:"closed_reason,omitempty"`
	Spec          string  `json:"spec"`
	SpecPath      *string `json:"spec_path,omitempty"`
	TranscriptDir string  `json:"transcript_dir"`
}

func (s *Seat) status(st room.State) status {
	cfg := s.room.Config()
	out := status{
		Room: cfg.Room, Topic: cfg.Topic, YouAre: s.opt.Seat, YourAgent: s.opt.Agent,
		Round: st.Round, Budget: cfg.Budget, Turn: st.Turn, YourTurn: st.Turn == s.opt.Seat,
		MessageCount: len(st.Messages), Closed: st.Closed != nil,
		Spec: cfg.Spec, TranscriptDir: s.room.Dir(),
	}
	if st.Closed != nil {
		out.ClosedReason, out.SpecPath = &st.Closed.Reason, &st.Closed.SpecPath
	}
	return out
}

// state reads the room and logs files it had to skip, once each.
func (s *Seat) state() (room.State, error) {
	st, err := s.room.State()
	if err != nil {
		return st, err
	}
	for _, sk := range st.NewSkipped {
		s.log("skip", room.F("seat", s.opt.Seat), room.F("file", sk.File), room.F("reason", sk.Reason))
	}
	return st, nil
}

// reply renders v the way the original did: pretty JSON as text content.
func reply(v any) (*mcp.CallToolResult, error) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(data)), nil
}

// merge flattens a status into a reply with extra leading keys.
func merge(extra map[string]any, st status) map[string]any {
	data, _ := json.Marshal(st)
	out := map[string]any{}
	_ = json.Unmarshal(data, &out)
	for k, v := range extra {
		out[k] = v
	}
	return out
}

func refuse(format string, args ...any) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultError(fmt.Sprintf(format, args...)), nil
}

// fault turns a store failure into a tool error the agent can act on.
func fault(err error) (*mcp.CallToolResult, error) {
	if errors.Is(err, room.ErrNoRoom) {
		return refuse("The room's files are gone (%v). Tell the user; the room cannot continue.", err)
	}
	return refuse("The room could not be read or written: %v. Tell the user.", err)
}

func (s *Seat) roomStatus(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	st, err := s.state()
	if err != nil {
		return fault(err)
	}
	return reply(s.status(st))
}

// unread returns the other seat's messages this seat has not been shown.
func (s *Seat) unread(st room.State) []room.Message {
	s.mu.Lock()
	last := s.lastShown
	s.mu.Unlock()
	other := otherSeat(s.opt.Seat)
	var out []room.Message
	// Messages are sorted by seq: search back from the end for the cut.
	i := len(st.Messages)
	for i > 0 && st.Messages[i-1].Seq > last {
		i--
	}
	for _, m := range st.Messages[i:] {
		if m.Seat == other {
			out = append(out, m)
		}
	}
	return out
}

func (s *Seat) markShown(msgs []room.Message) {
	if len(msgs) == 0 {
		return
	}
	s.mu.Lock()
	if seq := msgs[len(msgs)-1].Seq; seq > s.lastShown {
		s.lastShown = seq
	}
	s.mu.Unlock()
}

func nonNil(m []room.Message) []room.Message {
	if m == nil {
		return []room.Message{}
	}
	return m
}

func (s *Seat) readRoom(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	st, err := s.state()
	if err != nil {
		return fault(err)
	}
	var msgs []room.Message
	if since, ok := req.GetArguments()["since"].(float64); ok {
		for _, m := range st.Messages {
			if float64(m.Seq) > since {
				msgs = append(msgs, m)
			}
		}
		var theirs []room.Message
		for _, m := range msgs {
			if m.Seat == otherSeat(s.opt.Seat) {
				theirs = append(theirs, m)
			}
		}
		s.markShown(theirs)
	} else {
		msgs = s.unread(st)
		s.markShown(msgs)
	}
	return reply(merge(map[string]any{"messages": nonNil(msgs)}, s.status(st)))
}

func waitTimeout(req mcp.CallToolRequest) time.Duration {
	v, ok := req.GetArguments()["timeout_seconds"].(float64)
	if !ok || math.IsNaN(v) {
		return MaxWait
	}
	d := time.Duration(v * float64(time.Second))
	return min(max(d, 0), MaxWait)
}

func (s *Seat) waitForMessage(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	timer := time.NewTimer(waitTimeout(req))
	defer timer.Stop()
	start := time.Now()
	var progress <-chan time.Time
	var token mcp.ProgressToken
	notify := func() {
		waited := time.Since(start).Round(time.Second)
		_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token,
			"progress":      waited.Seconds(),
			"message":       fmt.Sprintf("parked %s, listening for the %s", waited, otherSeat(s.opt.Seat)),
		})
	}
	if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
		token = req.Params.Meta.ProgressToken
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		progress = t.C
	}
	parked := false
	for {
		changed := s.notifier.Changed() // before reading, so no change is missed
		st, err := s.state()
		if err != nil {
			return fault(err)
		}
		fresh := s.unread(st)
		if st.Closed != nil {
			s.markShown(fresh)
			out := map[string]any{"closed": true, "reason": st.Closed.Reason, "spec_path": st.Closed.SpecPath}
			if len(fresh) > 0 {
				out["messages"] = fresh
			}
			return reply(out)
		}
		if len(fresh) > 0 {
			s.markShown(fresh)
			return reply(merge(map[string]any{"messages": fresh}, s.status(st)))
		}
		if !parked && token != nil {
			notify() // the client learns at once that the seat is listening
		}
		parked = true
		select {
		case <-changed:
		case <-timer.C:
			return reply(s.idle(st))
		case <-ctx.Done():
			return refuse("wait_for_message was cancelled before the %s posted.", otherSeat(s.opt.Seat))
		case <-progress:
			notify()
		}
	}
}

// idle is the reply when a wait times out. It carries a note when waiting is
// all that is left to do, or when the budget means the lead must act.
func (s *Seat) idle(st room.State) map[string]any {
	out := merge(map[string]any{"idle": true}, s.status(st))
	switch {
	case s.opt.Seat == room.SeatPeer && st.OutOfBudget && st.Turn == room.SeatLead:
		out["note"] = "The round budget is spent. The lead is writing the spec; wait again and you will get the close."
	case s.opt.Seat == room.SeatLead && st.OutOfBudget && st.Turn == room.SeatLead:
		out["note"] = "The round budget is spent. Write the spec with write_spec, then call close_room."
	case st.Turn == s.opt.Seat:
		out["note"] = "It is your turn: post before waiting again."
	}
	return out
}

func (s *Seat) post(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, _ := req.GetArguments()["text"].(string)
	text = strings.TrimSpace(text)
	kind, _ := req.GetArguments()["kind"].(string)
	msg, st, err := s.room.PostMessage(room.Post{Seat: s.opt.Seat, Agent: s.opt.Agent, Kind: strings.TrimSpace(kind), Text: text})
	switch {
	case err == nil:
	case errors.Is(err, room.ErrClosed):
		return refuse("This room is closed. Stop posting and end your turn.")
	case errors.Is(err, room.ErrNotYourTurn):
		return refuse("It is the %s's turn. Call wait_for_message to receive their reply before posting again.", otherSeat(s.opt.Seat))
	case errors.Is(err, room.ErrBudgetSpent):
		return refuse("The round budget of %d is spent. Write the spec with write_spec now, then call close_room.", s.room.Config().Budget)
	case errors.Is(err, room.ErrEmpty):
		return refuse("post needs non-empty text: say what you want the %s to read.", otherSeat(s.opt.Seat))
	case errors.Is(err, room.ErrTooLarge), errors.Is(err, room.ErrBadKind):
		return refuse("%v.", err)
	default:
		return fault(err)
	}
	return reply(merge(map[string]any{"posted": msg.Seq}, s.status(st)))
}

func (s *Seat) writeSpec(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if s.opt.Seat != room.SeatLead {
		return refuse("Only the lead writes the spec. Keep the discussion going with post and wait_for_message.")
	}
	text, _ := req.GetArguments()["text"].(string)
	if strings.TrimSpace(text) == "" {
		return refuse("write_spec needs the whole document as text; it goes to %s.", s.room.Config().Spec)
	}
	if st, err := s.state(); err == nil && st.Closed != nil {
		return refuse("This room is closed; the spec can no longer change.")
	}
	if _, err := s.room.WriteSpec(text); err != nil {
		return refuse("The spec could not be written: %v. Tell the user.", err)
	}
	return reply(map[string]any{"written": s.room.Config().Spec, "note": "Now call close_room."})
}

func (s *Seat) closeRoom(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if s.opt.Seat != room.SeatLead {
		return refuse("Only the lead can close the room. Call wait_for_message; it returns closed when the lead ends the room.")
	}
	reason, _ := req.GetArguments()["reason"].(string)
	specPath, _ := req.GetArguments()["spec_path"].(string)
	if strings.TrimSpace(reason) == "" {
		reason = "closed by lead"
	}
	c, err := s.room.Close(room.CloseOptions{Reason: reason, SpecPath: specPath, RequireSpec: true})
	switch {
	case err == nil:
	case errors.Is(err, room.ErrNoSpec):
		return refuse("There is no spec yet. Call write_spec with the full document before closing; it goes to %s.", s.room.Config().Spec)
	case errors.Is(err, room.ErrClosed):
		return refuse("This room is already closed. Stop and end your turn.")
	default:
		return fault(err)
	}
	return reply(map[string]any{"closed": true, "reason": c.Reason, "spec_path": c.SpecPath, "transcript_dir": s.room.Dir()})
}
