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

// synth is a screen driven by hand-made events: Update is called directly
// and the commands it returns are dropped, so nothing runs in the
// background. cancelled counts calls of the debate's cancel.
type synth struct {
	t         *testing.T
	m         Model
	cancelled int
	cmds      []tea.Cmd
}

// panel is the test debate's personas.
var panel = []string{"Product Manager", "Software Architect", "Security Reviewer"}

// newSynth returns a screen whose debate "started" in a real room under a
// temporary folder, sized w×h.
func newSynth(t *testing.T, w, h int) *synth {
	t.Helper()
	s := &synth{t: t}
	opts := Options{Context: context.Background(), Now: func() time.Time { return fixedNow }, Dark: true, ExportDir: t.TempDir(), Embedded: true}
	l := mockLaunch(t.TempDir(), 3)
	s.m = New(opts, l)
	s.send(tea.WindowSizeMsg{Width: w, Height: h})
	r, _, err := room.Create(l.Cwd, "synth-room", room.CreateOptions{Topic: l.Config.Topic, Budget: 3, Mode: room.ModeDebate, Agents: panel, Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	s.send(startedMsg{id: s.m.id, run: s.m.run, room: r, events: make(chan debate.Event), cancel: func() { s.cancelled++ }})
	return s
}

func (s *synth) send(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.m, cmd = s.m.Update(msg)
	s.cmds = append(s.cmds, cmd)
	return cmd
}

// events feeds evs as one batch, as the reader would.
func (s *synth) events(evs ...debate.Event) {
	s.send(eventsMsg{id: s.m.id, run: s.m.run, events: evs})
}

// close ends the stream.
func (s *synth) close() {
	s.send(eventsMsg{id: s.m.id, run: s.m.run, closed: true})
}

// speak feeds a whole turn: turn_start, its text in word tokens, turn_end.
func (s *synth) speak(round int, agent, text string) {
	evs := []debate.Event{{Type: debate.EventTurnStart, Round: round, Agent: agent, Model: "mock"}}
	for _, tok := range tokens(text) {
		evs = append(evs, debate.Event{Type: debate.EventToken, Round: round, Agent: agent, Text: tok})
	}
	evs = append(evs, debate.Event{
		Type: debate.EventTurnEnd, Round: round, Agent: agent, Model: "mock", Text: text,
		Usage: &debate.Usage{PromptTokens: 100, CompletionTokens: len(tokens(text))},
	})
	s.events(evs...)
}

// begin starts a turn and streams part of it.
func (s *synth) begin(round int, agent, partial string) {
	evs := []debate.Event{{Type: debate.EventTurnStart, Round: round, Agent: agent, Model: "mock"}}
	for _, tok := range tokens(partial) {
		evs = append(evs, debate.Event{Type: debate.EventToken, Round: round, Agent: agent, Text: tok})
	}
	s.events(evs...)
	s.send(growTickMsg{id: s.m.id})
}

// settle renders every finished text the screen is waiting for, as the
// render command would, and hands the result back.
func (s *synth) settle() {
	for i := 0; i < 4; i++ {
		if s.m.renderMissing() == nil && !s.m.rendering {
			return
		}
		for _, c := range s.m.cols {
			for _, t := range c.turns {
				if !t.streaming && c.w > 0 {
					s.m.md.Render(t.text, c.w)
				}
			}
		}
		if v := s.m.verdict; v.text != "" && v.w > 0 {
			s.m.md.Render(v.text, v.w)
		}
		s.send(renderedMsg{id: s.m.id, gen: s.m.renderGen})
	}
}

// view is the screen without colours.
func (s *synth) view() string { return plain(s.m.View()) }

// tokens splits text into word tokens that join back to it.
func tokens(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			out = append(out, text[start:i])
			start = i
		}
	}
	return append(out, text[start:])
}

// turnText is a mock turn of persona in round, as the engine would write.
func turnText(persona string, round int) string {
	ps := debate.DefaultPersonas()
	var speaker debate.Persona
	for _, p := range ps {
		if p.Name == persona {
			speaker = p
		}
	}
	return debate.MockReply(debate.TurnInfo{
		Purpose: debate.PurposeTurn, Topic: "Should we adopt GraphQL for the public API",
		Speaker: speaker, Personas: ps, Round: round, Rounds: 3, Seed: 1,
	})
}

// lines counts a view's lines containing sub.
func lines(view, sub string) int {
	n := 0
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}
