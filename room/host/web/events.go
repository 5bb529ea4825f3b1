package web

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// The stream's event names: seed 002's, then ours, which a client that
// knows only seed 002's skips.
const (
	evSessionStart = "session_start" // {topic, agents, rounds}
	evRoundStart   = "round_start"   // {round}
	evTurnStart    = "turn_start"    // {round, agent}
	evToken        = "token"         // {round, agent, text}
	evTurnEnd      = "turn_end"      // {round, agent, full_text}
	evRoundEnd     = "round_end"     // {round}
	evSummary      = "summary"       // {text}
	evDone         = "done"          // {}
	evError        = "error"         // {message}

	evSpeaker      = "speaker"       // {round, agent, model}: after turn_start, when the model is known
	evRetry        = "retry"         // {round, agent, reason, status?, attempt, max_attempts, wait_ms}
	evActivity     = "activity"      // {round, agent, kind, text}
	evTokenReset   = "token_reset"   // {round, agent}: drop what the verdict streamed; its summary_tokens start again
	evTurnMeta     = "turn_meta"     // {round, agent, kind?, model?, usage?, incomplete?, truncated?, replaced?}: after turn_end
	evConsensus    = "consensus"     // {round, reached}: after round_end, when the moderator checked
	evNote         = "note"          // {round, from, text}
	evPause        = "pause"         // {round}
	evBudget       = "budget"        // {round, reason, usage}
	evSummaryToken = "summary_token" // {round, agent, text}: the verdict as it streams; concatenates to summary.text
	evVerdict      = "verdict"       // {round, agent, model?, usage?}: after summary
	evUsage        = "usage"         // {usage}: the total, before done or error
	evErrorDetail  = "error_detail"  // {message, agent?, round?, provider?}: before error
	evClosed       = "closed"        // {reason, spec?, detail?}: an MCP room's close, before done
	evSeatState    = "seat_state"    // {seat, held}: an MCP room's seat taken or let go (a person, an agent's seat server, a host session)
	evRunState     = "run_state"     // {running}: a debate's process holds its run, or no longer does
)

// event is one event of a stream, with its place in it. Every event has
// an ID "n.off": n counts the events before it that are not tokens
// (session_start is 0), off the bytes of token text sent since event n,
// this event's included. IDs grow along the stream, and a token's ID says
// exactly how much of its turn was sent, so a stream resumed after it
// (Last-Event-ID) starts with the next byte.
type event struct {
	name string
	data []byte
	n    int
	off  int
	// A token's (or summary_token's) delta, round and agent, to cut it
	// at a resume that lands inside it.
	text  string
	round int
	agent string
}

// id is the event's ID.
func (e *event) id() string { return strconv.Itoa(e.n) + "." + strconv.Itoa(e.off) }

// terminal reports whether e ends the stream.
func (e *event) terminal() bool { return e.name == evDone || e.name == evError }

// position is an event ID read back.
type position struct{ n, off int }

// parseID reads an event ID; ok is false when id is not one.
func parseID(id string) (position, bool) {
	a, b, found := strings.Cut(strings.TrimSpace(id), ".")
	n, err1 := strconv.Atoi(a)
	off, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || n < 0 || off < 0 {
		return position{}, false
	}
	return position{n, off}, true
}

// after returns what of e a client at p has not had: e itself, a token
// cut to the bytes past p, or nothing.
func (e *event) after(p position) (event, bool) {
	if e.n != p.n {
		return *e, e.n > p.n
	}
	if e.text == "" || e.off <= p.off {
		return event{}, false // event n itself, or a token the client has
	}
	start := e.off - len(e.text)
	if start >= p.off {
		return *e, true
	}
	c := *e
	c.text = e.text[p.off-start:]
	c.data = marshal(tokenData{Round: e.round, Agent: e.agent, Text: c.text})
	return c, true
}

// Payloads of the seed's events, exactly its keys.
type (
	sessionStartData struct {
		Topic  string   `json:"topic"`
		Agents []string `json:"agents"`
		Rounds int      `json:"rounds"`
	}
	roundData struct {
		Round int `json:"round"`
	}
	turnData struct {
		Round int    `json:"round"`
		Agent string `json:"agent"`
	}
	tokenData struct {
		Round int    `json:"round"`
		Agent string `json:"agent"`
		Text  string `json:"text"`
	}
	turnEndData struct {
		Round    int    `json:"round"`
		Agent    string `json:"agent"`
		FullText string `json:"full_text"`
	}
	summaryData struct {
		Text string `json:"text"`
	}
	messageData struct {
		Message string `json:"message"`
	}
)

