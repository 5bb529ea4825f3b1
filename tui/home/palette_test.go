package home

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
)

// TestPalette: ctrl+p lists the home screen's actions over the list,
// typing filters them, enter runs the one chosen (n: a new debate).
func TestPalette(t *testing.T) {
	m := loaded(t, sampleRooms(t), 100, 30)
	m, _ = m.Update(press("ctrl+p"))
	view := ansi.Strip(m.View())
	for _, want := range []string{"Commands", "new debate", "MCP room", "open", "quit"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q is not in the palette:\n%s", want, view)
		}
	}
	if strings.Contains(view, "ctrl+p  commands") {
		t.Error("the palette lists itself")
	}
	for _, r := range "new deb" {
		m, _ = m.Update(press(string(r)))
	}
	if m.filtering {
		t.Fatal("the keys typed into the palette reached the list's filter")
	}
	m, cmd := m.Update(press("enter"))
	if m.pal.IsOpen() {
		t.Error("enter did not close the palette")
	}
	key, ok := msgOf(cmd).(tea.KeyPressMsg)
	if !ok || key.String() != "n" {
		t.Fatalf("enter sent %v, want the key n", msgOf(cmd))
	}
	_, cmd = m.Update(key)
	if _, ok := msgOf(cmd).(NewDebateMsg); !ok {
		t.Errorf("n from the palette gave %T, want NewDebateMsg", msgOf(cmd))
	}
	// esc closes it and does nothing else.
	m, _ = m.Update(press("ctrl+p"))
	m, cmd = m.Update(press("esc"))
	if m.pal.IsOpen() || cmd != nil || strings.Contains(ansi.Strip(m.View()), "Commands") {
		t.Error("esc did not just close the palette")
	}
}
