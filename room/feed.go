package room

import (
	"context"
	"maps"
	"slices"
	"time"
)

// A Feed is how a reader follows a room, in this process or another: a
// snapshot (FeedSnapshot: room.json, the State and the drafts), then every
// change after it, in order, one FeedEvent per Next. It is built on the
// room's one Notifier and reads the store alone, so a room written by this
// process, by a headless debate in another, or mirrored from a host is
// followed the same way.
//
// Within one look at the room, events come as the room's files say they
// happened: new messages and notes (by seq, a note before the message
// after it), draft changes (in seat order), then the close. A turn's end (its message written, then its
// draft removed) therefore reads as the message, then the draft gone.

// FeedKind says what a FeedEvent brings.
type FeedKind int

// The kinds of FeedEvent.
const (
	// FeedMessage: a new message (Message).
	FeedMessage FeedKind = iota + 1
	// FeedNote: a new note (Note).
	FeedNote
	// FeedDraft: a seat's draft was written or replaced (Draft), or
	// removed (DraftGone, Draft.Seat saying whose).
	FeedDraft
	// FeedClosed: the room closed (Closed); Closed nil: it was opened
	// again (a resumed debate moves its closed.json aside).
	FeedClosed
	// FeedPaused: the debate paused between two rounds (Paused), or went
	// on (Paused nil). A closed room is never paused.
	FeedPaused
	// FeedHolder: who holds a seat changed (HolderOf, Holder): a player
	// took it, let it go, or died (the kernel freed its lock). In a
	// debate room HolderOf is "" and Holder is its run (run.lock), which
	// holds every persona's seat.
	FeedHolder
)

// holderPoll is how often a feed reads again the holders it last saw
// live: a holder killed writes nothing, only the kernel frees its lock.
const holderPoll = 2 * time.Second

// FeedEvent is one change of a room.
type FeedEvent struct {
	Kind      FeedKind
	Message   Message
	Note      Note
	Draft     Draft
	DraftGone bool
	Closed    *Closed
	Paused    *Pause
	HolderOf  string
	Holder    Holder
}

// FeedSnapshot is the room when the feed began.
type FeedSnapshot struct {
	Config Config
	State  State
	Drafts []Draft // in seat order
	// Holders are who holds each seat (by seat; "" for a debate's run),
	// as FeedHolder reports their changes.
	Holders map[string]Holder
}

// Feed follows one room. It is for one reader: Next is not safe for
// concurrent use.
type Feed struct {
	r    *Room
	n    *Notifier
	own  bool // the feed started n, and closes it
	snap FeedSnapshot

	c         *FeedCursor
	draftsGen uint64
	queue     []FeedEvent

	last       State             // the room as the latest look read it
	holders    map[string]Holder // as last delivered
	holdersGen uint64            // the watch's count when they were read
	holdersAt  time.Time         // when they were read
}

// Feed starts following the room: it takes the snapshot now, and Next
// returns every change after it. It uses the Notifier attached to the room
// (Watch), or starts one, which Close stops. Close the feed when done.
func (r *Room) Feed(ctx context.Context) (*Feed, error) {
	r.mu.Lock()
	n := r.notifier
	r.mu.Unlock()
	f := &Feed{r: r, n: n, c: NewFeedCursor(r.cfg)}
	if n == nil {
		f.n, f.own = Watch(ctx, r), true
	}
	f.draftsGen = f.n.DraftsGen()
	st, err := r.State()
	if err != nil {
		f.Close()
		return nil, err
	}
	ds, err := r.Drafts()
	if err != nil {
		f.Close()
		return nil, err
	}
	f.holdersGen, f.holdersAt = f.n.Gen(), time.Now()
	f.holders = readHolders(r)
	f.snap = FeedSnapshot{Config: r.cfg, State: st, Drafts: ds, Holders: maps.Clone(f.holders)}
	f.last = st
	f.c.Changes(nil, st, ds, true) // the snapshot is taken in
	return f, nil
}

// Snapshot is the room when the feed began.
func (f *Feed) Snapshot() FeedSnapshot { return f.snap }

// State is the room as the feed's latest look read it: the state the
// changes it gave so far add up to (the snapshot's before any).
func (f *Feed) State() State { return f.last }

// RunGone reports whether the feed last read a debate room that is open
// while no process holds its run: the process running the debate ended
// without closing it (killed, or its machine gone).
func (f *Feed) RunGone() bool {
	if !f.r.cfg.IsDebate() || f.last.Closed != nil {
		return false
	}
	h, ok := f.holders[""]
	return ok && !h.Live
}