// Payloads of our events.
type (
	speakerData struct {
		Round int    `json:"round"`
		Agent string `json:"agent"`
		Model string `json:"model"`
	}
	retryData struct {
		Round    int    `json:"round"`
		Agent    string `json:"agent"`
		Reason   string `json:"reason"`
		Status   int    `json:"status,omitempty"`
		Attempt  int    `json:"attempt"`
		Attempts int    `json:"max_attempts"`
		WaitMS   int64  `json:"wait_ms"`
	}
	activityData struct {
		Round int    `json:"round"`
		Agent string `json:"agent"`
		Kind  string `json:"kind"`
		Text  string `json:"text"`
	}
	turnMetaData struct {
		Round      int    `json:"round"`
		Agent      string `json:"agent"`
		Kind       string `json:"kind,omitempty"` // an MCP room's message kind (brief, challenge, answer…)
		Model      string `json:"model,omitempty"`
		Usage      *Usage `json:"usage,omitempty"`
		Incomplete bool   `json:"incomplete,omitempty"`
		Truncated  bool   `json:"truncated,omitempty"`
		// Replaced: the turn's text was rewritten, not extended, so what
		// it streamed ends here and the whole text comes as a new turn.
		Replaced bool `json:"replaced,omitempty"`
	}
	consensusData struct {
		Round   int  `json:"round"`
		Reached bool `json:"reached"`
	}
	noteData struct {
		Round int    `json:"round"`
		From  string `json:"from"`
		Text  string `json:"text"`
	}
	budgetData struct {
		Round  int    `json:"round"`
		Reason string `json:"reason"`
		Usage  *Usage `json:"usage,omitempty"`
	}
	verdictData struct {
		Round int    `json:"round"`
		Agent string `json:"agent"`
		Model string `json:"model,omitempty"`
		Usage *Usage `json:"usage,omitempty"`
	}
	usageData struct {
		Usage Usage `json:"usage"`
	}
	errorDetailData struct {
		Message  string `json:"message"`
		Agent    string `json:"agent,omitempty"`
		Round    int    `json:"round,omitempty"`
		Provider string `json:"provider,omitempty"`
	}
	seatStateData struct {
		Seat string `json:"seat"`
		Held bool   `json:"held"`
	}
	runStateData struct {
		Running bool `json:"running"`
	}
	closedData struct {
		Reason string `json:"reason"`
		Spec   string `json:"spec,omitempty"`
		Detail string `json:"detail,omitempty"`
	}
)

// marshal is v's JSON: one line (newlines in text are escaped), with <, >
// and & escaped too, so a stream shown as a page runs nothing.
func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the payloads are plain structs: cannot fail
	}
	return b
}

// translator turns a room's debate events (Engine.Follow) into the
// stream's events. A turn's tokens always add up to its full_text: a turn
// read whole (a finished room, or one that ended between two looks) gets
// the text not yet sent as one token before its turn_end. Should a turn's
// text not extend what was sent (a person who rewrote their draft; a
// debate's never does), what was streamed ends as a turn of its own
// (turn_end with that text, turn_meta replaced) and the whole text comes
// as a new turn: tokens stay appends, and every turn's add up to its
// full_text, seed 002's rule. The verdict, which is no turn, gets
// token_reset instead (the store's only grows).
type translator struct {
	n, off int
	mcp    bool             // an MCP room: its close is a done, said by closed
	open   map[string]*sent // each agent's turn in progress
	// verdict is what was streamed of the moderator's verdict.
	verdict sent
	closed  func() closedData // an MCP room's close, read when it comes
	// moderator names the verdict's speaker when no token named it.
	moderator string
}

// sent is what was streamed of one turn.
type sent struct {
	b     strings.Builder
	round int
	agent string
}

func newTranslator(mcpRoom bool, moderator string, closed func() closedData) *translator {
	return &translator{n: -1, mcp: mcpRoom, open: map[string]*sent{}, closed: closed, moderator: moderator}
}

func (t *translator) emit(out []event, name string, v any) []event {
	t.n++
	t.off = 0
	return append(out, event{name: name, data: marshal(v), n: t.n})
}

func (t *translator) token(out []event, name string, round int, agent, text string) []event {
	if text == "" {
		return out
	}
	t.off += len(text)
	return append(out, event{
		name: name, data: marshal(tokenData{Round: round, Agent: agent, Text: text}), n: t.n, off: t.off,
		text: text, round: round, agent: agent,
	})
}

// finish sends what of full was not streamed of s before its end.
func (t *translator) finish(out []event, s *sent, name string, round int, agent, full string) []event {
	so := s.b.String()
	if rest, ok := strings.CutPrefix(full, so); ok {
		return t.token(out, name, round, agent, rest)
	}
	if name == evToken {
		// Rewritten: what streamed is a turn of its own, then a new one.
		out = t.emit(out, evTurnEnd, turnEndData{Round: round, Agent: agent, FullText: so})
		out = t.emit(out, evTurnMeta, turnMetaData{Round: round, Agent: agent, Replaced: true})
		out = t.emit(out, evTurnStart, turnData{Round: round, Agent: agent})
		return t.token(out, name, round, agent, full)
	}
	out = t.emit(out, evTokenReset, turnData{Round: round, Agent: agent})
	return t.token(out, name, round, agent, full)
}

