package debate

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/roundtable-dev/roundtable/room"
)

// The user's notes (issue 14): a person watching a debate can speak to
// the panel between turns. A note is handed to the engine through the
// Session (Interject), joins the transcript before the next turn starts,
// and every later persona and the moderator see it as the user's words.
// With Config.PauseBetweenRounds the engine waits after each round for
// Continue, applying notes given meanwhile at once.

// NoteFrom is who a debate's notes come from: the user watching it
// (room.NoteFromUser).
const NoteFrom = room.NoteFromUser

// MaxNoteBytes is the longest note a debate takes: what a room note may
// hold.
const MaxNoteBytes = room.MaxTextBytes

// ErrDebateEnded is Interject's error once the debate can take no more
// notes: it ended, or the moderator is already writing the verdict.
var ErrDebateEnded = errors.New("the debate has ended, so it takes no more notes; start another one to ask the panel again")

// ErrEmptyNote is Interject's error for a note with nothing but blank
// space.
var ErrEmptyNote = errors.New("the note is empty; write what the panel should hear")

// control is what a Session hands the running engine besides Stop: the
// user's notes waiting to join the transcript, and the go-on after a pause.
//
// A debate recorded in a room takes its notes from the room's store
// (useRoom): Interject writes a room note (room.AddNote, as a note to an
// MCP room is written), and the engine takes every note the room holds
// that it has not taken yet, whoever wrote it (this screen, `roundtable
// note` in another terminal, a watcher of the room). Without a room the
// notes wait in memory.
type control struct {
	mu      sync.Mutex
	queue   []noteIn
	r       *room.Room    // the room the notes go through; nil: in memory
	taken   int           // the room's notes taken so far (their seq)
	round   int           // the round being held: a note's round
	closed  bool          // no more notes: the verdict is being written, or the debate ended
	paused  bool          // the engine waits for Continue
	wake    chan struct{} // signaled (never blocking) when a note is queued
	proceed chan struct{} // signaled (never blocking) by Continue while paused
}

// noteIn is a note to join the transcript: who wrote it, what it says,
// and whether it is in the room already (the recorder does not write it
// again).
type noteIn struct {
	from, text string
	stored     bool
}

func newControl() *control {
	return &control{wake: make(chan struct{}, 1), proceed: make(chan struct{}, 1)}
}

// useRoom makes the notes go through r's store; the notes it holds now
// (a resumed debate's) are taken already.
func (c *control) useRoom(r *room.Room) error {
	st, err := r.State()
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.r, c.taken = r, st.LastNoteSeq()
	c.mu.Unlock()
	return nil
}

// setRound says which round is being held.
func (c *control) setRound(round int) {
	c.mu.Lock()
	c.round = round
	c.mu.Unlock()
}

// interject queues a note: in the room's store when there is one.
func (c *control) interject(text string) error {
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return ErrEmptyNote
	case len(text) > MaxNoteBytes:
		return fmt.Errorf("the note is %d bytes, more than the %d a note may hold; shorten it", len(text), MaxNoteBytes)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrDebateEnded
	}
	if c.r != nil {
		if _, err := c.r.AddNote(NoteFrom, text, c.round); err != nil {
			if errors.As(err, new(*room.ClosedError)) {
				return ErrDebateEnded
			}
			return fmt.Errorf("save the note in room %s: %w", c.r.Config().Room, err)
		}
	} else {
		c.queue = append(c.queue, noteIn{from: NoteFrom, text: text})
	}
	signal(c.wake)
	return nil
}

// cont ends a pause; it does nothing when the engine is not paused.
func (c *control) cont() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.paused {
		return false
	}
	c.paused = false
	signal(c.proceed)
	return true
}

// take returns the notes not taken yet and forgets them: the room's
// newer notes, or those queued in memory.
func (c *control) take() []noteIn {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.takeLocked()
}

func (c *control) takeLocked() []noteIn {
	q := c.queue
	c.queue = nil
	if c.r == nil {
		return q
	}
	st, err := c.r.State()
	if err != nil {
		return q // read again at the next turn
	}
	for _, n := range room.NotesAfter(st.Notes, c.taken) {
		q = append(q, noteIn{from: n.From, text: n.Text, stored: true})
		c.taken = max(c.taken, n.Seq)
	}
	return q
}

