package debate

import (
	"context"
	"maps"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// A debate's run writes everything into its room (Recorder): each finished
// turn a message, each turn in progress its seat's draft (with its agent's
// activity and its retries), the user's notes, each peer ranking, the
// verdict, and closed.json saying how it ended and, on a failure, whose. StoreEvents
// reads that back as the debate's events, so a screen has one input and
// one apply step whatever it shows: a debate running in this process, in
// another, on another machine through a host's mirror, or one that ended
// long ago (whose feed is the closed room, read once).
//
// What the store cannot say comes coarser than the engine's own events:
// tokens arrive as the draft grew between two writes (at most 30 a second
// per seat) and a round's end carries no consensus answer. The pause
// between rounds is the room's paused.json (room.PauseFile).

// StoreEvents follows a debate room's feed as debate events.
type StoreEvents struct {
	f       *room.Feed
	r       *RoomReader            // read the feed's snapshot; its translator takes each change after
	holders map[string]room.Holder // who holds each seat, as last read (Holders)
}

// FollowStore starts following r (see room.Feed) and returns what the room
// holds now as events: session_start, then its turns, notes, verdict,
// turns in progress and, for a closed room, the final event. Next returns
// the events of each later change. Close it when done.
func FollowStore(ctx context.Context, r *room.Room) (*StoreEvents, []Event, error) {
	f, err := r.Feed(ctx)
	if err != nil {
		return nil, nil, err
	}
	snap := f.Snapshot()
	s := &StoreEvents{f: f, r: NewRoomReader(snap.Config), holders: maps.Clone(snap.Holders)}
	if s.holders == nil {
		s.holders = map[string]room.Holder{}
	}
	return s, s.r.Read(snap.State, snap.Drafts), nil
}

// A RoomReader turns looks at a debate room that its reader takes itself
// (a screen watching the room with a watch of its own) into the debate's
// events, as FollowStore does for a room it follows.
type RoomReader struct {
	c       *room.FeedCursor
	t       storeTranslator
	started bool
}

// NewRoomReader is a reader of a debate room with cfg that has read
// nothing yet.
func NewRoomReader(cfg room.Config) *RoomReader {
	return &RoomReader{c: room.NewFeedCursor(cfg), t: newStoreTranslator(cfg)}
}

// Read returns the events of what st and drafts (read after st) hold
// beyond the last Read; the first starts with session_start. A room found
// closed at the first Read is a finished debate: its turns come whole.
func (r *RoomReader) Read(st room.State, drafts []room.Draft) []Event {
	var out []Event
	if !r.started {
		r.started = true
		r.t.live = st.Closed == nil
		out = append(out, r.t.start())
	}
	for _, fe := range r.c.Changes(nil, st, drafts, true) {
		out = r.t.change(out, fe)
	}
	return out
}

// Ended reports whether the final event was returned.
func (r *RoomReader) Ended() bool { return r.t.ended }

// Next waits for the room's next change and returns its events (none when
// the change shows nothing new, e.g. a draft removed after its message);
// ctx's error when ctx ends, or the error reading the room.
func (s *StoreEvents) Next(ctx context.Context) ([]Event, error) {
	return s.events(s.f.NextBatch(ctx))
}

// Poll returns the events of what changed since the last look, without
// waiting (none when nothing did).
func (s *StoreEvents) Poll() ([]Event, error) { return s.events(s.f.Poll()) }

// events translates a batch of the feed's changes.
func (s *StoreEvents) events(batch []room.FeedEvent, err error) ([]Event, error) {
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, fe := range batch {
		if fe.Kind == room.FeedHolder {
			s.holders[fe.HolderOf] = fe.Holder
		}
		out = s.r.t.change(out, fe)
	}
	return out, nil
}

// Holders is who holds each seat of the room (by seat; "" for a debate's
// run, which holds every persona's) as the feed last read it: the
// snapshot's, then each change Next or Poll took. Who holds a seat is no
// event of the debate (a view that shows it reads it here); the map is
// the follower's, not to be changed.
func (s *StoreEvents) Holders() map[string]room.Holder { return s.holders }

// Ended reports whether the room's final event was returned.
func (s *StoreEvents) Ended() bool { return s.r.Ended() }

// State is the room as the events so far leave it (room.Feed.State):
// what a reader shows of a room its events closed.
func (s *StoreEvents) State() room.State { return s.f.State() }

// RunGone reports whether the debate's process ended without closing its
// room, as the feed last read who holds its run (room.Feed.RunGone).
func (s *StoreEvents) RunGone() bool { return s.f.RunGone() }

// Close stops following the room.
func (s *StoreEvents) Close() { s.f.Close() }

// Stream sends first (what FollowStore returned), then the events of each
// change of the room, on the returned channel, until the room's final
// event, and closes the follow. The final event waits for gone (closed
// once whoever writes the room has stopped, e.g. a debate's run saved):
// then a last look reads what was written last, and the stream ends with
// the room's final event, or end's when the room shows none (its writer
// could not save it). The channel is closed after gone.
func (s *StoreEvents) Stream(first []Event, gone <-chan struct{}, end func() Event) <-chan Event {
	out := make(chan Event, eventBuffer)
	// The reader hands over every batch it read: after a cancel, the
	// loop below takes batches until the reader is done.
	ctx, cancel := context.WithCancel(context.Background())
	batches := make(chan []Event)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for !s.Ended() {
			evs, err := s.Next(ctx)
			if err != nil {
				return // ctx ended, or the room cannot be read: the last look says the rest
			}
			batches <- evs
		}
	}()
	go func() {
		defer close(out)
		defer s.Close()
		defer cancel()
		var final *Event // the room's, held back until gone
		take := func(evs []Event) {
			for _, ev := range evs {
				if ev.IsTerminal() {
					final = &ev
					continue
				}
				out <- ev
			}
		}
		take(first)
		for {
			select {
			case b := <-batches:
				take(b)
				continue
			case <-gone:
			}
			cancel()
			for draining := true; draining; {
				select {
				case b := <-batches:
					take(b)
				case <-readerDone:
					draining = false
				}
			}
			if final == nil {
				if evs, err := s.Poll(); err == nil {
					take(evs)
				}
			}
			if final == nil {
				ev := end()
				final = &ev
			}
			out <- *final
			return
		}
	}()
	return out
}

