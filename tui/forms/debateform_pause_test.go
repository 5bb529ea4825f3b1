package forms

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// TestDebateFormPause: the "pause between rounds" option is off by
// default, space switches it on, the debate it starts pauses, and
// --pause-between-rounds fills it in.
func TestDebateFormPause(t *testing.T) {
	f := newTestDebateForm(120, 40)
	if !strings.Contains(plain(f.View()), "[ ] pause between rounds") {
		t.Fatalf("the option is not shown off:\n%s", plain(f.View()))
	}
	for _, k := range append(typeText(nil, "Adopt GraphQL"), "tab", "tab", "tab", "tab", "space") {
		f, _ = f.Update(press(k))
	}
	if f.focus != fieldPause || !f.pause {
		t.Fatalf("focus %d pause %v", f.focus, f.pause)
	}
	view := plain(f.View())
	if !strings.Contains(view, "[x] pause between rounds") || !strings.Contains(view, "pause on/off") {
		t.Fatalf("the option is not shown on, with its key:\n%s", view)
	}
	f, cmd := f.Update(press("ctrl+s"))
	if !cmd().(StartMsg).Settings.Config.PauseBetweenRounds {
		t.Fatal("the debate started does not pause between rounds")
	}

	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	g := NewDebateForm(DebateOptions{Panel: panel, Settings: debate.Settings{Getenv: noEnv, Config: debate.Config{PauseBetweenRounds: true}}})
	g, _ = g.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	if !strings.Contains(plain(g.View()), "[x] pause between rounds") {
		t.Fatalf("the flag does not fill the option in:\n%s", plain(g.View()))
	}
}
