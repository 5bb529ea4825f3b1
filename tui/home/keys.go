package home

import (
	"charm.land/bubbles/v2/key"

	"github.com/roundtable-dev/roundtable/tui/internal/keys"
)

// KeyMap is every key of the home screen.
type KeyMap struct {
	Up        key.Binding
	Down      key.Binding
	PageUp    key.Binding
	PageDown  key.Binding
	Top       key.Binding
	Bottom    key.Binding
	Open      key.Binding
	NewDebate key.Binding
	NewRoom   key.Binding
	// Delete asks to delete the room under the cursor; Confirm and Cancel
	// answer.
	Delete key.Binding
	// Rename asks for a new name for the room under the cursor; Undo
	// restores the room deleted last in this session.
	Rename      key.Binding
	Undo        key.Binding
	Confirm     key.Binding
	Cancel      key.Binding
	Filter      key.Binding
	ClearFilter key.Binding
	Accept      key.Binding
	Help        key.Binding
	Quit        key.Binding
	// Palette lists every key (ctrl+p, palette.go).
	Palette key.Binding
	// Always on, not in the help: the arrows move while typing a filter,
	// ctrl+c quits even then.
	ArrowUp   key.Binding
	ArrowDown key.Binding
	ForceQuit key.Binding
}

// DefaultKeyMap is the home screen's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:          keys.Up("up"),
		Down:        keys.Down("down"),
		PageUp:      keys.PageUp(),
		PageDown:    keys.PageDown(),
		Top:         keys.Top("first"),
		Bottom:      keys.Bottom("last"),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		NewDebate:   key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new debate")),
		NewRoom:     key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "MCP room")),
		Delete:      key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "delete")),
		Rename:      key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "rename")),
		Undo:        key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "undo delete")),
		Confirm:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "delete")),
		Cancel:      key.NewBinding(key.WithKeys("n", "esc", "q"), key.WithHelp("n/esc", "keep")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/ or type", "filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Accept:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Help:        keys.Help(),
		Quit:        keys.Quit("ctrl+c"),
		ArrowUp:     key.NewBinding(key.WithKeys("up")),
		ArrowDown:   key.NewBinding(key.WithKeys("down")),
		ForceQuit:   key.NewBinding(key.WithKeys("ctrl+c")),
		Palette:     keys.Palette(),
	}
}

// ShortHelp is the one-line help under the screen.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.NewDebate, k.NewRoom, k.Filter, k.ClearFilter, k.Accept, k.Help, k.Palette, k.Quit, k.Delete, k.Undo}
}

// MainHelp are the hints a narrow screen keeps with ? and q: open a
// room, start a debate or an MCP room.
func (k KeyMap) MainHelp() []key.Binding { return []key.Binding{k.Open, k.NewDebate, k.NewRoom} }

// FullHelp is the help shown with ?.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Open, k.NewDebate, k.NewRoom, k.Delete, k.Rename, k.Undo},
		{k.Filter, k.ClearFilter, k.Accept},
		{k.Help, k.Palette, k.Quit},
	}
}
