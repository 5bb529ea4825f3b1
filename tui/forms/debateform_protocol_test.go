package forms

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// TestDebateFormProtocol: the protocol is an open debate by default; →
// goes through stances, peer ranking and both, ← back; the debate started
// follows the choice, shown with its keys; --stances and --rank fill it in.
func TestDebateFormProtocol(t *testing.T) {
	f := newTestDebateForm(120, 40)
	if !strings.Contains(plain(f.View()), "◂ open debate ▸") {
		t.Fatalf("the protocol is not shown as an open debate:\n%s", plain(f.View()))
	}
	f, _ = pressAll(f, append(typeText(nil, "Adopt GraphQL"), "tab", "tab", "tab", "tab", "tab")...)
	if f.focus != fieldProtocol {
		t.Fatalf("focus %d, want the protocol", f.focus)
	}
	for _, want := range []struct {
		key, name     string
		stances, rank bool
	}{
		{"right", "stances", true, false},
		{"right", "peer ranking", false, true},
		{"right", "stances + ranking", true, true},
		{"right", "open debate", false, false},
		{"left", "stances + ranking", true, true},
	} {
		f, _ = pressAll(f, want.key)
		view := plain(f.View())
		if !strings.Contains(view, "◂ "+want.name+" ▸") || !strings.Contains(view, "←/→ protocol") {
			t.Fatalf("after %s: not shown as %q with its keys:\n%s", want.key, want.name, view)
		}
		_, msg := pressAll(f, "ctrl+s")
		if c := msg.(StartMsg).Settings.Config; c.Stances != want.stances || c.Rank != want.rank {
			t.Errorf("%s: the debate starts with stances %v rank %v", want.name, c.Stances, c.Rank)
		}
	}

	panel, _ := debate.LoadPanel(debate.PanelOptions{})
	g := NewDebateForm(DebateOptions{Panel: panel, Settings: debate.Settings{Getenv: noEnv, Config: debate.Config{Rank: true}}})
	g, _ = g.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	if !strings.Contains(plain(g.View()), "◂ peer ranking ▸") {
		t.Fatalf("--rank does not fill the protocol in:\n%s", plain(g.View()))
	}
}
