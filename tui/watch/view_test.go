package watch

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// referenceNow is the clock for the reference rooms, written at
// 2026-11-30 14:51 UTC.
var referenceNow = time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)

var viewRooms = []struct {
	name  string
	build func(testing.TB) (string, string)
	now   time.Time
}{
	{"closed-mcp", closedMCPRoom, fixedAt},
	{"open-mcp", openMCPRoom, fixedAt},
	{"debate", debateRoom, fixedAt},
	{"corrupt", corruptRoom, fixedAt},
	{"reference-cache-design", referenceRoom("cache-design"), referenceNow},
	{"reference-open-room", referenceRoom("open-room"), referenceNow},
}

// TestView compares the screen with golden files (refresh with -update).
func TestView(t *testing.T) {
	for _, size := range []struct{ w, h int }{{60, 30}, {80, 30}, {120, 40}} {
		for _, rc := range viewRooms {
			t.Run(fmt.Sprintf("%s-%d", rc.name, size.w), func(t *testing.T) {
				cwd, name := rc.build(t)
				m := openModelAt(t, cwd, name, size.w, size.h, rc.now)
				view := m.View()
				checkFrame(t, view, size.w, size.h)
				golden.RequireEqual(t, view)
			})
		}
	}
}

// checkFrame checks that a view fills the screen exactly and that every
// escape sequence in it is a colour.
func checkFrame(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Errorf("view has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := width(l); n > w {
			t.Errorf("line %d is %d columns wide, over %d: %q", i, n, w, stripANSI(l))
		}
	}
	if err := onlyColours(view); err != nil {
		t.Error(err)
	}
}

// TestSmallScreens: at 60×20 and 80×24, an open room's and a council's
// screens fit, and the key bar shows the main keys: steer the seats,
// help, quit.
func TestSmallScreens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{60, 20}, {80, 24}} {
		rooms := []struct {
			name  string
			build func(t testing.TB) (string, string)
		}{{"open-mcp", openMCPRoom}, {"council", councilRoom}}
		for _, rc := range rooms {
			t.Run(fmt.Sprintf("%s-%dx%d", rc.name, size.w, size.h), func(t *testing.T) {
				cwd, name := rc.build(t)
				m := openModelAt(t, cwd, name, size.w, size.h, fixedAt)
				view := m.View()
				checkFrame(t, view, size.w, size.h)
				keytest.KeyBar(t, view, "i note to seats", "? help", "q ")
				golden.RequireEqual(t, view)
			})
		}
	}
}
