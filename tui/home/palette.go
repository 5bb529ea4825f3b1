package home

import (
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/tui/internal/palette"
)

// paletteKey gives a key press to the command palette first (ctrl+p opens
// it; open, it takes every key but ctrl+c).
func (m *Model) paletteKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.pal == nil {
		m.pal = &palette.Model{}
	}
	if m.rename != nil || m.confirm != nil {
		return nil, false // the rename prompt and the delete question take every key
	}
	return m.pal.HandleKey(msg, m.keys.Palette, m.keys, m.styles.Dark)
}

// overlay draws the palette, when open, over the screen's view.
func (m Model) overlay(view string) string {
	if m.pal == nil {
		return view
	}
	return m.pal.Overlay(view, max(m.width, 20), m.height)
}