// close refuses every later note; notes not taken yet are returned so
// they can be applied before the door shuts.
func (c *control) close() []noteIn {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	c.paused = false
	return c.takeLocked()
}

func (c *control) setPaused(p bool) {
	c.mu.Lock()
	c.paused = p
	if p {
		// A go-on left over from before this pause does not end it.
		select {
		case <-c.proceed:
		default:
		}
	}
	c.mu.Unlock()
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Interject hands the running debate a note from the user: it joins the
// transcript before the next turn starts (at once while paused), comes out
// as a note event, and every later persona and the moderator read it as
// the user's words. The recorder saves it in the room (room.AddNote with
// room.NoteFromUser). It fails once the debate has ended or the moderator
// is writing the verdict (ErrDebateEnded), for a blank note
// (ErrEmptyNote), and for one longer than MaxNoteBytes.
func (s *Session) Interject(text string) error {
	if s.ctl == nil {
		return ErrDebateEnded
	}
	return s.ctl.interject(text)
}

// Continue ends a pause between rounds (Config.PauseBetweenRounds) and
// reports whether the debate was paused; it does nothing otherwise.
func (s *Session) Continue() bool {
	if s.ctl == nil {
		return false
	}
	return s.ctl.cont()
}

// NoteTurn is a user's note as a turn of the transcript the personas and
// the moderator read: a debate resumed from its room rebuilds its notes
// with it.
func NoteTurn(round int, text string) Turn {
	return Turn{Round: round, Agent: NoteFrom, Text: text, Note: true}
}

// takeNotes applies the notes queued since the last call: each becomes a
// note event and joins the transcript. It reports false when the debate
// was cancelled while sending.
func (r *run) takeNotes(round int) bool {
	return r.applyNotes(round, r.ctl.take())
}

func (r *run) applyNotes(round int, notes []noteIn) bool {
	for _, n := range notes {
		from := n.from
		if from == "" {
			from = NoteFrom
		}
		if !r.send(Event{Type: EventNote, Round: round, From: from, Text: n.text, stored: n.stored}) {
			return false
		}
		r.transcript = append(r.transcript, NoteTurn(round, n.text))
	}
	return true
}

// between runs after a round's round_end: the notes given during the
// round join the transcript, and with PauseBetweenRounds the engine sends
// pause and waits for Continue (or a cancellation), applying notes as
// they come.
func (r *run) between(round int) error {
	if !r.takeNotes(round) {
		return errCancelled
	}
	if !r.cfg.PauseBetweenRounds {
		return nil
	}
	r.ctl.setPaused(true)
	defer r.ctl.setPaused(false)
	if !r.send(Event{Type: EventPause, Round: round}) {
		return errCancelled
	}
	for {
		select {
		case <-r.ctl.wake:
			if !r.takeNotes(round) {
				return errCancelled
			}
		case <-r.ctl.proceed:
			// Notes given just before the go-on still count.
			if !r.takeNotes(round) {
				return errCancelled
			}
			return nil
		case <-r.ctx.Done():
			return errCancelled
		}
	}
}

// closeNotes shuts the door on notes before the verdict: any still queued
// join the transcript first, so the moderator reads every note accepted.
func (r *run) closeNotes(round int) bool {
	return r.applyNotes(round, r.ctl.close())
}

// formatNote writes a note the way prompts show it, among the turns.
func formatNote(b *strings.Builder, t Turn) {
	fmt.Fprintf(b, "### The user's note (round %d)\n\n%s", t.Round, strings.TrimSpace(t.Text))
}

// note saves a note event in the room as the user's note.
func (rc *Recorder) note(ev Event) {
	if ev.stored {
		return // written to the room when it was given
	}
	from := ev.From
	if from == "" {
		from = NoteFrom
	}
	if _, err := rc.r.AddNote(from, ev.Text, ev.Round); err != nil {
		rc.fail(err)
	}
}
