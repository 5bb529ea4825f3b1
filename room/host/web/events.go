package web

import (
	"encoding/json"
	"maps"
	"slices"
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
	evRanking      = "ranking"       // {round, agent, text, ranking, model?, usage?}: a persona's peer ranking, whole, before the verdict
	evSummaryToken = "summary_token" // {round, agent, text}: the verdict as it streams; concatenates to summary.text
	evVerdict      = "verdict"       // {round, agent, model?, usage?}: after summary
	evUsage        = "usage"         // {usage}: the total, before done or error
	evErrorDetail  = "error_detail"  // {message, agent?, round?, provider?}: before error
	evClosed       = "closed"        // {reason, spec?, detail?}: an MCP room's close, before done
	evSeatState    = "seat_state"    // {seat, held}: an MCP room's seat taken or let go (a person, an agent's seat server, a host session)
	evRunState     = "run_state"     // {running}: a debate's process holds its run, or no longer does
)

// event is one event of a stream, with what it shows of the room
// (resume.go), which its ID and a resuming client's cut come from.
type event struct {
	name string
	data []byte
	id   string // the view after it of a client that read the log from its start
	mark
	text string // a token's (or summary_token's) delta
}

// terminal reports whether e ends the stream.
func (e *event) terminal() bool { return e.name == evDone || e.name == evError }

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
	rankingData struct {
		Round   int      `json:"round"`
		Agent   string   `json:"agent"`
		Text    string   `json:"text"`
		Ranking []string `json:"ranking"`
		Model   string   `json:"model,omitempty"`
		Usage   *Usage   `json:"usage,omitempty"`
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
	mcp  bool             // an MCP room: its close is a done, said by closed
	open map[string]*sent // each agent's turn in progress
	// verdict is what was streamed of the moderator's verdict.
	verdict sent
	closed  func() closedData // an MCP room's close, read when it comes
	// moderator names the verdict's speaker when no token named it.
	moderator string
	end       int // the end's events sent
}

// sent is what was streamed of one turn (or of the verdict).
type sent struct {
	b     strings.Builder
	round int
	agent string
	seq   int // its message, once known
	gen   int // its text: a rewrite starts the next
	ref   *turnRef
}

func newTranslator(mcpRoom bool, moderator string, closed func() closedData) *translator {
	return &translator{mcp: mcpRoom, open: map[string]*sent{}, closed: closed, moderator: moderator}
}

func (t *translator) emit(out []event, name string, v any, m mark) []event {
	return append(out, event{name: name, data: marshal(v), mark: m})
}

// ending emits one of the end's events.
func (t *translator) ending(out []event, name string, v any) []event {
	t.end++
	return t.emit(out, name, v, mark{line: t.end})
}

// token sends text as s's next piece.
func (t *translator) token(out []event, name string, s *sent, text string) []event {
	if text == "" {
		return out
	}
	lo := s.b.Len()
	s.b.WriteString(text)
	return append(out, event{
		name: name, data: marshal(tokenData{Round: s.round, Agent: s.agent, Text: text}),
		mark: mark{agent: s.agent, round: s.round, seq: s.seq, gen: s.gen, lo: lo, ref: s.ref}, text: text,
	})
}

// finish sends what of full was not streamed of s before its end.
func (t *translator) finish(out []event, s *sent, name, full string) []event {
	so := s.b.String()
	if rest, ok := strings.CutPrefix(full, so); ok {
		return t.token(out, name, s, rest)
	}
	m := mark{agent: s.agent, round: s.round, gen: s.gen}
	if name == evToken {
		// Rewritten: what streamed is a turn of its own, then a new one.
		m.on = true
		out = t.emit(out, evTurnEnd, turnEndData{Round: s.round, Agent: s.agent, FullText: so}, m)
		out = t.emit(out, evTurnMeta, turnMetaData{Round: s.round, Agent: s.agent, Replaced: true}, m)
		m.on, m.gen, m.seq = false, s.gen+1, s.seq
		out = t.emit(out, evTurnStart, turnData{Round: s.round, Agent: s.agent}, m)
	} else {
		out = t.emit(out, evTokenReset, turnData{Round: s.round, Agent: s.agent}, m)
	}
	s.b.Reset()
	s.gen++
	return t.token(out, name, s, full)
}

// holders adds to out, before its final event if it has one, the seats
// (or a debate's run) whose holder changed since seen (what was sent,
// updated here): who holds a seat is read beside the debate's events.
func (t *translator) holders(out []event, now, seen map[string]room.Holder, debateRoom bool) []event {
	var final []event
	if n := len(out); n > 0 && out[n-1].terminal() {
		return out // the terminal event stays last
	}
	for _, seat := range slices.Sorted(maps.Keys(now)) {
		h := now[seat]
		if old, ok := seen[seat]; ok && old.Live == h.Live {
			continue
		}
		seen[seat] = h
		m := mark{agent: seat, on: h.Live}
		if debateRoom {
			if seat == "" {
				final = t.emit(final, evRunState, runStateData{Running: h.Live}, m)
			}
			continue
		}
		final = t.emit(final, evSeatState, seatStateData{Seat: seat, Held: h.Live}, m)
	}
	return append(out, final...)
}

