package debateview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// sizes are the golden terminal sizes.
var sizes = []struct{ w, h int }{{60, 20}, {60, 24}, {80, 24}, {120, 40}, {200, 50}}

// TestViewComplete is a whole mock debate (zero pace, seed 1), once ended.
func TestViewComplete(t *testing.T) {
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			h := newHarness(t)
			h.start(New(h.options(), mockLaunch(t.TempDir(), 2)), sz.w, sz.h)
			h.until("the debate to end", 20*time.Second, settled)
			narrow(t, h.m, sz.w)
			golden(t, fmt.Sprintf("complete-%dx%d", sz.w, sz.h), plain(h.m.View()))
			keytest.KeyBar(t, plain(h.m.View()), "? help", "q ")
		})
	}
}

// TestViewLive is a debate in its second round: two personas have spoken
// twice, the third is speaking.
func TestViewLive(t *testing.T) {
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			s := liveSynth(t, sz.w, sz.h)
			narrow(t, s.m, sz.w)
			golden(t, fmt.Sprintf("live-%dx%d", sz.w, sz.h), s.view())
			keytest.KeyBar(t, s.view(), "esc stop", "? help", "q ")
		})
	}
}

// liveSynth is the debate of TestViewLive.
func liveSynth(t *testing.T, w, h int) *synth {
	s := newSynth(t, w, h)
	s.events(debate.Event{Type: debate.EventSessionStart, Topic: "Should we adopt GraphQL for the public API", Agents: panel, Rounds: 3, Provider: "mock"},
		debate.Event{Type: debate.EventRoundStart, Round: 1})
	for _, p := range panel {
		s.speak(1, p, turnText(p, 1))
	}
	s.events(debate.Event{Type: debate.EventRoundEnd, Round: 1}, debate.Event{Type: debate.EventRoundStart, Round: 2})
	s.speak(2, panel[0], turnText(panel[0], 2))
	s.speak(2, panel[1], turnText(panel[1], 2))
	text := turnText(panel[2], 2)
	s.begin(2, panel[2], text[:len(text)/2])
	s.settle()
	return s
}

// TestViewStates are the moments between: the moderator weighing, a
// failure, a stop, the full help.
func TestViewStates(t *testing.T) {
	tests := []struct {
		name string
		then func(s *synth)
	}{
		{"weighing", func(s *synth) {
			s.events(debate.Event{Type: debate.EventTurnEnd, Round: 2, Agent: panel[2], Text: turnText(panel[2], 2)},
				debate.Event{Type: debate.EventRoundEnd, Round: 3})
		}},
		{"failed", func(s *synth) {
			s.events(debate.Event{Type: debate.EventTurnEnd, Round: 2, Agent: panel[2], Text: "I'll be the one", Incomplete: true},
				debate.Event{Type: debate.EventError, Agent: panel[2], Round: 2, Text: "openrouter failed during Security Reviewer's turn (round 2): HTTP 429 Too Many Requests; wait a little or use another model"})
			s.close()
		}},
		{"stopped", func(s *synth) {
			s.events(debate.Event{Type: debate.EventTurnEnd, Round: 2, Agent: panel[2], Text: "I'll be the one", Incomplete: true},
				debate.Event{Type: debate.EventError, Text: debate.CancelledMessage})
			s.close()
		}},
		{"help", func(s *synth) { s.send(press("?")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := liveSynth(t, 120, 40)
			tt.then(s)
			s.settle()
			golden(t, tt.name+"-120x40", s.view())
		})
	}
}

// TestLongStatusWraps: a status too long for the bar (the file an export
// wrote, an error naming a path and its cause) wraps onto more rows and is
// read whole at 80 and 60 columns; the screen keeps its height and its
// key bar.
func TestLongStatusWraps(t *testing.T) {
	const file = "/home/someone/projects/service/should-we-adopt-graphql-20261206-150615-transcript.md"
	for _, w := range []int{80, 60} {
		s := liveSynth(t, w, 24)
		s.m.setStatus("Exported the transcript to " + file + ".")
		s.m.refresh()
		v := s.view()
		// Compared without spaces: a path longer than a row breaks inside.
		bare := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if !strings.Contains(bare(v), bare("Exported the transcript to "+file+".")) {
			t.Errorf("%d columns: the export's status is not whole:\n%s", w, v)
		}
		if n := strings.Count(v, "\n") + 1; n != 24 {
			t.Errorf("%d columns: %d rows, want 24", w, n)
		}
		keytest.KeyBar(t, v, "? help")
		s.m.setError("Could not export the transcript to " + file + ": permission denied; choose a folder you can write.")
		s.m.refresh()
		if flat := bare(s.view()); !strings.Contains(flat, bare("permission denied; choose a folder you can write.")) || !strings.Contains(flat, "Couldnotexport") {
			t.Errorf("%d columns: the error is not whole:\n%s", w, s.view())
		}
	}
}
