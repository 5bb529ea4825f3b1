package debate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// EventType names an event of the debate stream.
type EventType string

// The events of the contract, in the order a debate emits them.
const (
	EventSessionStart EventType = "session_start"
	EventRoundStart   EventType = "round_start"
	EventTurnStart    EventType = "turn_start"
	EventToken        EventType = "token"
	EventRetry        EventType = "retry"
	EventActivity     EventType = "activity"
	EventTurnEnd      EventType = "turn_end"
	EventRoundEnd     EventType = "round_end"
	EventNote         EventType = "note"
	EventPause        EventType = "pause"
	EventBudget       EventType = "budget"
	EventRanking      EventType = "ranking"
	EventSummary      EventType = "summary"
	EventDone         EventType = "done"
	EventError        EventType = "error"
)

// CancelledMessage is the message of the error event that ends a cancelled
// debate.
const CancelledMessage = "cancelled"

// Event is one event of a debate. Type says which fields are set; the JSON
// form (MarshalJSON) is {"event": Type, "data": {...}} with the payload
// names of the contract (../shared/design/debate-events.md) plus a few
// extra fields, and the events this project adds: retry, activity, note,
// pause and ranking:
//
//	session_start {topic, agents, rounds, provider, model?}
//	round_start   {round}
//	turn_start    {round, agent, model}
//	retry         {round, agent, reason, status?, attempt, max_attempts, wait_ms}
//	token         {round, agent, text}
//	activity      {round, agent, kind, text}
//	turn_end      {round, agent, full_text, model, usage, incomplete?, truncated?}
//	round_end     {round, consensus?}
//	note          {round, from, text}          (from: "user")
//	pause         {round}
//	budget        {round, reason, usage}       (a budget was spent: the verdict comes now)
//	ranking       {round, agent, text, ranking, model?, usage?}
//	summary       {text, round, model, usage}
//	done          {usage}                      (the debate's total usage)
//	error         {message, agent?, round?, provider?, usage?}
//
// Fields marked ? are written only when set.
//
// A retry event says the provider's request failed before any reply (HTTP
// 429 or 5xx, or a connection dropped before the answer) and is about to
// be made again: reason is "HTTP 429" or "a dropped connection", attempt
// the attempt about to be made (2 for the first retry) of max_attempts,
// wait_ms the pause before it. It comes inside the turn it delays, after
// its turn_start and before its first token; for the moderator's verdict
// or consensus check, which are not streamed as turns, it comes between
// rounds with agent the moderator's name. A turn may see several; the
// views show the last one until the first token (RetryLabel words it).
//
// The verdict streams too: token events whose agent is the moderator's
// name come after the last round_end (or the budget event), with the
// round held, and concatenate to the summary's text, which carries it
// whole (a view that does not stream it may ignore them). No turn_start
// or turn_end surrounds them.
//
// A budget event says the debate's total reached --max-cost or
// --max-tokens-total (Config.MaxCost, MaxTokensTotal) after a turn that
// was not the last: it
// comes right after that turn's turn_end, ends the round there (no
// round_end follows), and the moderator's summary and done follow; reason
// says which budget ("the cost budget of $0.50 was reached ($0.5012
// spent)"), usage is the total so far.
//
// An activity event says what a persona spoken by a coding agent did
// besides speaking: kind "tool" (a tool call, "reading room/store.go"),
// "plan", "refused" (a permission refused, "refused: edit main.go"),
// "failed" (a tool call that failed, "failed: touch x (Read-only file
// system)"; a command that ran says so as a "tool" line, "ran: go test
// ./...") or "note"; text is one line. It comes inside the turn, between its
// turn_start and turn_end, and is not part of the turn's text: tokens
// alone make full_text. For the moderator it comes between rounds, like a
// retry.
//
// A ranking event (Config.Rank) is one persona's peer ranking: after the
// last round's round_end (and its pause, if any), or the round_end of a
// debate stopped early on consensus, each persona in speaking order ranks
// the others' final turns, shown to it unlabelled ("Response A", "Response
// B"… in an order drawn from the seed), and its reply ends with a line
// "FINAL RANKING: C, A, B". The event comes once the reply is whole: agent
// is the ranker, round the last round held, text the whole reply, ranking
// the order it gave in persona names, best first (empty, never null, when
// no ranking could be read from the reply; letters it repeated or that
// name nobody are dropped). A ranking is not streamed: no token, retry or
// activity event comes for it, and no turn_start or turn_end surrounds
// it. The rankings come before the moderator's verdict, whose prompt
// shows them; a debate stopped by a budget gives none.
//
// A note event is the user's note (Session.Interject) joining the
// transcript: from is "user", text the note, round the round it was given
// in. It comes between turns, never inside one: before the turn_start of
// the next turn, after a round_end, or (with StopOnConsensus) before the
// round_end of the moderator's check, so the check weighs it. Every turn
// that starts after it, and the moderator's check and verdict, see it in
// their transcript as the user's words. Notes come in the order given, each once; a note given while the
// moderator writes the verdict, or after the end, is refused, not sent.
//
// A pause event (Config.PauseBetweenRounds) comes after each round_end,
// the last round's too, and after that round's notes: the engine waits for
// Session.Continue, sending a note event for each note given meanwhile,
// then goes on with the next round_start (or the verdict). The room keeps
// the pause (room.PauseFile), so every reader of it sends the same pause
// event: Session.Events, a second screen, a mirror, the SSE stream. A
// debate stopped while paused and resumed pauses again first, before its
// next round.
//
// The invariants each stream keeps (tested over many random debates):
//
//  1. It ends with exactly one done or error, and nothing follows it.
//  2. The token deltas of a turn concatenate exactly to its turn_end's
//     full_text; the moderator's, to the summary's text.
//  3. Rounds count from 1; turn order within a round is the persona order.
//  4. Cancelling ends it promptly with error {message: "cancelled"}, after
//     an incomplete turn_end keeping what was said.
//  5. A provider failure mid-turn ends it with an error naming the
//     provider, the persona and the cause.
//  6. A retry names the turn it is in (or the moderator, between turns),
//     comes before that turn's first token, and counts attempts from 2 up
//     to max_attempts.
type Event struct {
	Type EventType

	Topic    string   // session_start
	Agents   []string // session_start: persona names in speaking order
	Rounds   int      // session_start: rounds planned
	Provider string   // session_start; error when a provider failed

	Round int    // round_start, turn_start, token, turn_end, round_end, ranking, summary; error when in a turn
	Agent string // turn_start, token, turn_end, ranking (the ranker); error when a persona's turn failed
	Model string // turn_start, turn_end, ranking, summary: the model label; session_start: the provider's model, when one is named

	// Text is the token's delta, the turn_end's full text, the ranking's
	// reply, the summary's verdict or the error's message.
	Text string

	// Usage is the turn's usage (turn_end), the ranker's (ranking), the
	// moderator's (summary) or the debate's total (done, error).
	Usage *Usage

	// MessageKind is a turn_end's message kind as its room holds it: a
	// debate's "turn" or "incomplete", an MCP room's brief, challenge,
	// answer… (set when read back from the room, StoreEvents). Not part of
	// the JSON form.
	MessageKind string

	Incomplete bool  // turn_end: the turn was cut short by an error or cancellation
	Truncated  bool  // turn_end: the turn was cut at Config.MaxTurnTokens
	Consensus  *bool // round_end: the moderator's answer when a consensus check ran

	// From is who wrote a note (NoteFrom, "user"); Text is the note.
	From string

	// Ranking is a ranking event's order: persona names, best first.
	Ranking []string

	// Kind is an activity's kind (ActivityTool, ActivityPlan,
	// ActivityRefused, ActivityNote); Text is its line.
	Kind string

	// retry: the attempt about to be made (2 for the first retry), of
	// Attempts in all; the HTTP Status that failed the last one (0 for a
	// dropped connection); the Wait before it. Text is the reason.
	Attempt  int
	Attempts int
	Status   int
	Wait     time.Duration

	// Err is the cause of an error event, for errors.Is and errors.As. It is
	// not part of the JSON form.
	Err error

	// Pieces is how many of the provider's tokens a token event's text
	// holds: one from the engine, as many as the draft grew by when read
	// back from the room (StoreEvents); 0 counts as one. Not part of the
	// JSON form.
	Pieces int

	// Seq and Line say where the room holds what the event shows, when it
	// was read back from the room (StoreEvents): Seq is a turn_end's,
	// ranking's or summary's message number, and that of the events a turn read whole
	// brings before its turn_end, or a note's number; Line is an activity
	// line's number in its turn (from 1). 0 when unknown. A reader
	// resuming a stream tells by them what it had. Not part of the JSON
	// form.
	Seq, Line int

	// stored: a note event for a note already in the room (the recorder
	// does not write it again).
	stored bool
}

