package room

import (
	"context"
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
)

// FeedEvent is one change of a room.
type FeedEvent struct {
	Kind      FeedKind
	Message   Message
	Note      Note
	Draft     Draft
	DraftGone bool
	Closed    *Closed
}

// FeedSnapshot is the room when the feed began.
type FeedSnapshot struct {
	Config Config
	State  State
	Drafts []Draft // in seat order
}

// Feed follows one room. It is for one reader: Next is not safe for
// concurrent use.
type Feed struct {
	r    *Room
	n    *Notifier
	own  bool // the feed started n, and closes it
	snap FeedSnapshot

	seq, noteSeq int
	closed       bool
	drafts       map[string]Draft
	draftsGen    uint64
	queue        []FeedEvent
}

// Feed starts following the room: it takes the snapshot now, and Next
// returns every change after it. It uses the Notifier attached to the room
// (Watch), or starts one, which Close stops. Close the feed when done.
func (r *Room) Feed(ctx context.Context) (*Feed, error) {
	r.mu.Lock()
	n := r.notifier
	r.mu.Unlock()
	f := &Feed{r: r, n: n, drafts: map[string]Draft{}}
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
	f.snap = FeedSnapshot{Config: r.cfg, State: st, Drafts: ds}
	f.seq, f.noteSeq, f.closed = st.LastSeq(), st.LastNoteSeq(), st.Closed != nil
	for _, d := range ds {
		f.drafts[d.Seat] = d
	}
	return f, nil
}

// Snapshot is the room when the feed began.
func (f *Feed) Snapshot() FeedSnapshot { return f.snap }

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
		select {
		case <-ctx.Done():
			return FeedEvent{}, ctx.Err()
		case <-changed:
		case <-draftsChanged:
		}
	}
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
// they are read first and the folders then listed afresh, so whatever was
// written before a draft (the note or message a turn follows) comes
// before it.
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
	read := f.r.State
	if readDrafts {
		read = f.r.Refresh
	}
	st, err := read()
	if err != nil {
		return err
	}
	queued := len(f.queue)
	notes := NotesAfter(st.Notes, f.noteSeq)
	for _, m := range st.Messages {
		if m.Seq <= f.seq {
			continue
		}
		for len(notes) > 0 && notes[0].AfterSeq < m.Seq {
			f.queue = append(f.queue, FeedEvent{Kind: FeedNote, Note: notes[0]})
			notes = notes[1:]
		}
		f.queue = append(f.queue, FeedEvent{Kind: FeedMessage, Message: m})
	}
	f.seq = max(f.seq, st.LastSeq())
	for _, n := range notes {
		f.queue = append(f.queue, FeedEvent{Kind: FeedNote, Note: n})
	}
	f.noteSeq = max(f.noteSeq, st.LastNoteSeq())
	closed := st.Closed != nil
	// A draft removed just before the message or the close that the
	// state shows may not have reached the drafts' watch yet, and must not
	// come after them: the drafts are read then too.
	if !readDrafts && (len(f.queue) > queued || closed != f.closed) {
		f.draftsGen = f.n.DraftsGen()
		if ds, err = f.r.Drafts(); err != nil {
			return err
		}
		readDrafts = true
	}
	if readDrafts {
		f.diffDrafts(ds)
	}
	if closed != f.closed {
		f.closed = closed
		f.queue = append(f.queue, FeedEvent{Kind: FeedClosed, Closed: st.Closed})
	}
	return nil
}

// diffDrafts queues the drafts that differ from those delivered.
func (f *Feed) diffDrafts(ds []Draft) {
	now := make(map[string]bool, len(ds))
	for _, d := range ds {
		now[d.Seat] = true
		if old, ok := f.drafts[d.Seat]; ok && old.Text == d.Text && old.Agent == d.Agent && old.StartedAt.Equal(d.StartedAt) {
			continue
		}
		f.drafts[d.Seat] = d
		f.queue = append(f.queue, FeedEvent{Kind: FeedDraft, Draft: d})
	}
	for _, seat := range f.r.cfg.Seats() {
		if _, had := f.drafts[seat]; had && !now[seat] {
			delete(f.drafts, seat)
			f.queue = append(f.queue, FeedEvent{Kind: FeedDraft, Draft: Draft{Seat: seat}, DraftGone: true})
		}
	}
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