// holders adds to out, before its final event if it has one, the seats
// (or a debate's run) whose holder changed since seen (what was sent,
// updated here): who holds a seat is read beside the debate's events.
func (t *translator) holders(out []event, now, seen map[string]room.Holder, debateRoom bool) []event {
	var final []event
	if n := len(out); n > 0 && out[n-1].terminal() {
		// The terminal event stays last; the events before it that go
		// with it (usage, closed, error_detail) keep their ids.
		return out
	}
	for _, seat := range slices.Sorted(maps.Keys(now)) {
		h := now[seat]
		if old, ok := seen[seat]; ok && old.Live == h.Live {
			continue
		}
		seen[seat] = h
		if debateRoom {
			if seat == "" {
				final = t.emit(final, evRunState, runStateData{Running: h.Live})
			}
			continue
		}
		final = t.emit(final, evSeatState, seatStateData{Seat: seat, Held: h.Live})
	}
	return append(out, final...)
}

// add translates one debate event.
func (t *translator) add(out []event, e Event) []event {
	switch e.Type {
	case evSessionStart:
		agents := e.Agents
		if agents == nil {
			agents = []string{}
		}
		return t.emit(out, evSessionStart, sessionStartData{Topic: e.Topic, Agents: agents, Rounds: e.Rounds})
	case evRoundStart:
		return t.emit(out, evRoundStart, roundData{Round: e.Round})
	case evTurnStart:
		t.open[e.Agent] = &sent{round: e.Round, agent: e.Agent}
		out = t.emit(out, evTurnStart, turnData{Round: e.Round, Agent: e.Agent})
		if e.Model != "" {
			out = t.emit(out, evSpeaker, speakerData{Round: e.Round, Agent: e.Agent, Model: e.Model})
		}
		return out
	case evRetry:
		return t.emit(out, evRetry, retryData{
			Round: e.Round, Agent: e.Agent, Reason: e.Text, Status: e.Status,
			Attempt: e.Attempt, Attempts: e.Attempts, WaitMS: e.Wait.Milliseconds(),
		})
	case evToken:
		if s := t.open[e.Agent]; s != nil {
			s.b.WriteString(e.Text)
			return t.token(out, evToken, s.round, e.Agent, e.Text)
		}
		// No turn of the agent is open: the moderator's verdict.
		t.verdict.b.WriteString(e.Text)
		t.verdict.round, t.verdict.agent = e.Round, e.Agent
		return t.token(out, evSummaryToken, e.Round, e.Agent, e.Text)
	case evActivity:
		return t.emit(out, evActivity, activityData{Round: e.Round, Agent: e.Agent, Kind: e.Kind, Text: e.Text})
	case evTurnEnd:
		s := t.open[e.Agent]
		if s == nil {
			s = &sent{round: e.Round, agent: e.Agent}
		}
		delete(t.open, e.Agent)
		out = t.finish(out, s, evToken, e.Round, e.Agent, e.Text)
		out = t.emit(out, evTurnEnd, turnEndData{Round: e.Round, Agent: e.Agent, FullText: e.Text})
		kind := ""
		if t.mcp {
			kind = e.MessageKind
		}
		if e.Model != "" || e.Usage != nil || e.Incomplete || e.Truncated || kind != "" {
			out = t.emit(out, evTurnMeta, turnMetaData{
				Round: e.Round, Agent: e.Agent, Kind: kind, Model: e.Model, Usage: e.Usage,
				Incomplete: e.Incomplete, Truncated: e.Truncated,
			})
		}
		return out
	case evRoundEnd:
		out = t.emit(out, evRoundEnd, roundData{Round: e.Round})
		if e.Consensus != nil {
			out = t.emit(out, evConsensus, consensusData{Round: e.Round, Reached: *e.Consensus})
		}
		return out
	case evNote:
		return t.emit(out, evNote, noteData{Round: e.Round, From: e.From, Text: e.Text})
	case evPause:
		return t.emit(out, evPause, roundData{Round: e.Round})
	case evBudget:
		return t.emit(out, evBudget, budgetData{Round: e.Round, Reason: e.Text, Usage: e.Usage})
	case evSummary:
		agent := t.verdict.agent
		if agent == "" {
			agent = t.moderator
		}
		out = t.finish(out, &t.verdict, evSummaryToken, e.Round, agent, e.Text)
		t.verdict = sent{}
		out = t.emit(out, evSummary, summaryData{Text: e.Text})
		return t.emit(out, evVerdict, verdictData{Round: e.Round, Agent: agent, Model: e.Model, Usage: e.Usage})
	case evDone:
		if t.mcp && t.closed != nil {
			out = t.emit(out, evClosed, t.closed())
			return t.emit(out, evDone, struct{}{})
		}
		if e.Usage != nil {
			out = t.emit(out, evUsage, usageData{Usage: *e.Usage})
		}
		return t.emit(out, evDone, struct{}{})
	case evError:
		if t.mcp && t.closed != nil {
			// An MCP room ends by its close, which is no failure.
			out = t.emit(out, evClosed, t.closed())
			return t.emit(out, evDone, struct{}{})
		}
		if e.Usage != nil {
			out = t.emit(out, evUsage, usageData{Usage: *e.Usage})
		}
		out = t.emit(out, evErrorDetail, errorDetailData{Message: e.Text, Agent: e.Agent, Round: e.Round, Provider: e.Provider})
		return t.emit(out, evError, messageData{Message: e.Text})
	}
	return out
}