// Usage counts the tokens of one reply or of a whole debate. Cost is in the
// provider's currency (US dollars for OpenRouter), 0 when not reported.
type Usage struct {
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost,omitempty"`
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.PromptTokens += o.PromptTokens
	u.CompletionTokens += o.CompletionTokens
	u.Cost += o.Cost
}

// IsTerminal reports whether e ends a stream (done or error).
func (e Event) IsTerminal() bool { return e.Type == EventDone || e.Type == EventError }

// RetryLabel is how a retry event reads on a screen or a terminal:
// "retrying after HTTP 429 · attempt 2/4".
func (e Event) RetryLabel() string {
	return fmt.Sprintf("retrying after %s · attempt %d/%d", e.Text, e.Attempt, e.Attempts)
}

// wire is the union of every payload field, for decoding.
type wire struct {
	Topic      string   `json:"topic,omitempty"`
	Agents     []string `json:"agents,omitempty"`
	Rounds     int      `json:"rounds,omitempty"`
	Provider   string   `json:"provider,omitempty"`
	Round      int      `json:"round,omitempty"`
	Agent      string   `json:"agent,omitempty"`
	Model      string   `json:"model,omitempty"`
	Text       string   `json:"text,omitempty"`
	FullText   string   `json:"full_text,omitempty"`
	Message    string   `json:"message,omitempty"`
	Usage      *Usage   `json:"usage,omitempty"`
	Incomplete bool     `json:"incomplete,omitempty"`
	Truncated  bool     `json:"truncated,omitempty"`
	Consensus  *bool    `json:"consensus,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Status     int      `json:"status,omitempty"`
	Attempt    int      `json:"attempt,omitempty"`
	Attempts   int      `json:"max_attempts,omitempty"`
	WaitMS     int64    `json:"wait_ms,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	From       string   `json:"from,omitempty"`
	Ranking    []string `json:"ranking,omitempty"`
}

