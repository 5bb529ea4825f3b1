package debate

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// DraftInterval is the least time between two writes of one seat's draft:
// a debate streaming at any token rate writes each speaker's text in
// progress at most 30 times in any second.
const DraftInterval = time.Second / 30

// drafts writes the text each speaker of a recorded debate has said so far
// of its turn as the seat's draft in the room (room.Draft), so a reader of
// the store (the feed, another process, a host's observer) sees the turn
// as it streams. The token path only appends to memory and nudges a writer
// goroutine, which writes the seats that changed, each at most once per
// DraftInterval; it never waits on the disk. The writer starts with the
// first token and stops when the recorder closes the room.
type drafts struct {
	r *room.Room

	mu    sync.Mutex
	seats map[string]*draftSeat
	// last is when each seat's draft was last written, across its turns,
	// so short turns in quick succession keep to the rate too.
	last map[string]time.Time
	// onDisk holds the seats whose draft file this writer wrote and has
	// not removed: a turn that ended before its first write removes
	// nothing.
	onDisk map[string]bool
	closed bool
	// io is held while a draft file is written or removed, so a turn's
	// end, which removes its draft, never races a write of it.
	io sync.Mutex
	// writers write each seat's drafts, the next write made ready after
	// each (room.DraftWriter); used under io.
	writers map[string]*room.DraftWriter
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	running bool

	writes atomic.Int64 // draft files written, for the benchmarks
	// onWrite, when set (benchmarks), hears of each write as it is
	// decided, under mu.
	onWrite func(seat string, at time.Time)
}

// draftSeat is one speaker's turn in progress.
type draftSeat struct {
	agent     string
	started   time.Time
	text      []byte
	activity  []room.Activity
	why       string
	tokens    int
	activityN int
	retries   []room.DraftRetry
	dirty     bool // changed since the last write
	written   int  // drafts of the turn written so far
	// quiet: the turn began with nothing said; its empty draft waits a
	// DraftInterval (opened).
	quiet bool
	// urgent: written at the next nudge, however recent the last write:
	// a retry, which the backoff between attempts keeps rare, and which
	// must not wait for text that may not come.
	urgent bool
}

func newDrafts(r *room.Room) *drafts {
	return &drafts{r: r, seats: map[string]*draftSeat{}, last: map[string]time.Time{}, onDisk: map[string]bool{}, wake: make(chan struct{}, 1)}
}

// begin starts seat's turn, spoken by agent (the model label).
func (d *drafts) begin(seat, agent string) {
	d.mu.Lock()
	if !d.closed {
		d.seats[seat] = &draftSeat{agent: agent, started: time.Now().UTC()}
	}
	d.mu.Unlock()
}

// token adds text to seat's turn and nudges the writer.
func (d *drafts) token(seat, text string) {
	d.change(seat, func(s *draftSeat) { s.text, s.tokens = append(s.text, text...), s.tokens+1 })
}

// open begins seat's turn now, spoken by agent, and writes its draft at
// once, saying why it speaks (the verdict after a budget stop).
func (d *drafts) open(seat, agent, why string) {
	d.begin(seat, agent)
	d.change(seat, func(s *draftSeat) { s.why, s.urgent = why, true })
}

// opened begins seat's turn now, spoken by agent, and writes its draft,
// empty, once a DraftInterval has passed without a word (the first word
// writes it at once): a reader sees the turn begin (the persona thinking)
// without a write for each turn over sooner.
func (d *drafts) opened(seat, agent string) {
	d.begin(seat, agent)
	d.change(seat, func(s *draftSeat) { s.quiet = true })
}

// activity shows what seat's agent did last beside its text.
func (d *drafts) activity(seat string, a room.Activity) {
	d.change(seat, func(s *draftSeat) {
		s.activity = append(s.activity, a)
		if len(s.activity) > room.MaxDraftActivity {
			s.activity = slices.Delete(s.activity, 0, len(s.activity)-room.MaxDraftActivity)
		}
		s.activityN++
	})
}

// retry shows that seat's request is being made again.
func (d *drafts) retry(seat string, rt room.DraftRetry) {
	d.change(seat, func(s *draftSeat) { s.retries, s.urgent = append(s.retries, rt), true })
}

