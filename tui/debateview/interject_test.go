package debateview

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// typeText presses the keys of s, one rune at a time.
func typeText(send func(tea.Msg), s string) {
	for _, r := range s {
		send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

var enterKey = tea.KeyPressMsg{Code: tea.KeyEnter}

// noteBands counts the note bands in column c.
func noteBands(c *column) int {
	n := 0
	for _, t := range c.turns {
		if t.note {
			n++
		}
	}
	return n
}

// TestInterjectLive runs a real mock debate set to pause between rounds:
// the screen says it is paused, i opens the composer, the note typed is
// sent, shows as a band in every column, enter goes on, the next persona
// answers the note, the room saves it, and the verdict waits for the last
// pause.
func TestInterjectLive(t *testing.T) {
	h := newHarness(t)
	cwd := t.TempDir()
	l := mockLaunch(cwd, 2)
	l.Config.PauseBetweenRounds = true
	h.start(New(h.options(), l), 200, 50)
	h.until("the pause after round 1", 20*time.Second, func(m Model) bool { return m.note.paused == 1 })
	view := plain(h.m.View())
	for _, want := range []string{"Paused after round 1: enter to go on, i to speak.", "⏸ paused after round 1", "i note to the panel", "enter go on"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the paused screen lacks %q:\n%s", want, view)
		}
	}
	h.send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	if !h.m.composing() {
		t.Fatal("i did not open the composer")
	}
	// While composing, the screen's keys are text: q, e and enter-less
	// letters go into the note, not to the screen.
	typeText(h.send, "What about the mobile clients? q")
	if !strings.Contains(plain(h.m.View()), "Note to the panel") {
		t.Fatalf("the composer is not on screen:\n%s", plain(h.m.View()))
	}
	h.send(enterKey)
	if h.m.composing() {
		t.Fatal("enter did not send the note")
	}
	h.until("the note band", 10*time.Second, func(m Model) bool { return noteBands(m.cols[0]) == 1 })
	for _, c := range h.m.cols {
		if noteBands(c) != 1 {
			t.Fatalf("column %s has %d note bands, want 1", c.name, noteBands(c))
		}
	}
	view = plain(h.m.View())
	if !strings.Contains(view, "✎ You · note to the panel · round 1") || !strings.Contains(view, "What about the mobile clients? q") {
		t.Fatalf("the band is not on screen:\n%s", view)
	}
	if h.m.note.paused != 1 {
		t.Fatal("sending a note ended the pause; only enter should")
	}
	h.send(enterKey)
	h.until("round 2's first turn", 20*time.Second, func(m Model) bool {
		c := m.cols[0]
		last := c.turns[len(c.turns)-1]
		return !last.note && last.round == 2 && !last.streaming
	})
	c := h.m.cols[0]
	if got := c.turns[len(c.turns)-1].text; !strings.Contains(got, "To the user's note, “What about the mobile clients? q”") {
		t.Fatalf("the next persona did not answer the note:\n%s", got)
	}
	h.until("the pause after round 2", 20*time.Second, func(m Model) bool { return m.note.paused == 2 })
	if h.m.verdict.waiting {
		t.Fatal("the verdict shows as being written while the debate waits for the person")
	}
	h.send(enterKey)
	h.until("the debate to end", 20*time.Second, settled)
	if h.m.phase != phaseDone {
		t.Fatalf("phase %v, status %q", h.m.phase, h.m.status)
	}
	if h.m.keys.Interject.Enabled() || h.m.keys.GoOn.Enabled() {
		t.Fatal("i or enter still enabled after the end")
	}
	r, err := room.Open(cwd, "graphql-test")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Notes) != 1 || st.Notes[0].From != room.NoteFromUser || st.Notes[0].Text != "What about the mobile clients? q" || st.Notes[0].AfterSeq != 3 {
		t.Fatalf("room notes %+v", st.Notes)
	}

	// The replay of that room shows the band where it was given.
	rm := NewReplay(h.options(), r, st, nil)
	rm, _ = rm.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	for _, c := range rm.cols {
		if noteBands(c) != 1 {
			t.Fatalf("replay: column %s has %d bands", c.name, noteBands(c))
		}
		// Round 1's turn, the note, round 2's turn.
		if len(c.turns) != 3 || !c.turns[1].note || c.turns[0].round != 1 || c.turns[2].round != 2 {
			t.Fatalf("replay: column %s is %+v", c.name, c.turns)
		}
	}
	if rm.keys.Interject.Enabled() {
		t.Fatal("i is enabled in a replay")
	}
}

// TestInterjectWithoutPause: a note sent while a turn streams joins before
// the next turn, the composer keeps the draft on esc, and i is refused
// once the verdict is being written.
func TestInterjectWithoutPause(t *testing.T) {
	h := newHarness(t)
	l := mockLaunch(t.TempDir(), 2)
	l.Provider.Pace = 2 * time.Millisecond
	h.start(New(h.options(), l), 120, 40)
	h.until("the first turn", 20*time.Second, func(m Model) bool { return m.cols[0].speaking })
	h.send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	typeText(h.send, "Keep it short")
	h.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	if h.m.composing() || h.m.phase != phaseRunning {
		t.Fatalf("esc: composing %v, phase %v", h.m.composing(), h.m.phase)
	}
	if !strings.Contains(h.m.status, "Note put away") {
		t.Fatalf("status %q", h.m.status)
	}
	h.send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	typeText(h.send, "er, please")
	h.send(enterKey)
	h.until("the note", 20*time.Second, func(m Model) bool { return noteBands(m.cols[0]) == 1 })
	band := h.m.cols[0].turns
	var note *turn
	for _, tt := range band {
		if tt.note {
			note = tt
		}
	}
	if note.text != "Keep it shorter, please" {
		t.Fatalf("the note is %q, want the draft kept and finished", note.text)
	}
	h.until("the verdict", 30*time.Second, func(m Model) bool { return m.phase == phaseWeighing || !m.Running() })
	if h.m.keys.Interject.Enabled() {
		t.Fatal("i is enabled while the moderator writes the verdict")
	}
	h.send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	if h.m.composing() {
		t.Fatal("i opened the composer while the verdict is being written")
	}
	h.until("the debate to end", 30*time.Second, settled)
}

