package mcpserver

import (
	"context"
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
	// Seats and Passed are a council's only (a room of other seats than
	// the lead and the peer): its seats in turn order, the lead first, and
	// the seats that passed in the current round ([] when none has).
	Seats  []string `json:"seats,omitzero"`
	Passed []string `json:"passed,omitzero"`
}

func (s *Seat) status(st room.State) status {
	cfg := s.room.Config()
	out := status{
		Room: cfg.Room, Topic: cfg.Topic, YouAre: s.opt.Seat, YourAgent: s.opt.Agent,
		Round: st.Round, Budget: cfg.Budget, Turn: st.Turn, YourTurn: st.Turn == s.opt.Seat,
		MessageCount: len(st.Messages), Closed: st.Closed != nil,
		Spec: cfg.Spec, TranscriptDir: s.hostPath(s.room.Dir()),
	}
	if st.Closed != nil {
		out.ClosedReason, out.SpecPath = &st.Closed.Reason, &st.Closed.SpecPath
	}
	if s.council() {
		out.Seats = st.Seats
		out.Passed = append([]string{}, st.Passed...)
	}
	return out
}

// council reports whether the seat is one of a council's: a room whose
// seats are not the default lead and peer. A seat of another name is one
// before its room is open; the lead and the peer know once it is.
func (s *Seat) council() bool {
	switch s.opt.Seat {
	case room.SeatLead, room.SeatPeer, room.GrantObserver:
		return s.room != nil && s.room.Config().IsCouncil()
	}
	return true
}

// takesTurns reports whether the seat is a council's seat that waits for
// its turn: a council seat, not a host's observer (who reads every seat's
// messages as they come).
func (s *Seat) takesTurns() bool {
	return s.opt.Seat != room.GrantObserver && s.council()
}

// holder is one seat in a council's room_status: who holds it and what it
// is doing, as server.log and the seat's lock say (room.ReadSeats).
type holder struct {
	Seat  string `json:"seat"`
	Agent string `json:"agent,omitempty"`
	State string `json:"state"`
}

