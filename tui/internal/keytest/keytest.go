// Package keytest builds key presses by name for the TUI packages' Update
// tests, as key.Matches sees them, and checks a screen's key bar.
package keytest

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

var named = map[string]tea.KeyPressMsg{
	"tab":       {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"backspace": {Code: tea.KeyBackspace},
	"space":     {Code: tea.KeySpace, Text: " "},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"pgup":      {Code: tea.KeyPgUp},
	"pgdown":    {Code: tea.KeyPgDown},
	"home":      {Code: tea.KeyHome},
	"end":       {Code: tea.KeyEnd},
}

// Press is the key press called name: a named key ("enter", "shift+tab"),
// ctrl plus a letter ("ctrl+s"), or text typed ("q", "G", "/").
func Press(name string) tea.KeyPressMsg {
	if k, ok := named[name]; ok {
		return k
	}
	if l, ok := strings.CutPrefix(name, "ctrl+"); ok && len(l) == 1 {
		return tea.KeyPressMsg{Code: rune(l[0]), Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	if r >= 'A' && r <= 'Z' {
		return tea.KeyPressMsg{Code: r + 'a' - 'A', ShiftedCode: r, Mod: tea.ModShift, Text: name}
	}
	return tea.KeyPressMsg{Code: r, Text: name}
}

// KeyBar checks that the last line of view (a screen's key bar, styled or
// not) shows each of want ("key desc"): the keys a screen must show at
// every size.
func KeyBar(tb testing.TB, view string, want ...string) {
	tb.Helper()
	lines := strings.Split(strings.TrimRight(ansi.Strip(view), "\n"), "\n")
	last := lines[len(lines)-1]
	for _, w := range want {
		if !strings.Contains(last, w) {
			tb.Errorf("the key bar %q lacks %q", last, w)
		}
	}
}
