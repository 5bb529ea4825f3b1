package forms

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
)

// TestPalette: ctrl+p lists the focused field's keys over a form; enter
// runs the one chosen by sending its key to the form.
func TestPalette(t *testing.T) {
	f := newTestDebateForm(100, 30)
	f, _ = f.Update(press("ctrl+p"))
	view := ansi.Strip(f.View())
	for _, want := range []string{"Commands", "next field", "start", "back"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q is not in the palette:\n%s", want, view)
		}
	}
	for _, r := range "next" {
		f, _ = f.Update(press(string(r)))
	}
	if f.topic.Value() != "" {
		t.Fatalf("the keys typed into the palette reached the topic: %q", f.topic.Value())
	}
	focus := f.focus
	f, cmd := f.Update(press("enter"))
	key, ok := cmd().(tea.KeyPressMsg)
	if !ok || key.String() != "tab" {
		t.Fatalf("enter sent %v, want tab", cmd())
	}
	f, _ = f.Update(key)
	if f.focus == focus {
		t.Error("tab from the palette did not move to the next field")
	}

	r, _ := newTestRoomForm(t, 100, 30)
	r, _ = r.Update(press("ctrl+p"))
	if view := ansi.Strip(r.View()); !strings.Contains(view, "Commands") || !strings.Contains(view, "create") {
		t.Errorf("the room form's palette:\n%s", view)
	}
	r, cmd = r.Update(press("esc"))
	if cmd != nil || strings.Contains(ansi.Strip(r.View()), "Commands") {
		t.Error("esc did not just close the room form's palette")
	}
}
