package forms

import "charm.land/bubbles/v2/key"

// KeyMap is every key of the forms. The forms enable the keys that work
// for the focused field, so the help shows only those.
type KeyMap struct {
	Next   key.Binding
	Prev   key.Binding
	Up     key.Binding
	Down   key.Binding
	Less   key.Binding
	More   key.Binding
	Toggle key.Binding
	Agent  key.Binding // the debate form: which coding agent speaks for a persona
	Submit key.Binding
	Press  key.Binding
	Back   key.Binding
	// The room form's last page; a council's copies its mcpServers JSON
	// and the focused seat's prompt with keys of their own, its digits
	// being its seats'.
	CopyAll    key.Binding
	CopyOne    key.Binding
	CopyJSON   key.Binding
	CopyPrompt key.Binding
	Watch      key.Binding
	Quit       key.Binding
	// Palette lists every key (ctrl+p, palette.go).
	Palette key.Binding
	// Always on, not in the help: enter moves on from a one-line field,
	// ↑ and ↓ move between fields where they have nothing else to do,
	// backspace erases a typed digit, the page keys scroll the commands.
	Enter    key.Binding
	FieldUp  key.Binding
	FieldDn  key.Binding
	Erase    key.Binding
	PageUp   key.Binding
	PageDown key.Binding
}

// DefaultKeyMap is the forms' keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		Prev:       key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")),
		Up:         key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "up")),
		Down:       key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "down")),
		Less:       key.NewBinding(key.WithKeys("left", "-"), key.WithHelp("←/→", "change")),
		More:       key.NewBinding(key.WithKeys("right", "+", "="), key.WithHelp("→", "more")),
		Toggle:     key.NewBinding(key.WithKeys("space", "x"), key.WithHelp("space", "switch on/off")),
		Agent:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "agent (acp:…)")),
		Submit:     key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "start")),
		Press:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "start")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		CopyAll:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy all")),
		CopyOne:    key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1-5", "copy")),
		CopyJSON:   key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "copy mcpServers JSON")),
		CopyPrompt: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "copy its prompt")),
		Watch:      key.NewBinding(key.WithKeys("enter", "w"), key.WithHelp("enter", "watch")),
		Quit:       key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Palette:    key.NewBinding(key.WithKeys("ctrl+p"), key.WithHelp("ctrl+p", "commands")),

		Enter:    key.NewBinding(key.WithKeys("enter")),
		FieldUp:  key.NewBinding(key.WithKeys("up")),
		FieldDn:  key.NewBinding(key.WithKeys("down")),
		Erase:    key.NewBinding(key.WithKeys("backspace")),
		PageUp:   key.NewBinding(key.WithKeys("pgup")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space")),
	}
}

// ShortHelp is the one-line help under a form.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Press, k.CopyAll, k.CopyOne, k.Watch, k.Back, k.Next, k.Toggle, k.Agent, k.Less, k.Up, k.Prev, k.Quit, k.Palette}
}

// MainHelp are the hints a narrow screen keeps with q: start or create,
// and on the commands page copy and watch.
func (k KeyMap) MainHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Press, k.CopyAll, k.Watch, k.Back}
}

// FullHelp is every key, grouped.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Next, k.Prev, k.Up, k.Down},
		{k.Less, k.More, k.Toggle, k.Agent},
		{k.Submit, k.Press, k.Back, k.Quit},
		{k.CopyAll, k.CopyOne, k.CopyPrompt, k.CopyJSON, k.Watch, k.Palette},
	}
}

// only enables the given bindings and disables the rest.
func (k *KeyMap) only(on ...*key.Binding) {
	all := []*key.Binding{&k.Next, &k.Prev, &k.Up, &k.Down, &k.Less, &k.More, &k.Toggle, &k.Agent, &k.Submit, &k.Press, &k.Back, &k.CopyAll, &k.CopyOne, &k.CopyJSON, &k.CopyPrompt, &k.Watch}
	for _, b := range all {
		b.SetEnabled(false)
	}
	for _, b := range on {
		b.SetEnabled(true)
	}
}
