package burst

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func key(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var testClock = &clock{t: time.Unix(1000, 0)}

// newTest is a Coalescer on testClock whose timers and sends are recorded.
// The clock moves only when a test moves it; end moves it past a hold.
func newTest() (*Coalescer, *[]func(), *[]tea.Msg) {
	var timers []func()
	var sent []tea.Msg
	c := &Coalescer{
		now:   testClock.now,
		after: func(_ time.Duration, f func()) { timers = append(timers, f) },
		send:  func(m tea.Msg) { sent = append(sent, m) },
	}
	return c, &timers, &sent
}

// end fires the last timer and passes what it sent through the filter.
func end(t *testing.T, c *Coalescer, timers *[]func(), sent *[]tea.Msg) tea.Msg {
	t.Helper()
	testClock.t = testClock.t.Add(Hold)
	if len(*timers) == 0 {
		t.Fatal("no timer armed")
	}
	(*timers)[len(*timers)-1]()
	*timers = (*timers)[:len(*timers)-1]
	last := (*sent)[len(*sent)-1]
	return c.Filter(nil, last)
}

// TestLoneKeyPassesAsItself: a key with none after it goes on unchanged
// once its hold is up.
func TestLoneKeyPassesAsItself(t *testing.T) {
	c, timers, sent := newTest()
	if got := c.Filter(nil, key('q')); got != nil {
		t.Fatalf("the key passed before its hold: %#v", got)
	}
	if got := end(t, c, timers, sent); got != key('q') {
		t.Fatalf("the lone key came out as %#v", got)
	}
	if got := c.Filter(nil, (*sent)[0]); got != nil {
		t.Fatalf("a second end of run gave %#v, want nothing", got)
	}
}

// TestPasteIsOneRun: keys that come during a hold are handed on as one
// Msg, in order; a bracketed paste ends a run and comes last; other
// messages (the program acts on some itself) pass at once, alone.
func TestPasteIsOneRun(t *testing.T) {
	c, timers, sent := newTest()
	for _, r := range "hello" {
		if got := c.Filter(nil, key(r)); got != nil {
			t.Fatalf("key %q of the run passed alone: %#v", r, got)
		}
	}
	if len(*timers) != 1 {
		t.Fatalf("%d timers armed for one run, want 1", len(*timers))
	}
	run, ok := end(t, c, timers, sent).(Msg)
	if !ok || len(run) != 5 || run[0] != key('h') || run[4] != key('o') {
		t.Fatalf("the run came out as %#v", run)
	}

	c.Filter(nil, key('a'))
	size := tea.WindowSizeMsg{Width: 10, Height: 5}
	if got := c.Filter(nil, size); got != size {
		t.Fatalf("a window size during a run came out as %#v", got)
	}
	batch := tea.BatchMsg{}
	if got, ok := c.Filter(nil, batch).(tea.BatchMsg); !ok || got == nil {
		t.Fatalf("a batch of commands during a run came out as %#v", got)
	}
	c.Filter(nil, key('b'))
	paste := tea.PasteMsg{Content: "pasted"}
	run, ok = c.Filter(nil, paste).(Msg)
	if !ok || len(run) != 3 || run[0] != key('a') || run[1] != key('b') || run[2] != paste {
		t.Fatalf("a paste during a run came out as %#v", run)
	}
	if got := c.Filter(nil, paste); got != paste {
		t.Fatalf("with nothing held a paste came out as %#v", got)
	}
}

// TestRunWaitsForAPause: while keys keep coming the run is held (up to
// MaxHold); once they pause for Hold it is handed on.
func TestRunWaitsForAPause(t *testing.T) {
	c, timers, sent := newTest()
	c.Filter(nil, key('a'))
	testClock.t = testClock.t.Add(Hold - time.Millisecond)
	c.Filter(nil, key('b'))
	(*timers)[0]()
	if got := c.Filter(nil, (*sent)[0]); got != nil {
		t.Fatalf("the run was handed on while keys kept coming: %#v", got)
	}
	if len(*timers) != 2 {
		t.Fatalf("the run did not wait again: %d timers", len(*timers))
	}
	if run, ok := end(t, c, timers, sent).(Msg); !ok || len(run) != 2 {
		t.Fatalf("after a pause the run came out as %#v", run)
	}

	// A paste that never pauses is still shown every MaxHold.
	c.Filter(nil, key('x'))
	for range int(MaxHold/time.Millisecond) + 1 {
		testClock.t = testClock.t.Add(time.Millisecond)
		c.Filter(nil, key('y'))
	}
	(*timers)[len(*timers)-1]()
	if run, ok := c.Filter(nil, (*sent)[len(*sent)-1]).(Msg); !ok || len(run) < 10 {
		t.Fatalf("a run older than MaxHold came out as %#v", run)
	}
}

// TestUnattachedPassesEverything: without a program to send the end of a
// run to, nothing is held.
func TestUnattachedPassesEverything(t *testing.T) {
	c := New()
	for _, r := range "abc" {
		if got := c.Filter(nil, key(r)); got != key(r) {
			t.Fatalf("key %q came out as %#v", r, got)
		}
	}
}
