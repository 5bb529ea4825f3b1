package debateview

import (
	"charm.land/lipgloss/v2"

	"github.com/roundtable-dev/roundtable/tui/theme"
)

// Styles is the look of the debate screen: the shared theme plus the few
// styles only this screen draws. Build it once (DefaultStyles); View only
// uses it.
type Styles struct {
	theme.Styles

	// IdleBorder draws the frame of a column that is neither speaking nor
	// focused; FocusBorder the frame of the focused one. A speaking
	// column's frame takes its persona's colour (theme.Seat.Bar).
	IdleBorder  lipgloss.Style
	FocusBorder lipgloss.Style
	// TabActive and TabIdle are the tabs of the narrow layout.
	TabActive lipgloss.Style
	TabIdle   lipgloss.Style
	// Note is a short remark inside a column ("incomplete", "waiting").
	Note lipgloss.Style
	// HeaderKey is a label in the header ("round", "tokens").
	HeaderKey lipgloss.Style
}

// DefaultStyles builds the styles for a dark (isDark) or light background.
func DefaultStyles(isDark bool) Styles {
	t := theme.DefaultStyles(isDark)
	return Styles{
		Styles:      t,
		IdleBorder:  t.Rule,
		FocusBorder: t.Muted,
		TabActive:   t.Strong.Underline(true),
		TabIdle:     t.Muted,
		Note:        t.Faint.Italic(true),
		HeaderKey:   t.Faint,
	}
}
