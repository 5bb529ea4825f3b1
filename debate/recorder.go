package debate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// Message kinds of a debate room. A finished turn is KindTurn; a turn cut
// short by an error or cancellation is KindIncomplete, and its text ends
// with a note saying why. A persona's peer ranking (Config.Rank) is
// room.KindRanking, its order in room.Message.Ranking. The verdict is
// room.KindSummary.
const (
	KindTurn       = "turn"
	KindIncomplete = "incomplete"
)

// Close reasons of a debate room: "complete", "cancelled", "output closed"
// (stopped because its output was closed, see ErrOutputClosed), or
// "failed: " followed by the error message.
const (
	ReasonComplete     = "complete"
	ReasonCancelled    = "cancelled"
	ReasonOutputClosed = "output closed"
	ReasonFailed       = "failed: "
)

// RoomName is a fresh room name for a debate on topic started at t: the
// topic's slug and the time, like "should-we-adopt-graphql-20261130-142010".
// It always passes room.ValidateName.
func RoomName(topic string, t time.Time) string {
	slug := room.Slug(topic)
	if slug == "" {
		slug = "debate"
	}
	return slug + "-" + t.Format("20060102-150405")
}

// CreateRoom creates the room a debate is saved in, under cwd: room.json
// with mode "debate", the agents and the rounds. With name empty it makes
// one from the topic and the time (RoomName), adding -2, -3... if taken. A
// name given explicitly must be valid and new (errors wrap ErrBadConfig).
func CreateRoom(cwd, name string, cfg Config) (*room.Room, error) {
	opts := room.CreateOptions{
		Topic: cfg.Topic, Budget: cfg.Rounds, Mode: room.ModeDebate,
		Agents: cfg.Names(), Rounds: cfg.Rounds, Pause: cfg.PauseBetweenRounds, Rank: cfg.Rank,
		Provider: cfg.Provider, Model: cfg.Model,
	}
	for _, p := range cfg.Personas {
		opts.Personas = append(opts.Personas, room.PersonaInfo(p))
	}
	if cfg.Moderator.Persona != "" {
		m := room.PersonaInfo(cfg.Moderator)
		opts.Moderator = &m
	}
	if name != "" {
		if err := room.ValidateName(name); err != nil {
			return nil, fmt.Errorf("%w: --room: %w", ErrBadConfig, err)
		}
		r, created, err := room.Create(cwd, name, opts)
		if err != nil {
			return nil, fmt.Errorf("create room %q: %w", name, err)
		}
		if !created {
			return nil, fmt.Errorf("%w: room %q already exists in %s; choose another --room, or leave it out for a new one", ErrBadConfig, name, r.Dir())
		}
		return r, nil
	}
	base := RoomName(cfg.Topic, time.Now())
	for i := 1; i <= 100; i++ {
		n := base
		if i > 1 {
			n = fmt.Sprintf("%s-%d", base, i)
		}
		r, created, err := room.Create(cwd, n, opts)
		if err != nil {
			return nil, fmt.Errorf("create room %q: %w", n, err)
		}
		if created {
			return r, nil
		}
	}
	return nil, fmt.Errorf("create a room for this debate: names %s-2 to -100 are all taken; pass --room", base)
}

// Recorder saves a debate's events into its room: each turn when it ends,
// each peer ranking, the verdict as the moderator's summary, closed.json at the end. A
// Session runs each event through it (record), or call Handle for each
// event yourself.
type Recorder struct {
	r        *room.Room
	pending  *Event                       // an incomplete turn, written once the error says why
	activity map[string][]room.Activity   // by speaker: what their agent did, saved with their next message
	retries  map[string][]room.DraftRetry // by speaker: requests made again, saved with their next message
	pendAct  []room.Activity              // the pending turn's
	budget   string                       // the budget event's reason: the room closes complete, saying so
	err      error
	closed   bool
	paused   bool // paused.json was written, and the debate has not gone on since
	// drafts writes each speaker's turn in progress as its seat's draft
	// (nil: drafts off, as the benchmarks compare); moderator is the moderator's
	// name, whose tokens (if any) are the moderator seat's.
	drafts    *drafts
	moderator string
	seats     map[string]bool
}

// maxSavedRetries bounds the retries saved with one message.
const maxSavedRetries = 20