// change applies fn to seat's turn (begun now if it was not) and nudges
// the writer.
func (d *drafts) change(seat string, fn func(*draftSeat)) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return
	}
	s := d.seats[seat]
	if s == nil {
		s = &draftSeat{started: time.Now().UTC()}
		d.seats[seat] = s
	}
	fn(s)
	// Only a seat turning dirty wakes the writer: one already dirty is
	// either about to be written or has the writer's timer set for it.
	wake := !s.dirty || s.urgent
	s.dirty = true
	if !d.running {
		d.running = true
		d.stop, d.done = make(chan struct{}), make(chan struct{})
		go d.run(d.stop, d.done)
	}
	d.mu.Unlock()
	if wake {
		select {
		case d.wake <- struct{}{}:
		default:
		}
	}
}

// end forgets seat's turn: the writer writes it no more. Call clear once
// the turn's message is written.
func (d *drafts) end(seat string) {
	d.mu.Lock()
	delete(d.seats, seat)
	d.mu.Unlock()
}

// clear removes seat's draft file, if this writer wrote one.
func (d *drafts) clear(seat string) {
	d.io.Lock()
	defer d.io.Unlock()
	d.mu.Lock()
	wrote := d.onDisk[seat]
	delete(d.onDisk, seat)
	d.mu.Unlock()
	if w := d.writers[seat]; w != nil {
		w.Close()
		delete(d.writers, seat)
	}
	if wrote {
		_ = d.r.ClearDraft(seat) // a draft left behind is a view, never an error
	}
}

// close stops the writer and removes every draft of the room, so a closed
// room has none.
func (d *drafts) close() {
	d.mu.Lock()
	running, stop, done := d.running, d.stop, d.done
	d.running, d.closed = false, true
	d.seats = map[string]*draftSeat{}
	d.mu.Unlock()
	if running {
		close(stop)
		<-done
	}
	d.io.Lock()
	defer d.io.Unlock()
	for seat, w := range d.writers {
		w.Close()
		delete(d.writers, seat)
	}
	_ = d.r.ClearDrafts() // a draft left behind is a view, never an error
}

// run is the writer: at each nudge or when a seat's interval has passed,
// it writes the seats whose text changed and whose last write is at least
// DraftInterval old.
func (d *drafts) run(stop, done chan struct{}) {
	defer close(done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-stop:
			timer.Stop()
			return
		case <-d.wake:
		case <-timer.C:
		}
		if wait := d.flush(); wait > 0 {
			timer.Reset(wait)
		}
	}
}

// flush writes the seats that are due and returns how long until the next
// changed seat is due (0: none is waiting).
func (d *drafts) flush() time.Duration {
	d.io.Lock()
	defer d.io.Unlock()
	now := time.Now()
	var due []room.Draft
	var prepare []string
	var wait time.Duration
	d.mu.Lock()
	for seat, s := range d.seats {
		if !s.dirty {
			continue
		}
		left := DraftInterval - now.Sub(d.last[seat])
		if s.quiet && len(s.text) == 0 && !s.urgent {
			// A turn that began and has said nothing yet is written once
			// it has been quiet a while: one over sooner needs no draft.
			left = max(left, s.started.Add(DraftInterval).Sub(now))
		}
		if left > 0 && !s.urgent {
			if wait == 0 || left < wait {
				wait = left
			}
			continue
		}
		s.dirty, s.urgent = false, false
		s.written++
		if s.written >= 2 {
			// A turn that goes on streaming: its next write is made ready
			// (a turn over in a burst, one write, is not worth it).
			prepare = append(prepare, seat)
		}
		d.last[seat] = now
		d.onDisk[seat] = true
		if d.onWrite != nil {
			d.onWrite(seat, now)
		}
		due = append(due, room.Draft{
			Seat: seat, Agent: s.agent, StartedAt: s.started, Text: string(s.text), Why: s.why, Tokens: s.tokens,
			Activity: slices.Clone(s.activity), ActivityCount: s.activityN, Retries: slices.Clone(s.retries),
		})
	}
	d.mu.Unlock()
	for _, dr := range due {
		w := d.writer(dr.Seat)
		if w == nil {
			continue
		}
		if w.Write(dr) == nil {
			d.writes.Add(1)
		}
	}
	// The next writes made ready now, while no reader waits on them.
	for _, seat := range prepare {
		if w := d.writers[seat]; w != nil {
			w.Prepare()
		}
	}
	return wait
}

// writer is seat's draft writer, made on its first write; nil for a seat
// the room does not have (its drafts are not written). Called under io.
func (d *drafts) writer(seat string) *room.DraftWriter {
	if w := d.writers[seat]; w != nil {
		return w
	}
	w, err := d.r.DraftWriter(seat)
	if err != nil {
		return nil
	}
	if d.writers == nil {
		d.writers = map[string]*room.DraftWriter{}
	}
	d.writers[seat] = w
	return w
}