// storeTranslator turns a debate room's contents, in the order the feed
// gives them, into events.
type storeTranslator struct {
	cfg       room.Config
	agents    []string // the personas, in speaking order
	persona   map[string]bool
	round     int
	roundEnd  int                  // the last round whose round_end was sent
	lastRound map[string]int       // each persona's latest turn's round
	lastAt    map[string]time.Time // each seat's latest message
	open      map[string]*openTurn // each seat's turn in progress (from its draft)
	lastStart map[string]time.Time // when each seat's last turn seen open began
	total     Usage
	ended     bool
	budget    bool    // the budget event was sent
	held      []Event // notes given while a persona spoke (note)
	// again: a resumed run's events, whose screen shows the room's
	// history already; the run's first round starts again, so its
	// round_start is sent even when the history reached that round.
	again bool
	// live: the room is followed while its debate runs, so every turn
	// streams (a finished room read once does not: its turns come whole).
	live bool
}

// openTurn is what was sent of a turn in progress.
type openTurn struct {
	started  time.Time
	round    int
	text     string
	tokens   int // the provider's tokens sent
	activity int // activity lines sent
	retries  int // retries sent
}

func newStoreTranslator(cfg room.Config) storeTranslator {
	t := storeTranslator{
		cfg: cfg, persona: map[string]bool{}, lastRound: map[string]int{},
		lastAt: map[string]time.Time{}, open: map[string]*openTurn{}, lastStart: map[string]time.Time{},
	}
	for _, s := range cfg.Seats() {
		if s != room.SeatModerator {
			t.agents = append(t.agents, s)
			t.persona[s] = true
		}
	}
	return t
}

// rounds is the rounds the debate plans.
func (t *storeTranslator) rounds() int {
	if t.cfg.Rounds > 0 {
		return t.cfg.Rounds
	}
	return t.cfg.Budget
}

// moderatorName is the name the moderator's events carry.
func (t *storeTranslator) moderatorName() string {
	if t.cfg.Moderator != nil && t.cfg.Moderator.Name != "" {
		return t.cfg.Moderator.Name
	}
	return DefaultModerator().Name
}