// Next returns the next change of the room, waiting for one; ctx's error
// when ctx ends first, or the error reading the room.
func (f *Feed) Next(ctx context.Context) (FeedEvent, error) {
	for {
		if len(f.queue) > 0 {
			ev := f.queue[0]
			f.queue = f.queue[1:]
			return ev, nil
		}
		if err := ctx.Err(); err != nil {
			return FeedEvent{}, err
		}
		changed, draftsChanged := f.n.Changed(), f.n.DraftsChanged()
		if err := f.look(); err != nil {
			return FeedEvent{}, err
		}
		if len(f.queue) > 0 {
			continue
		}
		var poll <-chan time.Time
		var t *time.Timer
		if f.anyLive() {
			t = time.NewTimer(time.Until(f.holdersAt.Add(holderPoll)))
			poll = t.C
		}
		select {
		case <-ctx.Done():
			return FeedEvent{}, ctx.Err()
		case <-changed:
		case <-draftsChanged:
		case <-poll:
		}
		if t != nil {
			t.Stop()
		}
	}
}

// anyLive reports whether a holder last seen is live: only a poll tells
// when it dies.
func (f *Feed) anyLive() bool {
	for _, h := range f.holders {
		if h.Live {
			return true
		}
	}
	return false
}

// readHolders is who holds each seat of r now: its run for a debate room,
// each seat's lock otherwise.
func readHolders(r *Room) map[string]Holder {
	if r.cfg.IsDebate() {
		return map[string]Holder{"": RunHolder(r.dir)}
	}
	out := map[string]Holder{}
	for _, seat := range r.cfg.Seats() {
		out[seat] = SeatHolder(r.dir, seat)
	}
	return out
}

// lookHolders queues the holders that changed, when the watch saw a
// change since they were read or a live one is due a poll.
func (f *Feed) lookHolders() {
	g := f.n.Gen()
	pollDue := f.anyLive() && time.Since(f.holdersAt) >= holderPoll
	if g == f.holdersGen && !pollDue {
		return
	}
	f.holdersGen, f.holdersAt = g, time.Now()
	now := readHolders(f.r)
	keys := slices.Sorted(maps.Keys(now))
	for _, k := range keys {
		if now[k] != f.holders[k] {
			f.queue = append(f.queue, FeedEvent{Kind: FeedHolder, HolderOf: k, Holder: now[k]})
		}
	}
	f.holders = now
}

// NextBatch is Next, returning with the first change every other one
// that is known by then, in order: a reader that redraws once per batch
// draws a look at the room once.
func (f *Feed) NextBatch(ctx context.Context) ([]FeedEvent, error) {
	first, err := f.Next(ctx)
	if err != nil {
		return nil, err
	}
	out := append([]FeedEvent{first}, f.queue...)
	f.queue = f.queue[:0]
	return out, nil
}

// Poll returns the changes since the last call, without waiting: none
// when nothing changed.
func (f *Feed) Poll() ([]FeedEvent, error) {
	if err := f.look(); err != nil {
		return nil, err
	}
	out := f.queue
	f.queue = nil
	return out, nil
}

// look queues what changed since the last look. When the drafts changed
// they are read first, then the state, so whatever was written before a
// draft (the note or message a turn follows) comes before it.
func (f *Feed) look() error {
	var ds []Draft
	g := f.n.DraftsGen()
	readDrafts := g != f.draftsGen
	if readDrafts {
		f.draftsGen = g
		var err error
		if ds, err = f.r.Drafts(); err != nil {
			return err
		}
	}
	// The state after the drafts: the watch takes the kernel's events in
	// the order they happened, so a note or message written before a
	// draft event it took is in State. A draft written since (read from
	// disk here) may pass a note written just before it, which then comes
	// at the next look.
	st, err := f.r.State()
	if err != nil {
		return err
	}
	f.last = st
	// A draft removed just before the message or the close that the
	// state shows may not have reached the drafts' watch yet, and must not
	// come after them: the drafts are read then too.
	if !readDrafts && f.c.HasNews(st) {
		f.draftsGen = f.n.DraftsGen()
		if ds, err = f.r.Drafts(); err != nil {
			return err
		}
		readDrafts = true
	}
	f.queue = f.c.Changes(f.queue, st, ds, readDrafts)
	f.lookHolders()
	return nil
}

