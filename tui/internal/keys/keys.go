// Package keys holds the key bindings every screen shares: moving through
// a list or a page, help, the palette, quitting. Each screen's KeyMap
// builds these from here and adds its own, so the same key is written the
// same way in every help ("pgup/b", "G/end"), and a key changed here
// changes everywhere.
package keys

import "charm.land/bubbles/v2/key"

// Up moves up a line; desc says what moves ("up", "scroll up").
func Up(desc string) key.Binding {
	return key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", desc))
}

// Down moves down a line.
func Down(desc string) key.Binding {
	return key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", desc))
}

// PageUp moves up a page.
func PageUp() key.Binding {
	return key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up"))
}

// PageDown moves down a page.
func PageDown() key.Binding {
	return key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn/space", "page down"))
}

// Top goes to the first line or item.
func Top(desc string) key.Binding {
	return key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", desc))
}

// Bottom goes to the last line or item.
func Bottom(desc string) key.Binding {
	return key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", desc))
}

// Help shows or hides the full help.
func Help() key.Binding {
	return key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help"))
}

// Palette opens the command palette.
func Palette() key.Binding {
	return key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "commands"))
}

// Quit leaves the screen (q, and any more keys given).
func Quit(more ...string) key.Binding {
	return key.NewBinding(key.WithKeys(append([]string{"q"}, more...)...), key.WithHelp("q", "quit"))
}
