package forms

import (
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/theme"
)

// Styles is the look of the forms: the shared theme plus the fields'.
// Build it once (DefaultStyles); View only uses it.
type Styles struct {
	theme.Styles

	// Label names a field; FocusLabel the focused one.
	Label      lipgloss.Style
	FocusLabel lipgloss.Style
	// Hint is the grey text beside a field.
	Hint lipgloss.Style
	// Value is a field's value; Arrow the ◂ ▸ of a choice.
	Value lipgloss.Style
	Arrow lipgloss.Style
	// Check is a persona switched on; Uncheck one switched off.
	Check   lipgloss.Style
	Uncheck lipgloss.Style
	// Button and FocusButton draw the form's button.
	Button      lipgloss.Style
	FocusButton lipgloss.Style
	// Code is a command to paste; Number its key.
	Code   lipgloss.Style
	Number lipgloss.Style

	// Area and Input are the text fields.
	Area  textarea.Styles
	Input textinput.Styles
}

// DefaultStyles builds the styles for a dark (isDark) or light background.
func DefaultStyles(isDark bool) Styles {
	t := theme.DefaultStyles(isDark)
	area := textarea.DefaultStyles(isDark)
	area.Cursor.Blink = false
	area.Focused.CursorLine = area.Focused.Base
	in := textinput.DefaultStyles(isDark)
	in.Cursor.Blink = false
	return Styles{
		Styles:      t,
		Label:       t.Muted,
		FocusLabel:  t.Title,
		Hint:        t.Faint,
		Value:       t.Strong,
		Arrow:       t.Title,
		Check:       t.Success,
		Uncheck:     t.Faint,
		Button:      t.Muted.Padding(0, 2).Border(lipgloss.RoundedBorder()).BorderForeground(t.Rule.GetForeground()),
		FocusButton: t.Title.Padding(0, 2).Border(lipgloss.RoundedBorder()).BorderForeground(t.Title.GetForeground()),
		Code:        t.Text,
		Number:      t.Title,
		Area:        area,
		Input:       in,
	}
}

// A form's first line: the brand, a separator, then the form's title.
const brand, brandSep = "roundtable", " │ "

// titleLine is a form's first line with title, exactly w cells (cut
// with "…" when it does not fit).
func (s *Styles) titleLine(title string, w int) string {
	return cells.Pad(s.Strong.Render(brand)+s.Faint.Render(brandSep)+s.Title.Render(title), w)
}

// titleWidth is how many cells titleLine takes for title, uncut.
func titleWidth(title string) int { return ansi.StringWidth(brand + brandSep + title) }