// A FeedCursor is what a reader of one room has taken in so far; Changes
// gives what a later look at the room adds, in the feed's order. A Feed
// keeps one; a reader that looks at the room itself (a screen with a
// watch of its own) may keep one too.
type FeedCursor struct {
	seats        []string
	seq, noteSeq int
	count        int             // messages taken in
	files        map[string]bool // their files
	closed       bool
	paused       int // the round the room was last seen paused after; 0: not paused
	drafts       map[string]Draft
}

// NewFeedCursor is a cursor on a room with cfg that has taken in nothing.
func NewFeedCursor(cfg Config) *FeedCursor {
	return &FeedCursor{seats: cfg.Seats(), drafts: map[string]Draft{}, files: map[string]bool{}}
}

// HasNews reports whether st holds a message, a note, a pause (or its
// end) or a closure (or reopening) the cursor has not taken in.
func (c *FeedCursor) HasNews(st State) bool {
	return st.LastSeq() > c.seq || st.LastNoteSeq() > c.noteSeq || (st.Closed != nil) != c.closed || pausedRound(st) != c.paused
}

// pausedRound is the round st's debate waits after, 0 when it does not
// wait (a closed room never does).
func pausedRound(st State) int {
	if st.Closed != nil {
		return 0
	}
	return pauseRound(st.Paused)
}

// Changes appends to out what st and the drafts ds hold that the cursor
// has not taken in, and takes it in: new messages and notes (a note before
// the message after it), the drafts that changed or went (when withDrafts:
// ds was read), a pause or its end, then the closure.
func (c *FeedCursor) Changes(out []FeedEvent, st State, ds []Draft, withDrafts bool) []FeedEvent {
	notes := NotesAfter(st.Notes, c.noteSeq)
	// More messages than those taken in, beyond the numbers: a messages
	// folder made again, numbered from 1; its files are news too.
	renumbered := len(st.Messages) > c.count
	for _, m := range st.Messages {
		if m.Seq <= c.seq && (!renumbered || c.files[m.File]) {
			continue
		}
		c.files[m.File] = true
		for len(notes) > 0 && notes[0].AfterSeq < m.Seq {
			out = append(out, FeedEvent{Kind: FeedNote, Note: notes[0]})
			notes = notes[1:]
		}
		out = append(out, FeedEvent{Kind: FeedMessage, Message: m})
	}
	c.seq = max(c.seq, st.LastSeq())
	c.count = max(c.count, len(st.Messages))
	for _, n := range notes {
		out = append(out, FeedEvent{Kind: FeedNote, Note: n})
	}
	c.noteSeq = max(c.noteSeq, st.LastNoteSeq())
	if withDrafts {
		out = c.diffDrafts(out, ds)
	}
	if p := pausedRound(st); p != c.paused {
		c.paused = p
		ev := FeedEvent{Kind: FeedPaused}
		if p > 0 {
			ev.Paused = st.Paused
		}
		out = append(out, ev)
	}
	if closed := st.Closed != nil; closed != c.closed {
		c.closed = closed
		out = append(out, FeedEvent{Kind: FeedClosed, Closed: st.Closed})
	}
	return out
}

// diffDrafts appends the drafts that differ from those taken in.
func (c *FeedCursor) diffDrafts(out []FeedEvent, ds []Draft) []FeedEvent {
	now := make(map[string]bool, len(ds))
	for _, d := range ds {
		now[d.Seat] = true
		if old, ok := c.drafts[d.Seat]; ok && sameDraft(old, d) {
			continue
		}
		c.drafts[d.Seat] = d
		out = append(out, FeedEvent{Kind: FeedDraft, Draft: d})
	}
	for _, seat := range c.seats {
		if _, had := c.drafts[seat]; had && !now[seat] {
			delete(c.drafts, seat)
			out = append(out, FeedEvent{Kind: FeedDraft, Draft: Draft{Seat: seat}, DraftGone: true})
		}
	}
	return out
}

// sameDraft reports whether two reads of a seat's draft hold the same.
func sameDraft(a, b Draft) bool {
	return a.Text == b.Text && a.Agent == b.Agent && a.StartedAt.Equal(b.StartedAt) && a.Tokens == b.Tokens &&
		a.ActivityCount == b.ActivityCount && len(a.Activity) == len(b.Activity) && len(a.Retries) == len(b.Retries)
}

// Close stops the feed, and the Notifier it started (detached from the
// room, whose State then lists its folders again each time).
func (f *Feed) Close() {
	if !f.own || f.n == nil {
		return
	}
	f.r.mu.Lock()
	if f.r.notifier == f.n {
		f.r.notifier = nil
	}
	f.r.mu.Unlock()
	f.n.Close()
	f.n = nil
}
