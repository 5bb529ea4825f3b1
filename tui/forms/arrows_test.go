package forms

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// TestArrowsMoveBetweenFields: ↓ and ↑ move between the fields of both
// forms wherever they have nothing else to do (a one-line field, a
// stepper, a choice, the topic's last row), as tab and shift+tab do; in
// the persona list they move the cursor first. Both forms meant it, but
// their key bars switched the arrows off, so ↓ did nothing.
func TestArrowsMoveBetweenFields(t *testing.T) {
	t.Run("room form", func(t *testing.T) {
		f, _ := newTestRoomForm(t, 60, 20)
		if f.focus != roomName {
			t.Fatalf("the form opens on field %d, want the name", f.focus)
		}
		f, _ = drive(f, "down")
		if f.focus != roomTopic {
			t.Fatalf("↓ from the name: field %d, want the topic", f.focus)
		}
		f, _ = drive(f, "down", "down")
		if f.focus != roomSeats {
			t.Fatalf("↓ twice more: field %d, want the seats", f.focus)
		}
		f, _ = drive(f, "up")
		if f.focus != roomBudget {
			t.Fatalf("↑ from the seats: field %d, want the budget", f.focus)
		}
		if v := f.inputs[roomName].Value() + f.inputs[roomTopic].Value(); v != "" {
			t.Errorf("the arrows typed %q into the fields", v)
		}
	})
	t.Run("debate form", func(t *testing.T) {
		f := debateFormAt(60, 20, "Adopt GraphQL")
		f, _ = pressAll(f, "down")
		if f.focus != fieldRounds {
			t.Fatalf("↓ on the topic's one row: field %d, want the rounds", f.focus)
		}
		f, _ = pressAll(f, "down")
		if f.focus != fieldPersonas || f.pcursor != 0 {
			t.Fatalf("↓ from the rounds: field %d (persona %d), want the personas' first", f.focus, f.pcursor)
		}
		n := len(f.personas)
		for range n - 1 {
			f, _ = pressAll(f, "down")
		}
		if f.focus != fieldPersonas || f.pcursor != n-1 {
			t.Fatalf("↓ through the list: field %d (persona %d), want the personas' last (%d)", f.focus, f.pcursor, n-1)
		}
		f, _ = pressAll(f, "down")
		if f.focus != fieldProvider {
			t.Fatalf("↓ past the last persona: field %d, want the provider", f.focus)
		}
		f, _ = pressAll(f, "up")
		if f.focus != fieldPersonas {
			t.Fatalf("↑ from the provider: field %d, want the personas", f.focus)
		}
		if got := f.topic.Value(); got != "Adopt GraphQL" {
			t.Errorf("the topic reads %q after the arrows", got)
		}
	})
	t.Run("a topic of two lines", func(t *testing.T) {
		f := debateFormAt(60, 20, "one")
		f, _ = pressAll(f, "enter") // enter adds a line to the topic
		f, _ = pressAll(f, typeText(nil, "two")...)
		f, _ = pressAll(f, "up")
		if f.focus != fieldTopic || f.topic.Line() != 0 {
			t.Fatalf("↑ on the topic's second line: field %d, line %d; want the topic's first line", f.focus, f.topic.Line())
		}
		f, _ = pressAll(f, "down")
		if f.focus != fieldTopic || f.topic.Line() != 1 {
			t.Fatalf("↓ back: field %d, line %d; want the topic's second line", f.focus, f.topic.Line())
		}
		f, _ = pressAll(f, "down")
		if f.focus != fieldRounds {
			t.Fatalf("↓ on the topic's last line: field %d, want the rounds", f.focus)
		}
	})
}

// debateFormAt is the new-debate form (the default panel, the mock) on a
// w×h screen with topic typed.
func debateFormAt(w, h int, topic string) DebateForm {
	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	f := NewDebateForm(DebateOptions{Panel: panel, Settings: debate.Settings{Getenv: noEnv}})
	f, _ = f.Update(tea.WindowSizeMsg{Width: w, Height: h})
	f, _ = pressAll(f, typeText(nil, topic)...)
	return f
}
