package debateview

import (
	"charm.land/bubbles/v2/key"

	"github.com/roundtable-dev/roundtable/tui/internal/keys"
)

// KeyMap is every key of the debate screen. The screen enables and relabels
// bindings as the debate moves (esc stops a running debate and goes back
// once it has ended; r runs a finished one again), so the help shows only
// what works now.
type KeyMap struct {
	NextPane   key.Binding
	PrevPane   key.Binding
	Up         key.Binding
	Down       key.Binding
	PageUp     key.Binding
	PageDown   key.Binding
	Top        key.Binding
	Bottom     key.Binding
	ExportMD   key.Binding
	ExportHTML key.Binding
	Copy       key.Binding
	Stop       key.Binding
	Again      key.Binding
	Retry      key.Binding
	Help       key.Binding
	Quit       key.Binding
	// Search opens the find prompt; NextMatch and PrevMatch move between
	// its matches (search.go). Palette lists every key (ctrl+p).
	Search    key.Binding
	NextMatch key.Binding
	PrevMatch key.Binding
	Palette   key.Binding
	// Interject (i) opens the composer for a note to the panel; GoOn
	// (enter) ends a pause between rounds (interject.go).
	Interject key.Binding
	GoOn      key.Binding
	// ForceQuit (ctrl+c, not in the help) leaves the program from any
	// screen, a running debate stopped and saved first.
	ForceQuit key.Binding
}

// DefaultKeyMap is the debate screen's keys.
func DefaultKeyMap() KeyMap {
	speak, goOn := noteKeys()
	return KeyMap{
		Interject:  speak,
		GoOn:       goOn,
		NextPane:   key.NewBinding(key.WithKeys("tab", "right", "l"), key.WithHelp("tab", "next column")),
		PrevPane:   key.NewBinding(key.WithKeys("shift+tab", "left", "h"), key.WithHelp("shift+tab", "previous column")),
		Up:         keys.Up("scroll up"),
		Down:       keys.Down("scroll down"),
		PageUp:     keys.PageUp(),
		PageDown:   keys.PageDown(),
		Top:        keys.Top("top"),
		Bottom:     keys.Bottom("bottom, follow"),
		ExportMD:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export .md")),
		ExportHTML: key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "export .html")),
		Copy:       key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
		Stop:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop")),
		Again:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "run again")),
		Retry:      key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "retry failed turn")),
		Help:       keys.Help(),
		Quit:       keys.Quit(),
		ForceQuit:  key.NewBinding(key.WithKeys("ctrl+c")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		NextMatch:  key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		PrevMatch:  key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		Palette:    keys.Palette(),
	}
}

// ShortHelp is the one-line help under the screen.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.GoOn, k.Interject, k.NextPane, k.Stop, k.Retry, k.Again, k.ExportMD, k.Copy, k.Search, k.Help, k.Quit}
}

// MainHelp are the hints a narrow screen keeps with ? and q: go on after
// a pause, speak to the panel, stop, go on after a failure.
func (k KeyMap) MainHelp() []key.Binding {
	return []key.Binding{k.GoOn, k.Interject, k.Stop, k.Retry}
}

// FullHelp is the help shown with ?.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.NextPane, k.PrevPane, k.Up, k.Down},
		{k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.ExportMD, k.ExportHTML, k.Copy},
		{k.Search, k.NextMatch, k.PrevMatch, k.Palette},
		{k.Stop, k.Again, k.Retry, k.Help, k.Quit},
		{k.Interject, k.GoOn},
	}
}