// add translates one debate event.
func (t *translator) add(out []event, e Event) []event {
	turn := mark{agent: e.Agent, round: e.Round, seq: e.Seq}
	if s := t.open[e.Agent]; s != nil && e.Type != evTurnStart {
		turn.ref = s.ref
	}
	switch e.Type {
	case evSessionStart:
		agents := e.Agents
		if agents == nil {
			agents = []string{}
		}
		return t.emit(out, evSessionStart, sessionStartData{Topic: e.Topic, Agents: agents, Rounds: e.Rounds}, mark{})
	case evRoundStart:
		return t.emit(out, evRoundStart, roundData{Round: e.Round}, turn)
	case evTurnStart:
		s := &sent{round: e.Round, agent: e.Agent, seq: e.Seq, ref: &turnRef{}}
		t.open[e.Agent] = s
		turn.ref = s.ref
		out = t.emit(out, evTurnStart, turnData{Round: e.Round, Agent: e.Agent}, turn)
		if e.Model != "" {
			out = t.emit(out, evSpeaker, speakerData{Round: e.Round, Agent: e.Agent, Model: e.Model}, turn)
		}
		return out
	case evRetry:
		turn.line = e.Attempt
		return t.emit(out, evRetry, retryData{
			Round: e.Round, Agent: e.Agent, Reason: e.Text, Status: e.Status,
			Attempt: e.Attempt, Attempts: e.Attempts, WaitMS: e.Wait.Milliseconds(),
		}, turn)
	case evToken:
		if s := t.open[e.Agent]; s != nil {
			s.seq = max(s.seq, e.Seq)
			return t.token(out, evToken, s, e.Text)
		}
		// No turn of the agent is open: the moderator's verdict.
		t.verdict.round, t.verdict.agent, t.verdict.seq = e.Round, e.Agent, e.Seq
		return t.token(out, evSummaryToken, &t.verdict, e.Text)
	case evActivity:
		turn.line = e.Line
		return t.emit(out, evActivity, activityData{Round: e.Round, Agent: e.Agent, Kind: e.Kind, Text: e.Text}, turn)
	case evTurnEnd:
		s := t.open[e.Agent]
		if s == nil {
			s = &sent{round: e.Round, agent: e.Agent}
		}
		delete(t.open, e.Agent)
		s.round, s.seq = e.Round, e.Seq
		if s.ref != nil {
			s.ref.seq.Store(int64(e.Seq)) // before the turn_end is pushed: a client that has it had the turn
		}
		out = t.finish(out, s, evToken, e.Text)
		out = t.emit(out, evTurnEnd, turnEndData{Round: e.Round, Agent: e.Agent, FullText: e.Text}, turn)
		kind := ""
		if t.mcp {
			kind = e.MessageKind
		}
		if e.Model != "" || e.Usage != nil || e.Incomplete || e.Truncated || kind != "" {
			out = t.emit(out, evTurnMeta, turnMetaData{
				Round: e.Round, Agent: e.Agent, Kind: kind, Model: e.Model, Usage: e.Usage,
				Incomplete: e.Incomplete, Truncated: e.Truncated,
			}, turn)
		}
		return out
	case evRoundEnd:
		out = t.emit(out, evRoundEnd, roundData{Round: e.Round}, turn)
		if e.Consensus != nil {
			out = t.emit(out, evConsensus, consensusData{Round: e.Round, Reached: *e.Consensus}, turn)
		}
		return out
	case evNote:
		return t.emit(out, evNote, noteData{Round: e.Round, From: e.From, Text: e.Text}, turn)
	case evPause:
		return t.emit(out, evPause, roundData{Round: e.Round}, turn)
	case evBudget:
		return t.emit(out, evBudget, budgetData{Round: e.Round, Reason: e.Text, Usage: e.Usage}, turn)
	case evRanking:
		order := e.Ranking
		if order == nil {
			order = []string{}
		}
		return t.emit(out, evRanking, rankingData{Round: e.Round, Agent: e.Agent, Text: e.Text, Ranking: order, Model: e.Model, Usage: e.Usage}, turn)
	case evSummary:
		v := &t.verdict
		if v.agent == "" {
			v.agent = t.moderator
		}
		v.round, v.seq = e.Round, e.Seq
		agent := v.agent
		out = t.finish(out, v, evSummaryToken, e.Text)
		t.verdict = sent{gen: v.gen + 1} // a verdict said again is a new text
		m := mark{agent: agent, round: e.Round, seq: e.Seq}
		out = t.emit(out, evSummary, summaryData{Text: e.Text}, m)
		return t.emit(out, evVerdict, verdictData{Round: e.Round, Agent: agent, Model: e.Model, Usage: e.Usage}, m)
	case evDone:
		if t.mcp && t.closed != nil {
			out = t.ending(out, evClosed, t.closed())
			return t.ending(out, evDone, struct{}{})
		}
		if e.Usage != nil {
			out = t.ending(out, evUsage, usageData{Usage: *e.Usage})
		}
		return t.ending(out, evDone, struct{}{})
	case evError:
		if t.mcp && t.closed != nil {
			// An MCP room ends by its close, which is no failure.
			out = t.ending(out, evClosed, t.closed())
			return t.ending(out, evDone, struct{}{})
		}
		if e.Usage != nil {
			out = t.ending(out, evUsage, usageData{Usage: *e.Usage})
		}
		out = t.ending(out, evErrorDetail, errorDetailData{Message: e.Text, Agent: e.Agent, Round: e.Round, Provider: e.Provider})
		return t.ending(out, evError, messageData{Message: e.Text})
	}
	return out
}
