package watch

import (
	"charm.land/bubbles/v2/key"

	"github.com/roundtable-dev/roundtable/tui/internal/keys"
)

// KeyMap is every key of the watch screen. The screen enables and relabels
// bindings as its state changes (no spec before the room closes, no export
// before the room exists), so the help shows only what works now.
type KeyMap struct {
	Up           key.Binding
	Down         key.Binding
	PageUp       key.Binding
	PageDown     key.Binding
	HalfPageUp   key.Binding
	HalfPageDown key.Binding
	Top          key.Binding
	Bottom       key.Binding
	Follow       key.Binding
	// Columns switches a council between its seats' columns and the one
	// feed (columns.go); off in a room of two seats.
	Columns    key.Binding
	Spec       key.Binding
	Back       key.Binding
	ExportMD   key.Binding
	ExportHTML key.Binding
	Copy       key.Binding
	Note       key.Binding // a steering note to both seats (note.go)
	Verdict    key.Binding // the moderator's verdict on the room (verdict.go)
	Help       key.Binding
	Quit       key.Binding
	// Search opens the find prompt; NextMatch and PrevMatch move between
	// its matches (search.go). Palette lists every key (ctrl+p).
	Search    key.Binding
	NextMatch key.Binding
	PrevMatch key.Binding
	Palette   key.Binding
	// ForceQuit (ctrl+c, not in the help) leaves whatever is shown.
	ForceQuit key.Binding

	// Take, WriteSpec and CloseRoom are a person's seat (take.go).
	Take      key.Binding
	WriteSpec key.Binding
	CloseRoom key.Binding
}

// DefaultKeyMap is the watch screen's keys. e, E and y are the debate
// screen's export keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:           keys.Up("up"),
		Down:         keys.Down("down"),
		PageUp:       keys.PageUp(),
		PageDown:     keys.PageDown(),
		HalfPageUp:   key.NewBinding(key.WithKeys("ctrl+u", "u"), key.WithHelp("u", "½ page up")),
		HalfPageDown: key.NewBinding(key.WithKeys("ctrl+d", "d"), key.WithHelp("d", "½ page down")),
		Top:          keys.Top("top"),
		Bottom:       keys.Bottom("bottom"),
		Follow:       key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "follow")),
		Columns:      key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "one feed"), key.WithDisabled()),
		Spec:         key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "spec")),
		Back:         key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		ExportMD:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export md")),
		ExportHTML:   key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "export html")),
		Copy:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		Note:         key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "note to seats")),
		Verdict:      key.NewBinding(key.WithKeys("V"), key.WithHelp("V", "verdict")),
		Help:         keys.Help(),
		Quit:         keys.Quit(),
		ForceQuit:    key.NewBinding(key.WithKeys("ctrl+c")),
		Search:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		NextMatch:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		PrevMatch:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		Palette:      keys.Palette(),
		Take:         key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "take a seat")),
		WriteSpec:    key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "write the spec")),
		CloseRoom:    key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "close the room")),
	}
}

// ShortHelp is the one-line help under the screen.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Note, k.Take, k.WriteSpec, k.CloseRoom, k.Follow, k.Columns, k.Spec, k.Back, k.ExportMD, k.ExportHTML, k.Copy, k.Search, k.Help, k.Quit}
}

// MainHelp are the hints a narrow screen keeps with ? and q: steer,
// take or play a seat, and the lead's spec and close.
func (k KeyMap) MainHelp() []key.Binding {
	return []key.Binding{k.Note, k.Take, k.WriteSpec, k.CloseRoom}
}

// FullHelp is the help shown with ?.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown},
		{k.Top, k.Bottom, k.Follow, k.Columns},
		{k.Spec, k.Back, k.ExportMD, k.ExportHTML, k.Copy, k.Note},
		{k.Search, k.NextMatch, k.PrevMatch, k.Palette},
		{k.Take, k.WriteSpec, k.CloseRoom, k.Verdict},
		{k.Help, k.Quit},
	}
}
