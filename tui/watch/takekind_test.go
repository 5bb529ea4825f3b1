package watch

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// TestLeadComposerKinds: the lead's composer suggests the lead's kinds
// only (not the peer's /objection), and once a kind is typed its title
// names that kind instead of the default and the suggestions.
func TestLeadComposerKinds(t *testing.T) {
	cwd := bigRoom(t, 2)
	p, err := TakeSeat(cwd, "big", "lead")
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: "big", ExportDir: cwd, Dark: true, Location: time.UTC, Person: p})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m, _ = m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, "big", phaseOpening)())
	if !m.take.comp.IsOpen() {
		t.Fatal("the composer did not open on the lead's turn")
	}
	v := xansi.Strip(m.View())
	if strings.Contains(v, "/objection") {
		t.Fatalf("the lead's composer suggests the peer's /objection:\n%s", v)
	}
	if !strings.Contains(v, "kind brief (start with") {
		t.Fatalf("no default kind in the title:\n%s", v)
	}
	for _, r := range "/question What bounds the memory?" {
		m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	v = xansi.Strip(m.View())
	if !strings.Contains(v, "· kind question") || strings.Contains(v, "kind brief") || strings.Contains(v, "start with /") {
		t.Fatalf("after typing /question the title says:\n%s", v)
	}
}