// maxSavedActivity bounds the activity lines saved with one message, so a
// busy agent cannot bloat the room; the latest are kept.
const maxSavedActivity = 200

// NewRecorder returns a recorder writing into r (from CreateRoom). While a
// persona speaks, its text so far is its seat's draft in the room,
// rewritten at most every DraftInterval and removed when the turn's
// message is written, when the turn is cut, and when the room closes.
func NewRecorder(r *room.Room) *Recorder {
	rc := &Recorder{r: r, drafts: newDrafts(r), seats: map[string]bool{}}
	for _, s := range r.Config().Seats() {
		rc.seats[s] = true
	}
	if m := r.Config().Moderator; m != nil {
		rc.moderator = m.Name
	}
	return rc
}

// draftSeat is the seat a speaker's draft belongs to: the persona's name,
// or the moderator seat for the moderator; "" when the room has no such
// seat (its draft is not written).
func (rc *Recorder) draftSeat(agent string) string {
	if agent != "" && agent == rc.moderator {
		return room.SeatModerator
	}
	if rc.seats[agent] {
		return agent
	}
	return ""
}

// drafting is the seat whose draft agent's words are written to: its
// draftSeat, or "" when the drafts are off.
func (rc *Recorder) drafting(agent string) string {
	if rc.drafts == nil {
		return ""
	}
	return rc.draftSeat(agent)
}

// Handle saves what ev adds to the debate. It returns the first save error
// so far; a failed write does not stop later ones.
func (rc *Recorder) Handle(ev Event) error {
	rc.pause(ev)
	switch ev.Type {
	case EventTurnStart:
		if seat := rc.drafting(ev.Agent); seat != "" {
			// Written empty once the persona has thought a moment: a
			// reader sees the turn begin, and a note given then comes
			// after it.
			rc.drafts.opened(seat, ev.Model)
		}
	case EventToken:
		if seat := rc.drafting(ev.Agent); seat != "" {
			rc.drafts.token(seat, ev.Text)
		}
	case EventTurnEnd:
		rc.flush("")
		seat := rc.draftSeat(ev.Agent)
		rc.endDraft(seat)
		act := rc.takeActivity(ev.Agent)
		if ev.Incomplete {
			e := ev
			rc.pending, rc.pendAct = &e, act
			break
		}
		rc.write(room.Post{Seat: ev.Agent, Agent: ev.Model, Kind: KindTurn, Text: orNoReply(ev.Text), Round: ev.Round, Activity: act, Usage: roomUsage(ev.Usage), Retries: rc.takeRetries(ev.Agent)})
		rc.clearDraft(seat)
	case EventRanking:
		rc.flush("")
		rc.write(room.Post{
			Seat: ev.Agent, Agent: ev.Model, Kind: room.KindRanking, Text: orNoReply(ev.Text), Round: ev.Round,
			Usage: roomUsage(ev.Usage), Ranking: ev.Ranking,
		})
	case EventSummary:
		rc.flush("")
		rc.endDraft(room.SeatModerator)
		defer rc.clearDraft(room.SeatModerator)
		var act []room.Activity
		for name := range rc.activity {
			// The moderator's agent: the only speaker left with activity
			// once every turn has ended.
			act = append(act, rc.takeActivity(name)...)
		}
		rc.write(room.Post{Seat: room.SeatModerator, Agent: ev.Model, Kind: room.KindSummary, Text: orNoReply(ev.Text), Round: ev.Round, Activity: act, Usage: roomUsage(ev.Usage)})
	case EventRetry:
		rt := room.DraftRetry{
			Attempt: ev.Attempt, Attempts: ev.Attempts, Status: ev.Status,
			WaitMS: ev.Wait.Milliseconds(), Reason: ev.Text,
		}
		if seat := rc.drafting(ev.Agent); seat != "" {
			rc.drafts.retry(seat, rt)
		}
		if rc.retries == nil {
			rc.retries = map[string][]room.DraftRetry{}
		}
		if r := rc.retries[ev.Agent]; len(r) < maxSavedRetries {
			rc.retries[ev.Agent] = append(r, rt)
		}
	case EventActivity:
		if seat := rc.drafting(ev.Agent); seat != "" {
			rc.drafts.activity(seat, room.Activity{Kind: ev.Kind, Text: ev.Text})
		}
		if rc.activity == nil {
			rc.activity = map[string][]room.Activity{}
		}
		a := append(rc.activity[ev.Agent], room.Activity{Kind: ev.Kind, Text: ev.Text})
		if len(a) > maxSavedActivity {
			a = a[len(a)-maxSavedActivity:]
		}
		rc.activity[ev.Agent] = a
	case EventBudget:
		rc.flush("")
		rc.budget = ev.Text
		if rc.drafts != nil && rc.seats[room.SeatModerator] {
			// The store says now that the verdict comes early, and why.
			rc.drafts.open(room.SeatModerator, "", oneLine(ev.Text))
		}
	case EventDone:
		rc.flush("")
		if rc.budget != "" {
			rc.close(ReasonBudget + oneLine(rc.budget))
			break
		}
		rc.close(ReasonComplete)
	case EventError:
		why := ev.Text
		if why == CancelledMessage {
			reason, detail := ReasonCancelled, stopDetail(ev.Err)
			if errors.Is(ev.Err, ErrOutputClosed) {
				reason, detail = ReasonOutputClosed, ""
			}
			cut := reason
			if detail != "" {
				cut += ": " + detail
			}
			rc.flush(cut)
			rc.closeWith(reason, detail)
			break
		}
		rc.flush(why)
		seat := ""
		if ev.Agent != "" {
			if seat = rc.draftSeat(ev.Agent); seat == "" {
				seat = ev.Agent
			}
		}
		rc.closeNaming(ReasonFailed+why, "", seat)
	case EventNote:
		rc.note(ev)
	case EventRoundEnd:
		if ev.Consensus != nil && *ev.Consensus {
			// The rounds end here: a debate stopped before its verdict
			// resumes at the verdict (Position.Consensus).
			if err := rc.r.SetConsensus(ev.Round); err != nil {
				rc.fail(err)
			}
		}
	case EventSessionStart, EventRoundStart, EventPause:
	}
	return rc.err
}

