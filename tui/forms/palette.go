package forms

import (
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/tui/internal/palette"
)

// paletteKey gives a key press to the command palette first (ctrl+p opens
// it; open, it takes every key but ctrl+c). pal is made the first time.
func paletteKey(pal **palette.Model, msg tea.KeyPressMsg, k KeyMap, dark bool) (tea.Cmd, bool) {
	if *pal == nil {
		*pal = &palette.Model{}
	}
	return (*pal).HandleKey(msg, k.Palette, k, dark)
}

// overlay draws the palette, when open, over a form's view.
func overlay(pal *palette.Model, view string, w, h int) string {
	if pal == nil {
		return view
	}
	return pal.Overlay(view, w, h)
}
