package forms

import (
	"slices"
	"strings"
	"testing"
)

// TestDebateFormAgentPicker: on the persona list, a cycles the persona's
// coding agent through the presets and back to none; the line says which,
// and the debate started carries it.
func TestDebateFormAgentPicker(t *testing.T) {
	f := newTestDebateForm(120, 40)
	for _, k := range append(typeText(nil, "Split the store"), "tab", "tab", "down", "a", "a") {
		f, _ = f.Update(press(k))
	}
	if !strings.Contains(plain(f.View()), "acp:codex · a software architect") {
		t.Fatalf("the persona line does not name its agent:\n%s", plain(f.View()))
	}
	_, cmd := f.Update(press("ctrl+s"))
	start, ok := cmd().(StartMsg)
	if !ok {
		t.Fatalf("no start: %q", f.err)
	}
	var agents [][]string
	for _, p := range start.Settings.Config.Personas {
		agents = append(agents, p.Agent)
	}
	if !slices.Equal(agents[1], []string{"acp:codex"}) || agents[0] != nil {
		t.Fatalf("agents in the settings: %q", agents)
	}
	// Around the cycle: the three other presets, then none.
	for range 4 {
		f, _ = f.Update(press("a"))
	}
	if got := f.personas[1].Agent; got != nil {
		t.Fatalf("after a full cycle: %q", got)
	}
}