// pause writes paused.json at a pause between rounds, and removes it once
// the debate goes on: at the next round, or the verdict. A debate stopped
// while paused keeps it (notes and its end are no going on), so it
// resumes paused.
func (rc *Recorder) pause(ev Event) {
	switch ev.Type {
	case EventPause:
		if err := rc.r.SetPaused(ev.Round); err != nil {
			rc.fail(err)
			return
		}
		rc.paused = true
	case EventNote, EventDone, EventError:
	default:
		if rc.paused {
			rc.paused = false
			if err := rc.r.ClearPaused(); err != nil {
				rc.fail(err)
			}
		}
	}
}

// endDraft stops writing seat's draft ("" and drafts off: nothing).
func (rc *Recorder) endDraft(seat string) {
	if seat != "" && rc.drafts != nil {
		rc.drafts.end(seat)
	}
}

// clearDraft removes seat's draft once its message is written.
func (rc *Recorder) clearDraft(seat string) {
	if seat != "" && rc.drafts != nil {
		rc.drafts.clear(seat)
	}
}

// takeRetries returns and forgets name's retries in its turn.
func (rc *Recorder) takeRetries(name string) []room.DraftRetry {
	r := rc.retries[name]
	delete(rc.retries, name)
	return r
}

// takeActivity returns and forgets what name's agent did.
func (rc *Recorder) takeActivity(name string) []room.Activity {
	a := rc.activity[name]
	delete(rc.activity, name)
	return a
}

// Finish closes the room if no terminal event did (the stream broke off).
func (rc *Recorder) Finish() error {
	if !rc.closed {
		rc.flush("the stream ended early")
		rc.close(ReasonFailed + "the event stream ended without done or error")
	}
	return rc.err
}

// flush writes the pending incomplete turn with a note saying why it ended.
func (rc *Recorder) flush(why string) {
	if rc.pending == nil {
		return
	}
	ev, act := *rc.pending, rc.pendAct
	rc.pending, rc.pendAct = nil, nil
	if why == "" {
		why = "cut off"
	}
	text := strings.TrimRight(ev.Text, "\n ") + incompleteNote + oneLine(why) + "]*"
	rc.write(room.Post{Seat: ev.Agent, Agent: ev.Model, Kind: KindIncomplete, Text: text, Round: ev.Round, Activity: act, Usage: roomUsage(ev.Usage)})
	rc.clearDraft(rc.draftSeat(ev.Agent))
}

