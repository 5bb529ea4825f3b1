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

// TestColumnsShowTheStance: a persona arguing an assigned stance (a
// persona file's, or --stances) says so in its column's title, as its
// room records it; a persona without one shows its name alone.
func TestColumnsShowTheStance(t *testing.T) {
	s := &synth{t: t}
	l := mockLaunch(t.TempDir(), 3)
	s.m = New(Options{Context: context.Background(), Now: func() time.Time { return fixedNow }, Dark: true, ExportDir: t.TempDir(), Embedded: true}, l)
	s.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	var personas []room.PersonaInfo
	for i, p := range panel {
		stance := []string{debate.StanceFor, debate.StanceAgainst, ""}[i%3]
		personas = append(personas, room.PersonaInfo{Name: p, Persona: "a voice", Stance: stance})
	}
	r, _, err := room.Create(l.Cwd, "stanced", room.CreateOptions{
		Topic: l.Config.Topic, Budget: 1, Mode: room.ModeDebate, Agents: panel, Rounds: 1, Personas: personas,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.send(startedMsg{id: s.m.id, run: s.m.run, room: r, events: make(chan debate.Event), cancel: func() {}})
	s.events(debate.Event{Type: debate.EventSessionStart, Topic: "t", Agents: panel, Rounds: 1, Provider: "mock"},
		debate.Event{Type: debate.EventRoundStart, Round: 1})
	s.settle()
	v := s.view()
	if !strings.Contains(v, panel[0]+" · for") || !strings.Contains(v, panel[1]+" · against") {
		t.Errorf("the stances are not in the titles:\n%s", v)
	}
	if strings.Contains(v, panel[2]+" · ") {
		t.Errorf("a persona without a stance shows one:\n%s", v)
	}
}
