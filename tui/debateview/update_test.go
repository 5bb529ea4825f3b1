package debateview

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// run executes cmd (and the commands of a batch) and returns their
// messages; commands that would wait (timers, the reader) must not be in it.
func msgsOf(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, msgsOf(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func TestUpdateEvents(t *testing.T) {
	tests := []struct {
		name  string
		setup func(s *synth)
		check func(t *testing.T, s *synth)
	}{
		{
			name: "turn start lights the speaker and moves focus to it",
			setup: func(s *synth) {
				s.events(debate.Event{Type: debate.EventRoundStart, Round: 1}, debate.Event{Type: debate.EventTurnStart, Round: 1, Agent: "Software Architect"})
			},
			check: func(t *testing.T, s *synth) {
				if !s.m.cols[1].speaking || !s.m.cols[1].thinking {
					t.Error("the architect is not lit and thinking")
				}
				if s.m.focus != 1 {
					t.Errorf("focus = %d, want 1", s.m.focus)
				}
				if !strings.Contains(s.view(), "Software Architect is speaking") || !strings.Contains(s.view(), "thinking…") {
					t.Errorf("view does not say who speaks:\n%s", s.view())
				}
			},
		},
		{
			name:  "tokens stream into the speaking column",
			setup: func(s *synth) { s.begin(1, "Product Manager", "Let me frame this as a **product bet**.") },
			check: func(t *testing.T, s *synth) {
				if !strings.Contains(s.view(), "Let me frame this as a product bet.") {
					t.Errorf("streamed text missing (Markdown rendered):\n%s", s.view())
				}
				if s.m.live != len(tokens("Let me frame this as a **product bet**.")) {
					t.Errorf("live tokens = %d", s.m.live)
				}
			},
		},
		{
			name: "turn end keeps the text and adds the usage",
			setup: func(s *synth) {
				s.speak(1, "Product Manager", "First turn.")
			},
			check: func(t *testing.T, s *synth) {
				c := s.m.cols[0]
				if c.speaking || len(c.turns) != 1 || c.turns[0].text != "First turn." {
					t.Fatalf("column after turn end: speaking=%v turns=%d", c.speaking, len(c.turns))
				}
				if s.m.usage.PromptTokens != 100 || s.m.usage.CompletionTokens != 2 || s.m.live != 0 {
					t.Errorf("usage = %+v live %d", s.m.usage, s.m.live)
				}
			},
		},
		{
			name: "the last round's end shows the moderator weighing",
			setup: func(s *synth) {
				s.events(debate.Event{Type: debate.EventRoundStart, Round: 3}, debate.Event{Type: debate.EventRoundEnd, Round: 3})
			},
			check: func(t *testing.T, s *synth) {
				if s.m.phase != phaseWeighing || !s.m.verdict.waiting {
					t.Errorf("phase %d waiting %v", s.m.phase, s.m.verdict.waiting)
				}
				if !strings.Contains(s.view(), "The moderator is reading the whole debate") {
					t.Errorf("no verdict panel while weighing:\n%s", s.view())
				}
			},
		},
		{
			name: "consensus before the last round goes to the verdict",
			setup: func(s *synth) {
				yes := true
				s.events(debate.Event{Type: debate.EventRoundEnd, Round: 1, Consensus: &yes})
			},
			check: func(t *testing.T, s *synth) {
				if s.m.phase != phaseWeighing || !strings.Contains(s.m.status, "consensus after round 1") {
					t.Errorf("phase %d status %q", s.m.phase, s.m.status)
				}
			},
		},
		{
			name: "summary and done show the verdict and say where it is saved",
			setup: func(s *synth) {
				s.events(debate.Event{Type: debate.EventSummary, Text: "**Decision:** ship it.", Round: 3, Usage: &debate.Usage{PromptTokens: 5}},
					debate.Event{Type: debate.EventDone, Usage: &debate.Usage{PromptTokens: 7, CompletionTokens: 9, Cost: 0.0123}})
				s.close()
				s.settle()
			},
			check: func(t *testing.T, s *synth) {
				v := s.view()
				for _, want := range []string{"Moderator's verdict", "Decision: ship it.", "✓ verdict in", "Saved in room synth-room", "$0.0123", "16 tokens"} {
					if !strings.Contains(v, want) {
						t.Errorf("view lacks %q:\n%s", want, v)
					}
				}
				if s.m.Running() {
					t.Error("still running after done")
				}
			},
		},
		{
			name: "a provider failure shows in the persona's column and the status line",
			setup: func(s *synth) {
				s.begin(1, "Security Reviewer", "Half a")
				s.events(debate.Event{Type: debate.EventTurnEnd, Round: 1, Agent: "Security Reviewer", Text: "Half a", Incomplete: true},
					debate.Event{Type: debate.EventError, Agent: "Security Reviewer", Round: 1, Text: "openrouter failed during Security Reviewer's turn (round 1): HTTP 401 Unauthorized; check the API key"})
				s.close()
			},
			check: func(t *testing.T, s *synth) {
				if s.m.cols[2].err == "" || !s.m.statusErr || s.m.phase != phaseFailed {
					t.Fatalf("err %q statusErr %v phase %d", s.m.cols[2].err, s.m.statusErr, s.m.phase)
				}
				v := s.view()
				if lines(v, "HTTP 401") < 2 {
					t.Errorf("the cause is not in both the column and the status line:\n%s", v)
				}
				if !strings.Contains(v, "Round 1 · cut off") {
					t.Errorf("the incomplete turn is not marked:\n%s", v)
				}
			},
		},
		{
			name: "a moderator failure shows in the verdict panel",
			setup: func(s *synth) {
				s.events(debate.Event{Type: debate.EventRoundEnd, Round: 3},
					debate.Event{Type: debate.EventError, Agent: "Moderator", Text: "mock failed: boom"})
			},
			check: func(t *testing.T, s *synth) {
				if !strings.Contains(s.view(), "The verdict failed: mock failed: boom") {
					t.Errorf("no verdict error:\n%s", s.view())
				}
			},
		},
		{
			name: "a cancelled debate is stopped, not failed",
			setup: func(s *synth) {
				s.events(debate.Event{Type: debate.EventError, Text: debate.CancelledMessage})
				s.close()
			},
			check: func(t *testing.T, s *synth) {
				if s.m.phase != phaseStopped || s.m.statusErr || !strings.Contains(s.m.status, "Stopped. Saved in room synth-room: R resumes it") {
					t.Errorf("phase %d status %q", s.m.phase, s.m.status)
				}
			},
		},
		{
			name: "events of an earlier run are ignored",
			setup: func(s *synth) {
				s.send(eventsMsg{id: s.m.id, run: s.m.run + 7, events: []debate.Event{{Type: debate.EventTurnStart, Round: 1, Agent: "Product Manager"}}})
			},
			check: func(t *testing.T, s *synth) {
				if s.m.cols[0].speaking {
					t.Error("a stale run's event was applied")
				}
			},
		},
		{
			name: "agent text cannot drive the terminal",
			setup: func(s *synth) {
				s.speak(1, "Product Manager", "evil \x1b]52;c;aGk=\x07 and \x1b[2J clear")
				s.settle()
			},
			check: func(t *testing.T, s *synth) {
				raw := s.m.View()
				if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\x1b[2J") {
					t.Errorf("escape sequences reached the view: %q", raw)
				}
				if !strings.Contains(s.view(), "␛") {
					t.Errorf("the escape is not shown as text:\n%s", s.view())
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSynth(t, 160, 40)
			tt.setup(s)
			tt.check(t, s)
		})
	}
}

func TestUpdateKeys(t *testing.T) {
	tests := []struct {
		name  string
		setup func(s *synth)
		keys  []string
		check func(t *testing.T, s *synth, msgs []tea.Msg)
	}{
		{
			name: "tab moves focus and stops following the speaker",
			keys: []string{"tab", "tab"},
			check: func(t *testing.T, s *synth, _ []tea.Msg) {
				if s.m.focus != 2 || s.m.autoFocus {
					t.Errorf("focus %d auto %v", s.m.focus, s.m.autoFocus)
				}
				s.events(debate.Event{Type: debate.EventTurnStart, Round: 1, Agent: "Product Manager"})
				if s.m.focus != 2 {
					t.Error("focus followed the speaker after the user moved it")
				}
			},
		},
		{
			name: "shift+tab wraps around",
			keys: []string{"shift+tab"},
			check: func(t *testing.T, s *synth, _ []tea.Msg) {
				if s.m.focus != 2 {
					t.Errorf("focus %d, want 2", s.m.focus)
				}
			},
		},
		{
			name: "esc asks, then y stops a running debate",
			keys: []string{"esc", "y"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if s.cancelled != 1 || len(msgs) != 0 {
					t.Errorf("cancel called %d times, msgs %v", s.cancelled, msgs)
				}
			},
		},
		{
			name: "esc asks before it stops a running debate",
			keys: []string{"esc"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if s.cancelled != 0 || len(msgs) != 0 {
					t.Errorf("esc alone: cancel called %d times, msgs %v", s.cancelled, msgs)
				}
				if !strings.Contains(plain(s.m.View()), "Stop the debate? y/n") {
					t.Errorf("esc does not ask:\n%s", plain(s.m.View()))
				}
			},
		},
		{
			name: "esc, then n or esc, leaves the debate running",
			keys: []string{"esc", "n", "esc", "esc"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if s.cancelled != 0 || len(msgs) != 0 || !s.m.Running() {
					t.Errorf("cancel called %d times, msgs %v, running %v", s.cancelled, msgs, s.m.Running())
				}
				if strings.Contains(plain(s.m.View()), "Stop the debate?") {
					t.Errorf("the question stays after its answer:\n%s", plain(s.m.View()))
				}
			},
		},
		{
			name: "esc on the help closes the help and nothing else",
			keys: []string{"?", "esc"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if s.cancelled != 0 || len(msgs) != 0 || !s.m.Running() {
					t.Errorf("esc on the help: cancel called %d times, msgs %v, running %v", s.cancelled, msgs, s.m.Running())
				}
				if s.m.showHelp {
					t.Error("esc left the help open")
				}
				if strings.Contains(plain(s.m.View()), "Stop the debate?") {
					t.Errorf("esc on the help asks to stop:\n%s", plain(s.m.View()))
				}
			},
		},
		{
			name:  "esc goes back once the debate ended",
			setup: func(s *synth) { s.events(debate.Event{Type: debate.EventDone}); s.close() },
			keys:  []string{"esc"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if len(msgs) != 1 {
					t.Fatalf("msgs %v", msgs)
				}
				if _, ok := msgs[0].(BackMsg); !ok {
					t.Errorf("esc sent %T, want BackMsg", msgs[0])
				}
			},
		},
		{
			name: "q while running asks, and n leaves it running",
			keys: []string{"q"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if s.cancelled != 0 || len(msgs) != 0 || s.m.quitting {
					t.Fatalf("q alone: cancel %d msgs %v quitting %v", s.cancelled, msgs, s.m.quitting)
				}
				if !strings.Contains(plain(s.m.View()), "Stop the debate and go back? y/n") {
					t.Fatalf("q does not ask:\n%s", plain(s.m.View()))
				}
				s.send(press("n"))
				if s.cancelled != 0 || !s.m.Running() || strings.Contains(plain(s.m.View()), "Stop the debate") {
					t.Errorf("after n: cancel %d running %v\n%s", s.cancelled, s.m.Running(), plain(s.m.View()))
				}
			},
		},
		{
			name: "q while running, y: stops, saves and goes back only when the stream ends",
			keys: []string{"q", "y"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if s.cancelled != 1 || len(msgs) != 0 || !s.m.quitting {
					t.Fatalf("cancel %d msgs %v quitting %v", s.cancelled, msgs, s.m.quitting)
				}
				if !strings.Contains(s.view(), "q back now") {
					t.Errorf("the help does not offer to go back at once:\n%s", s.view())
				}
				s.events(debate.Event{Type: debate.EventError, Text: debate.CancelledMessage})
				cmd := s.send(eventsMsg{id: s.m.id, run: s.m.run, closed: true})
				if _, ok := cmd().(BackMsg); !ok {
					t.Error("the stream's end did not go back")
				}
			},
		},
		{
			name: "ctrl+c while running stops, saves and quits the program",
			keys: []string{"ctrl+c"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if s.cancelled != 1 || len(msgs) != 0 {
					t.Fatalf("cancel %d msgs %v", s.cancelled, msgs)
				}
				s.events(debate.Event{Type: debate.EventError, Text: debate.CancelledMessage})
				cmd := s.send(eventsMsg{id: s.m.id, run: s.m.run, closed: true})
				if _, ok := cmd().(tea.QuitMsg); !ok {
					t.Error("the stream's end did not quit after ctrl+c")
				}
			},
		},
		{
			name: "a second q while saving goes back at once",
			check: func(t *testing.T, s *synth, _ []tea.Msg) {
				events := make(chan debate.Event)
				s.send(startedMsg{id: s.m.id, run: s.m.run, room: s.m.room, events: events, cancel: func() { s.cancelled++ }})
				s.send(press("q"))
				s.send(press("y"))
				close(events) // the engine ends, so the drain returns
				var back bool
				for _, m := range msgsOf(s.send(press("q"))) {
					_, ok := m.(BackMsg)
					back = back || ok
				}
				if !back {
					t.Error("the second q did not go back")
				}
			},
		},
		{
			name:  "q once ended goes back at once",
			setup: func(s *synth) { s.events(debate.Event{Type: debate.EventDone}); s.close() },
			keys:  []string{"q"},
			check: func(t *testing.T, s *synth, msgs []tea.Msg) {
				if len(msgs) != 1 {
					t.Fatalf("msgs %v", msgs)
				}
				if _, ok := msgs[0].(BackMsg); !ok {
					t.Errorf("q sent %T, want BackMsg", msgs[0])
				}
				if !strings.Contains(s.view(), "q back") {
					t.Errorf("the help does not say q goes back:\n%s", s.view())
				}
			},
		},
		{
			name: "r does nothing while running",
			keys: []string{"r"},
			check: func(t *testing.T, s *synth, _ []tea.Msg) {
				if s.m.run != 0 {
					t.Errorf("run %d", s.m.run)
				}
			},
		},
		{
			name: "? shows the full help",
			keys: []string{"?"},
			check: func(t *testing.T, s *synth, _ []tea.Msg) {
				if !strings.Contains(s.view(), "page down") || !strings.Contains(s.view(), "export .html") {
					t.Errorf("full help missing:\n%s", s.view())
				}
			},
		},
		{
			name: "up scrolls the focused column and stops it following",
			setup: func(s *synth) {
				for r := 1; r <= 3; r++ {
					s.speak(r, "Product Manager", turnText("Product Manager", r))
				}
				s.settle()
			},
			keys: []string{"up", "up"},
			check: func(t *testing.T, s *synth, _ []tea.Msg) {
				c := s.m.cols[0]
				if c.scroll.follow || c.scroll.below(c.total, s.m.lay.colRows-2) != 2 {
					t.Errorf("follow %v below %d", c.scroll.follow, c.scroll.below(c.total, s.m.lay.colRows-2))
				}
				if !strings.Contains(s.view(), "↓ 2 more") {
					t.Errorf("no scroll note:\n%s", s.view())
				}
				s.send(press("end"))
				if !c.scroll.follow {
					t.Error("end did not follow again")
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSynth(t, 160, 30)
			if tt.setup != nil {
				tt.setup(s)
			}
			var msgs []tea.Msg
			for _, k := range tt.keys {
				msgs = append(msgs, msgsOf(s.send(press(k)))...)
			}
			tt.check(t, s, msgs)
		})
	}
}

func TestResizeKeepsScroll(t *testing.T) {
	s := newSynth(t, 160, 30)
	for r := 1; r <= 3; r++ {
		s.speak(r, "Product Manager", turnText("Product Manager", r))
	}
	s.settle()
	c := s.m.cols[0]
	// Scroll to the start of round 2's turn.
	s.send(press("g"))
	round2 := c.lens[0]
	s.send(tea.MouseWheelMsg{X: 5, Y: 5, Button: tea.MouseWheelDown})
	for c.scroll.top < round2 {
		s.send(press("down"))
	}
	if c.scroll.top != round2 {
		t.Fatalf("top %d, want %d", c.scroll.top, round2)
	}
	for _, w := range []int{120, 200, 80, 160} {
		s.send(tea.WindowSizeMsg{Width: w, Height: 30})
		s.settle()
		if c.scroll.follow {
			t.Fatalf("width %d: the column follows again", w)
		}
		if c.scroll.top != c.lens[0] {
			t.Errorf("width %d: top %d, want the start of round 2 at %d", w, c.scroll.top, c.lens[0])
		}
		if !strings.Contains(s.view(), "── Round 2") {
			t.Errorf("width %d: round 2 not at the top:\n%s", w, s.view())
		}
	}
}

func TestMouse(t *testing.T) {
	s := newSynth(t, 160, 30)
	for r := 1; r <= 3; r++ {
		s.speak(r, "Software Architect", turnText("Software Architect", r))
	}
	s.settle()
	x := s.m.lay.xs[1] + 3
	s.send(tea.MouseWheelMsg{X: x, Y: s.m.lay.colTop + 2, Button: tea.MouseWheelUp})
	if c := s.m.cols[1]; c.scroll.follow || c.scroll.below(c.total, s.m.lay.colRows-2) != wheelLines {
		t.Errorf("wheel over the architect did not scroll it: follow %v", c.scroll.follow)
	}
	if s.m.focus != 1 {
		t.Errorf("the wheel moved focus to %d", s.m.focus)
	}
	s.send(tea.MouseClickMsg{X: s.m.lay.xs[2] + 2, Y: s.m.lay.colTop + 1, Button: tea.MouseLeft})
	if s.m.focus != 2 || s.m.autoFocus {
		t.Errorf("click: focus %d auto %v", s.m.focus, s.m.autoFocus)
	}
}

func TestNarrowTabs(t *testing.T) {
	s := newSynth(t, 80, 24)
	s.speak(1, "Product Manager", turnText("Product Manager", 1))
	s.begin(1, "Software Architect", "I see it differently.")
	s.settle()
	v := s.view()
	tabs := strings.Split(v, "\n")[2]
	for _, n := range panel {
		if !strings.Contains(tabs, n) {
			t.Errorf("tab strip %q lacks %s", tabs, n)
		}
	}
	if lines(v, "╭─") != 1 || !strings.Contains(v, "I see it differently.") {
		t.Errorf("narrow layout does not show the speaker alone:\n%s", v)
	}
	s.send(tea.MouseClickMsg{X: s.m.lay.tabXs[0][0] + 1, Y: 2, Button: tea.MouseLeft})
	if s.m.focus != 0 || !strings.Contains(s.view(), "╭─ Product Manager") {
		t.Errorf("clicking the first tab did not show it:\n%s", s.view())
	}
}

func TestStartFailureShowsCause(t *testing.T) {
	s := newSynth(t, 120, 30)
	s.send(startedMsg{id: s.m.id, run: s.m.run, err: errors.New("create room: permission denied")})
	if s.m.phase != phaseFailed || !strings.Contains(s.view(), "Could not start the debate: create room: permission denied") {
		t.Errorf("phase %d:\n%s", s.m.phase, s.view())
	}
}

// press builds a key press by name.
var press = keytest.Press
