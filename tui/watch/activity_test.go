package watch

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// TestActivityLine: a debate turn spoken by a coding agent shows what it
// did as one dim line under its header, cut to the screen; a message
// without activity shows none.
func TestActivityLine(t *testing.T) {
	cwd := t.TempDir()
	cfg := room.Config{Room: "acts", Topic: "Acts", Mode: room.ModeDebate, Rounds: 1, Agents: []string{"Architect", "Reviewer"}}
	msgs := []fileMsg{
		{1, at(0), "Architect", "acp:codex", "", "Split the store.", 1},
		{2, at(30), "Reviewer", "mock", "", "No tools were used here.", 1},
	}
	// The first turn was spoken by a coding agent: its file carries the
	// activity field, as the debate recorder writes it.
	acted := `{"seq": 1, "at": "` + at(0) + `", "seat": "Architect", "agent": "acp:codex", "kind": "", "text": "Split the store.", "round": 1,
  "activity": [{"kind": "tool", "text": "reading room/store.go"}, {"kind": "tool", "text": "searching \"seat\"\u001b[31m"}, {"kind": "refused", "text": "refused: edit main.go"}]}`
	writeRoom(t, cwd, "acts", cfg, msgs[1:], map[string]string{"messages/" + messageName(1, at(0), 9): acted})
	m := openModel(t, cwd, "acts", 100, 30)
	view := plain(m)
	want := `3 steps: reading room/store.go · searching "seat"␛[31m · refused: edit main.go`
	if !strings.Contains(view, want) {
		t.Errorf("no activity line %q:\n%s", want, view)
	}
	if strings.Count(view, "steps:") != 1 || strings.Contains(view, "1 step") {
		t.Errorf("an activity line where there is none:\n%s", view)
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 40, Height: 30})
	for _, line := range strings.Split(m.View(), "\n") {
		if width(line) > 40 {
			t.Errorf("line wider than the screen: %q", line)
		}
	}
	if view := plain(m); !strings.Contains(view, "3 steps: reading") || !strings.Contains(view, "…") {
		t.Errorf("the activity line is not cut to 40 columns:\n%s", view)
	}
}