// start is the session_start event.
func (t *storeTranslator) start() Event {
	return Event{Type: EventSessionStart, Topic: t.cfg.Topic, Agents: t.agents, Rounds: t.rounds(), Provider: t.cfg.Provider, Model: t.cfg.Model}
}

func (t *storeTranslator) change(out []Event, fe room.FeedEvent) []Event {
	switch fe.Kind {
	case room.FeedMessage:
		return t.message(out, fe.Message)
	case room.FeedNote:
		return t.note(out, fe.Note)
	case room.FeedDraft:
		if fe.DraftGone {
			return out // its message, if any, came first
		}
		return t.draft(out, fe.Draft)
	case room.FeedClosed:
		if fe.Closed == nil {
			t.ended, t.live = false, true // opened again: a resumed run goes on
			return out
		}
		return t.closed(out, fe.Closed)
	case room.FeedPaused:
		if fe.Paused != nil && !t.ended {
			// After the round's end (the store shows the round's last
			// message first); going on shows as the next round's start.
			round := fe.Paused.Round
			if t.roundEnd < round {
				t.roundEnd = round
				out = append(out, Event{Type: EventRoundEnd, Round: round})
			}
			return append(out, Event{Type: EventPause, Round: round})
		}
	case room.FeedHolder:
		// Who runs the debate is no event of it: a screen reads the run
		// lock itself (debate.Abandoned).
	}
	return out
}

// startRound sends round_start when round is a new one (or, after a
// resume, the one the run starts again).
func (t *storeTranslator) startRound(out []Event, round int) []Event {
	if round > t.round || (t.again && round == t.round) {
		t.round, t.again = round, false
		out = append(out, Event{Type: EventRoundStart, Round: round})
	}
	return out
}

func (t *storeTranslator) message(out []Event, m room.Message) []Event {
	if at := m.Time(); at.After(t.lastAt[m.Seat]) {
		t.lastAt[m.Seat] = at
	}
	u := UsageOf(m)
	t.total.Add(u)
	var usage *Usage
	if u != (Usage{}) {
		usage = &u
	}
	if m.Kind == room.KindRanking && t.persona[m.Seat] {
		// A peer ranking, given whole: no turn of its seat.
		return append(out, Event{
			Type: EventRanking, Round: m.Round, Agent: m.Seat, Model: m.Agent, Text: m.Text,
			Ranking: rankOrder(m.Ranking, t.agents, m.Seat), Usage: usage, Seq: m.Seq,
		})
	}
	if m.Seat == room.SeatModerator || m.Kind == room.KindSummary {
		if t.live {
			// The verdict's tokens add up to it, as a turn's do: what
			// came after the draft's last write, or all of it.
			sent := ""
			if o := t.open[room.SeatModerator]; o != nil {
				sent = o.text
			}
			if rest, ok := strings.CutPrefix(m.Text, sent); ok && rest != "" {
				out = append(out, Event{Type: EventToken, Round: m.Round, Agent: t.moderatorName(), Text: rest, Seq: m.Seq})
			}
		}
		delete(t.open, room.SeatModerator)
		if t.roundEnd < t.round {
			// The verdict before the last round: the moderator found
			// consensus.
			yes := true
			out = append(out, Event{Type: EventRoundEnd, Round: t.round, Consensus: &yes})
			t.roundEnd = t.round
		}
		return append(out, Event{Type: EventSummary, Round: m.Round, Model: m.Agent, Text: m.Text, Usage: usage, Seq: m.Seq})
	}
	round := m.Round
	if round == 0 {
		round = t.lastRound[m.Seat] + 1
	}
	out = t.startRound(out, round)
	text := m.Text
	if m.Kind == KindIncomplete {
		// What was said, without the note the recorder adds on why it
		// was cut (the error event says that).
		if i := strings.LastIndex(text, incompleteNote); i >= 0 {
			text = text[:i]
		}
	}
	o := t.open[m.Seat]
	if o == nil {
		out = append(out, Event{Type: EventTurnStart, Round: round, Agent: m.Seat, Model: m.Agent, Seq: m.Seq})
		if t.live {
			// A turn over before its draft was read: its retries, then
			// its text as one token, so the tokens still add up to it.
			out = t.retries(out, m.Retries, 0, round, m.Seat, m.Seq)
			out = append(out, Event{Type: EventToken, Round: round, Agent: m.Seat, Text: text, Seq: m.Seq})
		}
	} else if o.text == "" && t.live {
		// Retries after the draft's last read, before any word.
		out = t.retries(out, m.Retries, o.retries, round, m.Seat, m.Seq)
	}
	if o != nil {
		if rest, ok := strings.CutPrefix(text, o.text); ok && rest != "" {
			// What was said after the draft's last write: the tokens add
			// up to the turn, as the engine's do.
			out = append(out, Event{Type: EventToken, Round: round, Agent: m.Seat, Text: rest, Seq: m.Seq})
		}
	}
	if sent := t.activitySent(o); t.live && len(m.Activity) > sent {
		// What the agent did after the draft's last write: the message
		// keeps the turn's activity.
		out = activities(out, m.Activity[sent:], sent+1, round, m.Seat, m.Seq)
	}
	if o != nil {
		t.lastStart[m.Seat] = o.started
	} else {
		delete(t.lastStart, m.Seat)
	}
	delete(t.open, m.Seat)
	t.lastRound[m.Seat] = round
	if m.Kind == KindIncomplete {
		t.lastRound[m.Seat] = round - 1 // a resumed run says this round again
	}
	out = append(out, Event{
		Type: EventTurnEnd, Round: round, Agent: m.Seat, Model: m.Agent, Text: text,
		Usage: usage, Incomplete: m.Kind == KindIncomplete, MessageKind: m.Kind, Seq: m.Seq,
	})
	out = t.release(out)
	if len(t.agents) > 0 && m.Seat == t.agents[len(t.agents)-1] && round > t.roundEnd {
		t.roundEnd = round
		out = append(out, Event{Type: EventRoundEnd, Round: round})
	}
	return out
}

