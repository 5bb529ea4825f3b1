package debateview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestStatusErrorKeepsTheCause: an error too long for the status bar
// wraps, up to three rows; longer still, it loses its middle (the path),
// not its end (the cause).
func TestStatusErrorKeepsTheCause(t *testing.T) {
	s := liveSynth(t, 80, 24)
	m := &s.m
	m.setError("Export failed: open /home/someone/exports/priced-20261201-120000-debate.md: permission denied")
	m.footer = nil
	lines := m.footerLines(80)
	if got := ansi.Strip(lines[0] + lines[1]); !strings.Contains(got, "Export failed") || !strings.Contains(got, "permission denied") {
		t.Fatalf("%q", got)
	}
	m.setError("Export failed: open " + strings.Repeat("/home/someone/exports", 12) + "/debate.md: permission denied")
	m.footer = nil
	lines = m.footerLines(80)
	if got := ansi.Strip(lines[0]); !strings.Contains(got, "Export failed") || !strings.Contains(got, "permission denied") {
		t.Fatalf("%q", got)
	}
}

// TestHeaderMoneyOneFormat: the header writes the cost as every other
// figure does (FormatDollars: "$1.24", not "$1.2400").
func TestHeaderMoneyOneFormat(t *testing.T) {
	s := liveSynth(t, 120, 40)
	m := &s.m
	m.usage.Cost = 1.24
	m.usage.PromptTokens = 370
	head := ansi.Strip(strings.Join(m.headerLines(120), "\n"))
	if !strings.Contains(head, "$1.24") || strings.Contains(head, "$1.2400") {
		t.Fatalf("header:\n%s", head)
	}
}
