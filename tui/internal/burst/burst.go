// Package burst hands a program's screen a run of key presses that
// arrive together as one message, so the screen is laid out and drawn once
// for the run instead of once a key.
//
// A terminal without bracketed paste delivers a paste as one key press a
// character: 70 KB is 70,000 messages, and Bubble Tea calls Update and
// View for each. A screen whose layout costs a millisecond then takes
// over a minute to show the paste. So each key press is held, and the keys
// that come within Hold of the one before join it; the run goes to the
// model as a Msg once no key came for Hold or the run is MaxHold old, or
// when a paste or key release arrives (it goes last in the run). A key
// that came alone goes on as itself after Hold, far below a frame (20-33
// ms), so nobody sees the wait; a long paste shows MaxHold at a time.
// Every other message passes at once, unchanged: the program itself acts
// on many (commands' batches, window size, mouse), so they cannot ride in
// a run, and none of them needs to follow the keys held.
package burst

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Msg is key presses read close together, in the order they came; when a
// paste or a key release ended the run, it is the last element. A screen
// handles each element as if it had come alone, and lays out once.
type Msg []tea.Msg

const (
	// Hold is how long a run waits for one more key before it is handed on.
	Hold = 4 * time.Millisecond
	// MaxHold is the most a run is held while keys keep coming.
	MaxHold = 250 * time.Millisecond
)

// Coalescer holds runs of keys for one program. Its filter runs on the
// program's event loop; only the timer that ends a run runs elsewhere, and
// it just sends a message.
type Coalescer struct {
	send  func(tea.Msg)
	after func(time.Duration, func())
	now   func() time.Time
	held  Msg
	armed bool
	// first and last: when the held run's first and latest keys came.
	first, last time.Time
}

// flushMsg ends the run being held.
type flushMsg struct{ c *Coalescer }

// New returns a Coalescer; pass Option to tea.NewProgram and the program
// to Attach before Run.
func New() *Coalescer {
	return &Coalescer{now: time.Now, after: func(d time.Duration, f func()) { time.AfterFunc(d, f) }}
}

// Option is the program option that routes messages through c.
func (c *Coalescer) Option() tea.ProgramOption { return tea.WithFilter(c.Filter) }

// Attach gives c the program it sends the end of a run to.
func (c *Coalescer) Attach(p *tea.Program) { c.send = p.Send }

// Filter is the program's message filter: it holds runs of keys and hands
// them on as a Msg; nil tells the program to skip a message (no Update, no
// View).
func (c *Coalescer) Filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if c.send == nil {
			return msg
		}
		c.last = c.now()
		if len(c.held) == 0 {
			c.first = c.last
		}
		c.held = append(c.held, msg)
		if !c.armed {
			c.arm(Hold)
		}
		return nil
	case flushMsg:
		if msg.c != c {
			return msg
		}
		c.armed = false
		if len(c.held) > 0 {
			now := c.now()
			if quiet := now.Sub(c.last); quiet < Hold && now.Sub(c.first) < MaxHold {
				c.arm(Hold - quiet) // keys still coming: wait for a pause
				return nil
			}
		}
		return c.take()
	case tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg, tea.KeyReleaseMsg:
		if len(c.held) > 0 {
			run := c.held
			c.held = nil
			return append(run, msg)
		}
	}
	return msg
}

// arm sends the end of the run after d.
func (c *Coalescer) arm(d time.Duration) {
	c.armed = true
	c.after(d, func() { c.send(flushMsg{c}) })
}

// take hands on the held run (a lone key as itself), or nil when there is
// none.
func (c *Coalescer) take() tea.Msg {
	run := c.held
	c.held = nil
	switch len(run) {
	case 0:
		return nil
	case 1:
		return run[0]
	}
	return run
}
