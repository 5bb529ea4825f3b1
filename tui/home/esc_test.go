package home

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestEscClosesHelp: esc closes the help ? opened, and does nothing else
// (the filter typed before stays).
func TestEscClosesHelp(t *testing.T) {
	m := loaded(t, sampleRooms(t), 100, 30)
	m, _ = m.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
	if !m.showHelp {
		t.Fatal("? did not open the help")
	}
	m, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	if m.showHelp {
		t.Fatal("esc left the help open")
	}
	if msg := msgOf(cmd); msg != nil {
		t.Fatalf("esc also sent %#v", msg)
	}
}

// TestNarrowHintsKeepMainKeys: at 60 columns the hint line keeps the
// screen's main keys (open, n, m) with ? help and q; at 80, ctrl+p too.
func TestNarrowHintsKeepMainKeys(t *testing.T) {
	m := loaded(t, sampleRooms(t), 60, 20)
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	last := lines[len(lines)-1]
	for _, want := range []string{"enter open", "n new debate", "m MCP room", "? help", "q quit"} {
		if !strings.Contains(last, want) {
			t.Errorf("the hint line %q lacks %q", last, want)
		}
	}
	m = loaded(t, sampleRooms(t), 80, 24)
	lines = strings.Split(ansi.Strip(m.View()), "\n")
	last = lines[len(lines)-1]
	for _, want := range []string{"enter open", "n new debate", "m MCP room", "? help", "ctrl+p", "q quit"} {
		if !strings.Contains(last, want) {
			t.Errorf("the hint line %q lacks %q", last, want)
		}
	}
}

// TestLongErrorKeepsItsCause: an error longer than the status line wraps
// onto a second row, so its cause (at the end) stays visible.
func TestLongErrorKeepsItsCause(t *testing.T) {
	m := loaded(t, sampleRooms(t), 80, 24)
	m.SetStatus("Cannot rename the room: rename /home/someone/projects/service/.roundtable/move-to-kubernetes to new-name: permission denied")
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "permission denied") {
		t.Fatalf("the cause is cut off:\n%s", v)
	}
	if n := len(strings.Split(v, "\n")); n != 24 {
		t.Fatalf("the view is %d rows, want 24", n)
	}
}