// holders lists every seat of the council in turn order with its state.
func (s *Seat) holders(st room.State) []holder {
	infos, err := room.ReadSeats(s.room.Dir())
	byName := map[string]room.SeatInfo{}
	if err == nil {
		for _, in := range infos {
			byName[in.Seat] = in
		}
	}
	out := make([]holder, 0, len(st.Seats))
	for _, seat := range st.Seats {
		in, ok := byName[seat]
		if !ok {
			in = room.SeatInfo{State: room.StateAbsent}
		}
		out = append(out, holder{Seat: seat, Agent: in.Agent, State: in.State})
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
	if s.takesTurns() {
		return reply(merge(map[string]any{"holders": s.holders(st)}, s.status(st)))
	}
	return reply(s.status(st))
}

// unread returns what wait_for_message wakes for: the other seats'
// messages after the last one this seat was shown and after this seat's
// own last post, as in the original. A message another seat posted
// before this seat's post was answered by it, read or not: handing it out
// again as new would tell the agent the other seat spoke again.
// read_room still returns such a message (unshown).
func (s *Seat) unread(st room.State) []room.Message {
	s.mu.Lock()
	last := max(s.lastShown, s.lastPosted)
	s.mu.Unlock()
	return othersAfter(st, s.fromOther, last)
}

// unshown returns the other seats' messages this seat has not been shown.
func (s *Seat) unshown(st room.State) []room.Message {
	s.mu.Lock()
	last := s.lastShown
	s.mu.Unlock()
	return othersAfter(st, s.fromOther, last)
}

// fromOther reports whether seat's messages are the ones this seat waits
// for and reads as new: the other seat's in a two-seat room, every seat's
// but its own in a council, every seat's for an observer.
func (s *Seat) fromOther(seat string) bool {
	switch {
	case s.opt.Seat == room.GrantObserver:
		return true
	case s.council():
		return seat != s.opt.Seat
	}
	return seat == otherSeat(s.opt.Seat)
}

// othersAfter returns the messages whose seq is after last and whose seat
// from accepts.
func othersAfter(st room.State, from func(string) bool, last int) []room.Message {
	var out []room.Message
	// Messages are sorted by seq: search back from the end for the cut.
	i := len(st.Messages)
	for i > 0 && st.Messages[i-1].Seq > last {
		i--
	}
	for _, m := range st.Messages[i:] {
		if from(m.Seat) {
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

// MinWait is the shortest a wait_for_message call parks, as in the
// original: a timeout of 0 must not turn the agent's loop into a spin.
const MinWait = time.Second

// waitTimeout is timeout_seconds held between MinWait and the client's
// longest wait (maxWaitFor: MaxWait, less for opencode); that when it is
// not given.
func waitTimeout(req mcp.CallToolRequest, client string) time.Duration {
	longest := maxWaitFor(client)
	v := req.GetFloat("timeout_seconds", longest.Seconds())
	if math.IsNaN(v) {
		return longest
	}
	return time.Duration(min(max(v, MinWait.Seconds()), longest.Seconds()) * float64(time.Second))
}

func (s *Seat) waitForMessage(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	start := time.Now()
	reason := room.WaitCancelled // what the wait_return line says
	defer func() { s.logWaitReturn(start, reason) }()
	var token mcp.ProgressToken
	if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
		token = req.Params.Meta.ProgressToken
	}
	client, _ := s.client.Load().(string)
	opts := room.ParkOptions{Timeout: waitTimeout(req, client), Stop: s.stop}
	if token != nil {
		notify := func() {
			waited := time.Since(start).Round(time.Second)
			_ = server.ServerFromContext(ctx).SendNotificationToClient(ctx, "notifications/progress", map[string]any{
				"progressToken": token,
				"progress":      waited.Seconds(),
				"message":       s.parkedMessage(waited),
			})
		}
		// The client learns at once that the seat is listening, then
		// every progressEvery.
		opts.OnPark, opts.OnTick, opts.Every = notify, notify, progressEvery
	}
	var fresh []room.Message
	var notes []room.Note
	council := s.takesTurns()
	st, why, err := room.Park(ctx, s.notifier, s.state, func(st room.State) bool {
		fresh = s.unread(st)
		if st.Closed != nil {
			return true
		}
		notes = s.takeNotes(st)
		if council && st.Turn != s.opt.Seat {
			// A council seat wakes at its turn, with every message
			// since it last read; a note wakes it at once.
			fresh = nil
		}
		return len(fresh) > 0 || len(notes) > 0
	}, opts)
	reason = why
	switch why {
	case room.WaitFailed:
		return fault(err)
	case room.WaitClosed:
		s.markShown(fresh)
		out := map[string]any{"closed": true, "reason": st.Closed.Reason, "spec_path": st.Closed.SpecPath}
		if len(fresh) > 0 {
			out["messages"] = fresh
		}
		s.addNotes(out, s.takeNotes(st), st, false)
		return reply(out)
	case room.WaitMessage:
		if len(fresh) == 0 {
			reason = room.WaitNote // the host's note wakes the seat; it takes no turn
		}
		s.markShown(fresh)
		out := map[string]any{"messages": nonNil(fresh)}
		s.addNotes(out, notes, st, len(fresh) == 0)
		return reply(merge(out, s.status(st)))
	case room.WaitIdle:
		// The timeout passed, or the host is shutting down: the agent
		// calls again (elsewhere).
		return reply(s.idle(st))
	}
	if council {
		return refuse("wait_for_message was cancelled before your turn came.")
	}
	return refuse("wait_for_message was cancelled before the %s posted.", otherSeat(s.opt.Seat))
}

// parkedMessage is a parked wait's progress message.
func (s *Seat) parkedMessage(waited time.Duration) string {
	if s.takesTurns() {
		return fmt.Sprintf("parked %s, waiting for your turn", waited)
	}
	return fmt.Sprintf("parked %s, listening for the %s", waited, otherSeat(s.opt.Seat))
}

// idle is the reply when a wait times out. It carries a note when waiting is
// all that is left to do, or when the budget means the lead must act.
func (s *Seat) idle(st room.State) object {
	extra := map[string]any{"idle": true}
	switch {
	case s.opt.Seat != room.SeatLead && s.opt.Seat != room.GrantObserver && st.OutOfBudget && st.Turn == room.SeatLead:
		extra["note"] = "The round budget is spent. The lead is writing the spec; wait again and you will get the close."
	case s.opt.Seat == room.SeatLead && st.OutOfBudget && st.Turn == room.SeatLead:
		extra["note"] = "The round budget is spent. Write the spec with write_spec, then call close_room."
	case st.Turn == s.opt.Seat:
		extra["note"] = "It is your turn: post before waiting again."
	}
	return merge(extra, s.status(st))
}

func (s *Seat) post(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return refuse("post needs text, the message as a string: %v.", err)
	}
	kind := req.GetString("kind", "")
	msg, st, err := s.room.PostMessage(room.Post{Seat: s.opt.Seat, Agent: s.opt.Agent, Kind: kind, Text: strings.TrimSpace(text)})
	if err != nil {
		return s.postRefusal(err)
	}
	s.mu.Lock()
	s.lastPosted = max(s.lastPosted, msg.Seq)
	s.mu.Unlock()
	return reply(merge(map[string]any{"posted": msg.Seq}, s.status(st)))
}

func (s *Seat) writeSpec(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if s.opt.Seat != room.SeatLead {
		return refuse("Only the lead writes the spec. Keep the discussion going with post and wait_for_message.")
	}
	text, err := req.RequireString("text")
	if err != nil {
		return refuse("write_spec needs text, the whole document as a string: %v.", err)
	}
	if strings.TrimSpace(text) == "" {
		return refuse("write_spec needs the whole document as text; it goes to %s.", s.room.Config().Spec)
	}
	if st, err := s.state(); err == nil && st.Closed != nil {
		return refuse("This room is closed; the spec can no longer change.")
	}
	// written is the absolute path, as the original answers: the agent can
	// quote it to the user, and it is right whatever folder they are in
	// (a host's remote seat is given it relative to the room's folder).
	path, err := s.room.WriteSpec(text)
	if err != nil {
		return refuse("The spec could not be written: %v. Tell the user.", err)
	}
	return reply(own(map[string]any{"written": s.hostPath(path), "note": "Now call close_room."}))
}

func (s *Seat) closeRoom(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if s.opt.Seat != room.SeatLead {
		return refuse("Only the lead can close the room. Call wait_for_message; it returns closed when the lead ends the room.")
	}
	reason := strings.TrimSpace(req.GetString("reason", ""))
	specPath := req.GetString("spec_path", "")
	if reason == "" {
		reason = "closed by lead"
	}
	c, err := s.room.Close(room.CloseOptions{Reason: reason, SpecPath: specPath, RequireSpec: true})
	var noSpec *room.NoSpecError
	switch {
	case err == nil:
	case errors.As(err, &noSpec):
		return refuse("There is no spec yet: %s does not exist. Call write_spec with the full document before closing.", noSpec.Spec)
	case errors.Is(err, room.ErrClosed):
		return refuse("This room is already closed. Stop and end your turn.")
	default:
		return fault(err)
	}
	return reply(own(map[string]any{"closed": true, "reason": c.Reason, "spec_path": c.SpecPath, "transcript_dir": s.hostPath(s.room.Dir())}))
}
