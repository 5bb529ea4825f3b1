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

// fivePanel is a council-sized panel: five personas.
var fivePanel = []string{"Lead", "Critic", "Security", "Peer", "Ops"}

// TestFivePersonas: a panel of five is drawn one column per persona where
// the width allows them all (200), and as the list of every persona with
// the speaker's column where it does not (80); the speaker is the one
// shown.
func TestFivePersonas(t *testing.T) {
	for _, tt := range []struct {
		w, h    int
		columns int
	}{{200, 50, 5}, {120, 40, 3}, {80, 24, 1}} {
		s := newFiveSynth(t, tt.w, tt.h)
		s.events(debate.Event{Type: debate.EventSessionStart, Topic: "Five at the table", Agents: fivePanel, Rounds: 2, Provider: "mock"},
			debate.Event{Type: debate.EventRoundStart, Round: 1})
		for _, p := range fivePanel[:3] {
			s.speak(1, p, p+" says its piece in round one.")
		}
		s.begin(1, "Peer", "Peer is halfway through")
		s.settle()
		view := s.view()
		if got := visibleColumns(tt.w, len(fivePanel)); got != tt.columns {
			t.Errorf("%d wide: %d columns, want %d", tt.w, got, tt.columns)
		}
		for _, p := range fivePanel {
			if !strings.Contains(view, p) {
				t.Errorf("%d wide: %q is not named:\n%s", tt.w, p, view)
			}
		}
		if !strings.Contains(view, "Peer is halfway through") || !strings.Contains(view, "Peer is speaking") {
			t.Errorf("%d wide: the speaker's column is not shown:\n%s", tt.w, view)
		}
	}
}

// newFiveSynth is newSynth with the five personas of fivePanel.
func newFiveSynth(t *testing.T, w, h int) *synth {
	t.Helper()
	s := &synth{t: t}
	opts := Options{Context: context.Background(), Now: func() time.Time { return fixedNow }, Dark: true, ExportDir: t.TempDir(), Embedded: true}
	l := mockLaunch(t.TempDir(), 2)
	base := debate.DefaultPersonas()[0]
	l.Config.Personas = nil
	for _, name := range fivePanel {
		p := base
		p.Name = name
		l.Config.Personas = append(l.Config.Personas, p)
	}
	s.m = New(opts, l)
	s.send(tea.WindowSizeMsg{Width: w, Height: h})
	r, _, err := room.Create(l.Cwd, "five-room", room.CreateOptions{Topic: "Five at the table", Mode: room.ModeDebate, Agents: fivePanel, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	s.send(startedMsg{id: s.m.id, run: s.m.run, room: r, events: make(chan debate.Event), cancel: func() { s.cancelled++ }})
	return s
}
