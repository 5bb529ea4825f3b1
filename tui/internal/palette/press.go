package palette

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// named are the keys a key map names, as Bubble Tea writes them.
var named = map[string]rune{
	"enter": tea.KeyEnter, "tab": tea.KeyTab, "backspace": tea.KeyBackspace, "esc": tea.KeyEscape,
	"space": tea.KeySpace, "up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"insert": tea.KeyInsert, "delete": tea.KeyDelete,
	"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f6": tea.KeyF6,
	"f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10, "f11": tea.KeyF11, "f12": tea.KeyF12,
}

// modifiers in the order Bubble Tea writes them.
var modifiers = []struct {
	prefix string
	mod    tea.KeyMod
}{{"ctrl+", tea.ModCtrl}, {"alt+", tea.ModAlt}, {"shift+", tea.ModShift}}

// Press is the key press a key map's key name stands for ("ctrl+s",
// "shift+tab", "pgdown", "G", "?"), such that key.Matches finds it: its
// String() is the name.
func Press(name string) tea.KeyPressMsg {
	rest := name
	var mod tea.KeyMod
	for _, m := range modifiers {
		if r, ok := strings.CutPrefix(rest, m.prefix); ok && r != "" {
			mod |= m.mod
			rest = r
		}
	}
	if code, ok := named[rest]; ok {
		k := tea.KeyPressMsg{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return k
	}
	runes := []rune(rest)
	if len(runes) != 1 {
		return tea.KeyPressMsg{Code: tea.KeyExtended, Text: name}
	}
	r := runes[0]
	if mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	if r >= 'A' && r <= 'Z' {
		return tea.KeyPressMsg{Code: r + 'a' - 'A', ShiftedCode: r, Mod: tea.ModShift, Text: rest}
	}
	return tea.KeyPressMsg{Code: r, Text: rest}
}
