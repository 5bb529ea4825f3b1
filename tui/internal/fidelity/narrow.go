package fidelity

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Narrow checks a screen drawn w cells wide, as on a narrow terminal: no
// line is wider than w; each of names is shown whole or cut with "…" (a
// line never ends at the right edge with the start of a name); and the key
// hints, the last line with text, hold hint (q's hint).
func Narrow(t testing.TB, view string, w int, hint string, names ...string) {
	t.Helper()
	lines := strings.Split(ansi.Strip(view), "\n")
	last := ""
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d cells wide, over %d: %q", i, lw, w, l)
		}
		text := strings.TrimRight(l, " ")
		if text == "" {
			continue
		}
		last = text
		if ansi.StringWidth(text) < w {
			continue
		}
		for _, n := range names {
			for k := len(n) - 1; k >= 2; k-- {
				if strings.HasSuffix(text, n[:k]) && !strings.HasSuffix(text, n) {
					t.Errorf("line %d cuts %q at the edge without …: %q", i, n, l)
					break
				}
			}
		}
	}
	view = ansi.Strip(view)
	for _, n := range names {
		if strings.Contains(view, n) {
			continue
		}
		cut := false
		for k := len(n) - 1; k >= 1 && !cut; k-- {
			cut = strings.Contains(view, n[:k]+"…")
		}
		if !cut {
			t.Errorf("%q is neither shown whole nor cut with …", n)
		}
	}
	if !strings.Contains(last, hint) {
		t.Errorf("the key hints %q lost %q", strings.TrimSpace(last), hint)
	}
}
