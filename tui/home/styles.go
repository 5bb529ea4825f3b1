package home

import (
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/roundtable-dev/roundtable/tui/theme"
)

// Styles is the look of the home screen: the shared theme plus the list's
// own styles. Build it once (DefaultStyles); View only uses it.
type Styles struct {
	theme.Styles

	// Heading is the row naming the list's columns.
	Heading lipgloss.Style
	// Cursor marks the selected row; Selected is its text.
	Cursor   lipgloss.Style
	Selected lipgloss.Style
	// Open, Done, Stopped and Failed colour a room's status.
	Open    lipgloss.Style
	Done    lipgloss.Style
	Stopped lipgloss.Style
	Failed  lipgloss.Style
	// Welcome frames the empty state; Key is a key named in it.
	Welcome lipgloss.Style
	Key     lipgloss.Style
	// Input is the filter field.
	Input textinput.Styles
}

// DefaultStyles builds the styles for a dark (isDark) or light background.
func DefaultStyles(isDark bool) Styles {
	t := theme.DefaultStyles(isDark)
	in := textinput.DefaultStyles(isDark)
	in.Cursor.Blink = false
	return Styles{
		Styles:   t,
		Heading:  t.Faint.Bold(true),
		Cursor:   t.Title,
		Selected: t.Strong,
		Open:     t.Success,
		Done:     t.Muted,
		Stopped:  t.Warning,
		Failed:   t.Error,
		Welcome:  t.Rule.Border(lipgloss.RoundedBorder()).BorderForeground(t.Rule.GetForeground()).Padding(1, 2),
		Key:      t.Title,
		Input:    in,
	}
}