// stale reports whether d is the draft of a turn whose message is in: the
// turn this translator saw end, or, for one it never saw open, a draft
// begun before the message was written (its time has milliseconds only).
func (t *storeTranslator) stale(d room.Draft) bool {
	if d.StartedAt.IsZero() {
		return false
	}
	if started, ok := t.lastStart[d.Seat]; ok {
		return !d.StartedAt.After(started)
	}
	last, ok := t.lastAt[d.Seat]
	return ok && !last.Before(d.StartedAt.Truncate(time.Millisecond))
}

// retries sends the retries in rs after the first sent, of the turn
// that is message seq (0 while it speaks).
func (t *storeTranslator) retries(out []Event, rs []room.DraftRetry, sent, round int, agent string, seq int) []Event {
	for _, rt := range rs[min(sent, len(rs)):] {
		out = append(out, Event{
			Type: EventRetry, Round: round, Agent: agent, Text: rt.Reason, Status: rt.Status,
			Attempt: rt.Attempt, Attempts: rt.Attempts, Wait: time.Duration(rt.WaitMS) * time.Millisecond, Seq: seq,
		})
	}
	return out
}

// activities sends the activity lines as agent's in round, the first
// numbered first in its turn, the turn that is message seq (0 while it
// speaks).
func activities(out []Event, as []room.Activity, first, round int, agent string, seq int) []Event {
	for i, a := range as {
		out = append(out, Event{Type: EventActivity, Round: round, Agent: agent, Kind: a.Kind, Text: a.Text, Seq: seq, Line: first + i})
	}
	return out
}

// activitySent is how many of a turn's activity lines were sent.
func (t *storeTranslator) activitySent(o *openTurn) int {
	if o == nil {
		return 0
	}
	return o.activity
}

// note sends a note, or holds it while a persona speaks: it comes after
// that turn, which did not hear it, as the engine gives it to the next.
func (t *storeTranslator) note(out []Event, n room.Note) []Event {
	round := n.Round
	if round == 0 {
		round = t.round
	}
	ev := Event{Type: EventNote, Round: round, From: n.From, Text: n.Text, Seq: n.Seq}
	if t.speaking() {
		t.held = append(t.held, ev)
		return out
	}
	return append(out, ev)
}

// speaking reports whether a persona's turn is open.
func (t *storeTranslator) speaking() bool {
	for seat := range t.open {
		if seat != room.SeatModerator {
			return true
		}
	}
	return false
}

// release sends the notes held while a persona spoke, once none does.
func (t *storeTranslator) release(out []Event) []Event {
	if len(t.held) == 0 || t.speaking() {
		return out
	}
	out = append(out, t.held...)
	t.held = nil
	return out
}