// TestNoteBandLayout: a note event draws a full-width band in every
// column, at every size, with the note's text wrapped inside it and no
// line wider than the screen.
func TestNoteBandLayout(t *testing.T) {
	for _, sz := range sizes {
		s := newSynth(t, sz.w, sz.h)
		s.events(debate.Event{Type: debate.EventSessionStart, Topic: "Adopt GraphQL", Agents: panel, Rounds: 3, Provider: "mock"},
			debate.Event{Type: debate.EventRoundStart, Round: 1})
		for _, p := range panel {
			s.speak(1, p, "A short turn.")
		}
		s.events(debate.Event{Type: debate.EventRoundEnd, Round: 1},
			debate.Event{Type: debate.EventNote, Round: 1, From: "user", Text: "Please weigh the cost of running two APIs side by side for a year, \x1b[31mred\x1b[0m."},
			debate.Event{Type: debate.EventPause, Round: 1})
		narrow(t, s.m, sz.w)
		view := s.view()
		if !strings.Contains(view, "✎ You · note") {
			t.Fatalf("%dx%d: no band:\n%s", sz.w, sz.h, view)
		}
		if strings.Contains(s.m.View(), "\x1b[31m") {
			t.Fatalf("%dx%d: the note's escape sequence reached the screen", sz.w, sz.h)
		}
		// No session here: the screen says who goes on, not "enter".
		if !strings.Contains(view, "Paused after round 1: the debate waits") {
			t.Fatalf("%dx%d: no pause status:\n%s", sz.w, sz.h, view)
		}
		for _, p := range s.m.lay.panes {
			c := s.m.cols[p]
			var band *turn
			for _, tt := range c.turns {
				if tt.note {
					band = tt
				}
			}
			if band == nil || len(band.body) == 0 {
				t.Fatalf("%dx%d: column %s has no band", sz.w, sz.h, c.name)
			}
			if got := strings.Join(band.body, " "); !strings.Contains(plain(got), "year,") {
				t.Fatalf("%dx%d: the band's text is %q", sz.w, sz.h, plain(got))
			}
		}
		if sz.w == 200 {
			golden(t, "band-200x50", view)
		}
	}
}

// startedSession is a real debate session, paused after its first round
// (never read by the screen), for screens driven by hand-made events that
// need a session to send notes to.
func startedSession(tb testing.TB) *debate.Session {
	tb.Helper()
	l := mockLaunch(tb.TempDir(), 3)
	l.Config.PauseBetweenRounds = true
	sess, err := debate.Start(context.Background(), l)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(sess.Close)
	return sess
}

// TestComposerTakesKeys: while the composer is open, keys the screen binds
// (q quits, tab moves, e exports) are text, and ctrl+c still quits.
func TestComposerTakesKeys(t *testing.T) {
	s := newSynth(t, 120, 40)
	s.send(startedMsg{id: s.m.id, run: s.m.run, room: s.m.room, events: make(chan debate.Event), cancel: func() { s.cancelled++ }, sess: startedSession(t)})
	s.events(debate.Event{Type: debate.EventSessionStart, Topic: "t", Agents: panel, Rounds: 3}, debate.Event{Type: debate.EventRoundStart, Round: 1})
	s.send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	if !s.m.composing() {
		t.Fatal("i did not open the composer")
	}
	focus := s.m.focus
	typeText(func(m tea.Msg) { s.send(m) }, "qe")
	s.send(tea.KeyPressMsg{Code: tea.KeyTab})
	if s.m.quitting || s.m.focus != focus || !s.m.composing() {
		t.Fatalf("a key meant for the note acted on the screen: quitting %v, focus %d→%d", s.m.quitting, focus, s.m.focus)
	}
	if got := s.m.note.box.Value(); !strings.HasPrefix(got, "qe") {
		t.Fatalf("the composer holds %q", got)
	}
	// The screen's keys are off in its help while the composer has them,
	// and on again once it is put away.
	if s.m.keys.Quit.Enabled() || s.m.keys.NextPane.Enabled() || strings.Contains(s.view(), "q back") || strings.Contains(s.view(), "/ search") {
		t.Fatalf("the screen's keys show while composing:\n%s", s.view())
	}
	s.send(tea.KeyPressMsg{Code: tea.KeyEscape})
	if !s.m.keys.Quit.Enabled() || !s.m.keys.Up.Enabled() || !s.m.keys.Interject.Enabled() || !strings.Contains(s.view(), "q back") {
		t.Fatalf("the screen's keys did not come back after esc:\n%s", s.view())
	}
	s.send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	s.send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !s.m.quitting {
		t.Fatal("ctrl+c did not quit while composing")
	}
}