// Payload shapes, one per event type, so required fields are always
// written, empty or not.
type (
	sessionStartData struct {
		Topic    string   `json:"topic"`
		Agents   []string `json:"agents"`
		Rounds   int      `json:"rounds"`
		Provider string   `json:"provider,omitempty"`
		Model    string   `json:"model,omitempty"`
	}
	roundData struct {
		Round int `json:"round"`
	}
	turnStartData struct {
		Round int    `json:"round"`
		Agent string `json:"agent"`
		Model string `json:"model,omitempty"`
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
	tokenData struct {
		Round int    `json:"round"`
		Agent string `json:"agent"`
		Text  string `json:"text"`
	}
	activityData struct {
		Round int    `json:"round"`
		Agent string `json:"agent"`
		Kind  string `json:"kind"`
		Text  string `json:"text"`
	}
	turnEndData struct {
		Round      int    `json:"round"`
		Agent      string `json:"agent"`
		FullText   string `json:"full_text"`
		Model      string `json:"model,omitempty"`
		Usage      *Usage `json:"usage,omitempty"`
		Incomplete bool   `json:"incomplete,omitempty"`
		Truncated  bool   `json:"truncated,omitempty"`
	}
	roundEndData struct {
		Round     int   `json:"round"`
		Consensus *bool `json:"consensus,omitempty"`
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
	summaryData struct {
		Text  string `json:"text"`
		Round int    `json:"round,omitempty"`
		Model string `json:"model,omitempty"`
		Usage *Usage `json:"usage,omitempty"`
	}
	doneData struct {
		Usage *Usage `json:"usage,omitempty"`
	}
	errorData struct {
		Message  string `json:"message"`
		Agent    string `json:"agent,omitempty"`
		Round    int    `json:"round,omitempty"`
		Provider string `json:"provider,omitempty"`
		Usage    *Usage `json:"usage,omitempty"`
	}
)

// data returns the payload of e in its contract shape.
func (e Event) data() (any, error) {
	switch e.Type {
	case EventSessionStart:
		agents := e.Agents
		if agents == nil {
			agents = []string{}
		}
		return sessionStartData{Topic: e.Topic, Agents: agents, Rounds: e.Rounds, Provider: e.Provider, Model: e.Model}, nil
	case EventRoundStart:
		return roundData{Round: e.Round}, nil
	case EventTurnStart:
		return turnStartData{Round: e.Round, Agent: e.Agent, Model: e.Model}, nil
	case EventRetry:
		return retryData{
			Round: e.Round, Agent: e.Agent, Reason: e.Text, Status: e.Status,
			Attempt: e.Attempt, Attempts: e.Attempts, WaitMS: e.Wait.Milliseconds(),
		}, nil
	case EventToken:
		return tokenData{Round: e.Round, Agent: e.Agent, Text: e.Text}, nil
	case EventActivity:
		return activityData{Round: e.Round, Agent: e.Agent, Kind: e.Kind, Text: e.Text}, nil
	case EventTurnEnd:
		return turnEndData{
			Round: e.Round, Agent: e.Agent, FullText: e.Text, Model: e.Model,
			Usage: e.Usage, Incomplete: e.Incomplete, Truncated: e.Truncated,
		}, nil
	case EventRoundEnd:
		return roundEndData{Round: e.Round, Consensus: e.Consensus}, nil
	case EventNote:
		return noteData{Round: e.Round, From: e.From, Text: e.Text}, nil
	case EventPause:
		return roundData{Round: e.Round}, nil
	case EventBudget:
		return budgetData{Round: e.Round, Reason: e.Text, Usage: e.Usage}, nil
	case EventRanking:
		order := e.Ranking
		if order == nil {
			order = []string{}
		}
		return rankingData{Round: e.Round, Agent: e.Agent, Text: e.Text, Ranking: order, Model: e.Model, Usage: e.Usage}, nil
	case EventSummary:
		return summaryData{Text: e.Text, Round: e.Round, Model: e.Model, Usage: e.Usage}, nil
	case EventDone:
		return doneData{Usage: e.Usage}, nil
	case EventError:
		return errorData{Message: e.Text, Agent: e.Agent, Round: e.Round, Provider: e.Provider, Usage: e.Usage}, nil
	}
	return nil, fmt.Errorf("debate: unknown event type %q", e.Type)
}

// MarshalJSON writes e as {"event": type, "data": {...}}, with <, > and &
// as themselves.
func (e Event) MarshalJSON() ([]byte, error) {
	d, err := e.data()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(struct {
		Event EventType `json:"event"`
		Data  any       `json:"data"`
	}{e.Type, d}); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (e *Event) UnmarshalJSON(b []byte) error {
	var env struct {
		Event EventType       `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("debate: not an event: %w", err)
	}
	var w wire
	if len(env.Data) > 0 {
		if err := json.Unmarshal(env.Data, &w); err != nil {
			return fmt.Errorf("debate: the data of a %s event: %w", env.Event, err)
		}
	}
	*e = Event{
		Type: env.Event, Topic: w.Topic, Agents: w.Agents, Rounds: w.Rounds, Provider: w.Provider,
		Round: w.Round, Agent: w.Agent, Model: w.Model, Usage: w.Usage,
		Incomplete: w.Incomplete, Truncated: w.Truncated, Consensus: w.Consensus,
	}
	switch env.Event {
	case EventTurnEnd:
		e.Text = w.FullText
	case EventError:
		e.Text = w.Message
	case EventBudget:
		e.Text = w.Reason
	case EventRetry:
		e.Text, e.Status, e.Attempt, e.Attempts = w.Reason, w.Status, w.Attempt, w.Attempts
		e.Wait = time.Duration(w.WaitMS) * time.Millisecond
	case EventActivity:
		e.Text, e.Kind = w.Text, w.Kind
	case EventNote:
		e.Text, e.From = w.Text, w.From
	case EventPause:
	case EventRanking:
		e.Text, e.Ranking = w.Text, w.Ranking
	case EventSessionStart, EventRoundStart, EventTurnStart, EventToken, EventRoundEnd, EventSummary, EventDone:
		e.Text = w.Text
	default:
		return fmt.Errorf("debate: unknown event type %q", env.Event)
	}
	return nil
}