// draft sends what a turn in progress added since it was last seen: its
// start, its new text, a new activity line or retry.
func (t *storeTranslator) draft(out []Event, d room.Draft) []Event {
	if t.stale(d) {
		return out // left over from the seat's latest message
	}
	agent := d.Seat
	if d.Seat == room.SeatModerator {
		agent = t.moderatorName()
	} else if !t.persona[d.Seat] {
		return out
	}
	o := t.open[d.Seat]
	if o == nil || !o.started.Equal(d.StartedAt) {
		o = &openTurn{started: d.StartedAt}
		t.open[d.Seat] = o
		if d.Seat != room.SeatModerator {
			o.round = t.lastRound[d.Seat] + 1
			out = t.startRound(out, o.round)
			out = append(out, Event{Type: EventTurnStart, Round: o.round, Agent: agent, Model: d.Agent})
		}
	}
	out = t.retries(out, d.Retries, o.retries, o.round, agent, 0)
	o.retries = max(o.retries, len(d.Retries))
	if n := d.ActivityCount - o.activity; n > 0 {
		kept := d.Activity[max(len(d.Activity)-n, 0):]
		out = activities(out, kept, d.ActivityCount-len(kept)+1, o.round, agent, 0)
		o.activity = d.ActivityCount
	}
	if d.Seat == room.SeatModerator {
		o.round = t.round
		if d.Why != "" && !t.budget {
			// The verdict comes early: a budget was reached.
			t.budget = true
			total := t.total
			out = append(out, Event{Type: EventBudget, Round: t.round, Text: d.Why, Usage: &total})
		}
	}
	// A draft only grows within a turn: the engine keeps every piece. An
	// MCP room's sends what its post will say.
	text := d.Text
	if !t.cfg.IsDebate() {
		text = postBody(text)
	}
	if add, ok := strings.CutPrefix(text, o.text); ok && add != "" {
		o.text = text
		out = append(out, Event{Type: EventToken, Round: o.round, Agent: agent, Text: add, Pieces: max(d.Tokens-o.tokens, 1)})
		o.tokens = max(d.Tokens, o.tokens+1)
	}
	return out
}

func (t *storeTranslator) closed(out []Event, c *room.Closed) []Event {
	if t.ended {
		return out
	}
	t.ended = true
	clear(t.open)
	out = t.release(out)
	total := t.total
	switch reason := c.Reason; {
	case IsComplete(reason):
		if budget, ok := strings.CutPrefix(reason, ReasonBudget); ok && !t.budget {
			out = append(out, Event{Type: EventBudget, Round: t.round, Text: budget, Usage: &total})
		}
		return append(out, Event{Type: EventDone, Usage: &total})
	case reason == ReasonCancelled || reason == ReasonOutputClosed:
		return append(out, Event{Type: EventError, Text: CancelledMessage, Usage: &total})
	default:
		why := strings.TrimPrefix(reason, ReasonFailed)
		agent := c.Seat
		if agent == room.SeatModerator {
			agent = t.moderatorName()
		}
		ev := Event{Type: EventError, Text: why, Agent: agent, Usage: &total}
		if agent != "" {
			ev.Round = t.round // the round of the turn that failed
		}
		return append(out, ev)
	}
}

// postBody is what of an MCP seat's draft its post will say, so its tokens
// are appends that add up to the message (seed 002's rule): without a
// first line "kind: …" (a played seat's) or a leading "/kind" (a
// person's), both held back until the first line ends; without a last
// line that is, or may yet become, the lead's CLOSE; and without the
// spaces the post trims.
func postBody(text string) string {
	first, rest, ok := strings.Cut(text, "\n")
	_, kinded := KindLine(first)
	switch {
	case !ok:
		return "" // the first line may yet name the kind
	case kinded:
		text = rest
	case strings.HasPrefix(text, "//"):
		text = text[1:] // "//x" posts "/x"
	case strings.HasPrefix(text, "/"):
		text = text[strings.IndexAny(text, " \t\n"):]
	}
	i := strings.LastIndexByte(text, '\n')
	if last := strings.Trim(strings.TrimSpace(text[i+1:]), "*_`"); strings.HasPrefix(closeMark, last) {
		text = text[:max(i, 0)]
	}
	return strings.TrimSpace(text)
}