func (rc *Recorder) write(p room.Post) {
	if len(p.Text) > room.MaxTextBytes {
		note := "\n\n*[shortened: the reply was longer than a room message may be]*"
		p.Text = strings.ToValidUTF8(p.Text[:room.MaxTextBytes-len(note)], "") + note
	}
	if _, err := rc.r.Record(p); err != nil {
		rc.fail(err)
	}
}

func (rc *Recorder) close(reason string) { rc.closeWith(reason, "") }

// closeWith writes closed.json with reason and, when not empty, the detail
// saying more (closed.json's "detail").
func (rc *Recorder) closeWith(reason, detail string) { rc.closeNaming(reason, detail, "") }

// closeNaming is closeWith naming the seat whose failure ended the debate
// (closed.json's "seat"), when there is one.
func (rc *Recorder) closeNaming(reason, detail, seat string) {
	if rc.closed {
		return
	}
	rc.closed = true
	if rc.drafts != nil {
		// Before closed.json: a reader that sees the close sees no draft.
		rc.drafts.close()
	}
	if _, err := rc.r.Close(room.CloseOptions{Reason: reason, Detail: oneLine(detail), Seat: seat}); err != nil {
		rc.fail(err)
	}
}

// stopDetail is what closed.json says of why a debate was stopped, from
// the cause its context was cancelled with: the signal that stopped the
// process ("hung up (SIGHUP): …"), or empty for a plain stop (esc, Stop).
func stopDetail(cause error) string {
	if cause == nil || cause == context.Canceled || errors.Is(cause, ErrOutputClosed) {
		return ""
	}
	return cause.Error()
}

func (rc *Recorder) fail(err error) {
	if rc.err == nil {
		rc.err = fmt.Errorf("%w in room %s: %w", ErrSave, rc.r.Dir(), err)
	}
}

// incompleteNote begins the line an incomplete turn's message ends with,
// saying why it was cut.
const incompleteNote = "\n\n*[incomplete: "

func orNoReply(s string) string {
	if strings.TrimSpace(s) == "" {
		return "*(no reply)*"
	}
	return s
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// record saves events through rc as they pass and forwards each one,
// unchanged, after it is saved: a view that sees turn_end knows the turn is
// on disk. If saving failed, the final done becomes an error (ErrSave)
// saying so; there is still exactly one final event. It calls ended (when
// not nil) once the input stream has ended, before the output closes.
func record(events <-chan Event, rc *Recorder, ended func()) <-chan Event {
	out := make(chan Event, eventBuffer)
	go func() {
		defer close(out)
		if ended != nil {
			defer ended()
		}
		terminal := false
		for ev := range events {
			err := rc.Handle(ev)
			if ev.Type == EventDone && err != nil {
				ev = Event{Type: EventError, Text: err.Error(), Usage: ev.Usage, Err: err}
			}
			terminal = terminal || ev.IsTerminal()
			out <- ev
		}
		if !terminal {
			err := rc.Finish()
			if err == nil {
				err = errors.New("the debate's event stream ended without done or error")
			}
			out <- Event{Type: EventError, Text: err.Error(), Err: err}
		}
	}()
	return out
}

// ConfigFromRoom is the debate a debate room recorded, ready to run again:
// its topic, its panel and moderator, its rounds, whether it paused
// between rounds and whether its personas ranked each other. ok is false for a room
// that is not a debate or that does not record its personas (rooms saved
// before they did, or written by another tool).
func ConfigFromRoom(rc room.Config) (cfg Config, ok bool) {
	if !rc.IsDebate() || len(rc.Personas) == 0 {
		return Config{}, false
	}
	cfg = Config{Topic: rc.Topic, Rounds: rc.Rounds, PauseBetweenRounds: rc.Pause, Rank: rc.Rank}
	for _, p := range rc.Personas {
		cfg.Personas = append(cfg.Personas, Persona(p))
	}
	if rc.Moderator != nil {
		cfg.Moderator = Persona(*rc.Moderator)
	}
	if _, err := cfg.Normalize(); err != nil {
		return Config{}, false
	}
	return cfg, true
}
