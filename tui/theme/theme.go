// Package theme is the look of every roundtable screen: one Styles value,
// built once for a light or a dark background, and the seat and persona
// palette, which is the HTML transcript's (transcript.SeatColor), so that a
// seat has the same colour on screen and in an exported page.
//
// Build Styles once (DefaultStyles) and a Seat once per seat or persona
// (Styles.Seat); View functions only use them, they never create styles.
package theme

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/roundtable-dev/roundtable/room/transcript"
)

// Styles is the look of the screens. Every field is ready to Render.
type Styles struct {
	// Dark reports which background the styles were built for.
	Dark bool

	// Title is the topic at the top of a screen.
	Title lipgloss.Style
	// Text is plain body text; Muted is secondary text (labels, times);
	// Faint is the least important text (separators, hints).
	Text  lipgloss.Style
	Muted lipgloss.Style
	Faint lipgloss.Style
	// Strong is body text in bold.
	Strong lipgloss.Style
	// Rule draws horizontal separators and round dividers.
	Rule lipgloss.Style

	// BudgetUsed and BudgetLeft draw the two parts of a budget bar;
	// BudgetSpent replaces BudgetUsed when every round is used.
	BudgetUsed  lipgloss.Style
	BudgetLeft  lipgloss.Style
	BudgetSpent lipgloss.Style

	// Warning, Error and Success colour one-line notes.
	Warning lipgloss.Style
	Error   lipgloss.Style
	Success lipgloss.Style

	// ClosedBanner is the full-width banner of a room that has ended.
	ClosedBanner lipgloss.Style
	// ErrorBanner is the full-width line of an error that stops the
	// screen from reading its room.
	ErrorBanner lipgloss.Style
	// WarnBanner is the full-width banner of a room that needs the user:
	// open, but with no seat left to carry it on.
	WarnBanner lipgloss.Style
	// StatusBar is the status line; StatusError is the status line showing
	// a failure; StatusKey highlights a key named in it.
	StatusBar   lipgloss.Style
	StatusError lipgloss.Style
	StatusKey   lipgloss.Style

	// Spinner colours a spinner's frames.
	Spinner lipgloss.Style

	// Help is the look of the bubbles help view.
	Help help.Styles
}

// Chrome colours, as light/dark pairs.
var (
	textColor    = pair{"#1f2328", "#e6edf3"}
	mutedColor   = pair{"#57606a", "#9da7b3"}
	faintColor   = pair{"#8c959f", "#6e7681"}
	ruleColor    = pair{"#d0d7de", "#3d444d"}
	titleColor   = pair{"#0550ae", "#79c0ff"}
	warnColor    = pair{"#9a6700", "#d29922"}
	errorColor   = pair{"#cf222e", "#ff7b72"}
	successColor = pair{"#1a7f37", "#3fb950"}
	bannerFg     = pair{"#ffffff", "#0d1117"}
	bannerBg     = pair{"#57606a", "#9da7b3"}
	errBannerBg  = pair{"#cf222e", "#ff7b72"}
	budgetUsed   = pair{"#0969da", "#58a6ff"}
	budgetLeft   = pair{"#d0d7de", "#30363d"}
	statusBg     = pair{"#f6f8fa", "#161b22"}
)

// pair is a colour for a light and one for a dark background.
type pair struct{ light, dark string }

func (p pair) pick(dark bool) color.Color {
	if dark {
		return lipgloss.Color(p.dark)
	}
	return lipgloss.Color(p.light)
}

// DefaultStyles builds the styles for a dark (isDark) or light background.
func DefaultStyles(isDark bool) Styles {
	c := func(p pair) color.Color { return p.pick(isDark) }
	base := lipgloss.NewStyle()
	s := Styles{
		Dark:   isDark,
		Title:  base.Foreground(c(titleColor)).Bold(true),
		Text:   base.Foreground(c(textColor)),
		Muted:  base.Foreground(c(mutedColor)),
		Faint:  base.Foreground(c(faintColor)),
		Strong: base.Foreground(c(textColor)).Bold(true),
		Rule:   base.Foreground(c(ruleColor)),

		BudgetUsed:  base.Foreground(c(budgetUsed)),
		BudgetLeft:  base.Foreground(c(budgetLeft)),
		BudgetSpent: base.Foreground(c(warnColor)),

		Warning: base.Foreground(c(warnColor)),
		Error:   base.Foreground(c(errorColor)).Bold(true),
		Success: base.Foreground(c(successColor)),

		ClosedBanner: base.Foreground(c(bannerFg)).Background(c(bannerBg)).Bold(true),
		ErrorBanner:  base.Foreground(c(bannerFg)).Background(c(errBannerBg)).Bold(true),
		WarnBanner:   base.Foreground(c(bannerFg)).Background(c(warnColor)).Bold(true),
		StatusBar:    base.Foreground(c(mutedColor)).Background(c(statusBg)),
		StatusError:  base.Foreground(c(errorColor)).Background(c(statusBg)).Bold(true),
		StatusKey:    base.Foreground(c(titleColor)).Background(c(statusBg)).Bold(true),

		Spinner: base.Foreground(c(titleColor)),
		Help:    help.DefaultStyles(isDark),
	}
	return s
}

// Seat is the look of one seat or persona, in its palette colour.
type Seat struct {
	// Color is the seat's colour on this background.
	Color color.Color
	// Name renders the seat's name: bold, in its colour.
	Name lipgloss.Style
	// Bar renders the bar at the left of the seat's messages.
	Bar lipgloss.Style
	// Border is a rounded border in the seat's colour, for panels (the
	// moderator's verdict, a lit column).
	Border lipgloss.Style
	// Dot renders the seat's marker in lists ("●").
	Dot lipgloss.Style
}

// Seat builds the look of a seat or persona. agents is room.json's persona
// list (empty for MCP rooms). It allocates styles: call it once per seat,
// not in View.
func (s Styles) Seat(seat string, agents []string) Seat {
	col := SeatColor(seat, agents, s.Dark)
	base := lipgloss.NewStyle()
	return Seat{
		Color:  col,
		Name:   base.Foreground(col).Bold(true),
		Bar:    base.Foreground(col),
		Border: base.Border(lipgloss.RoundedBorder()).BorderForeground(col),
		Dot:    base.Foreground(col),
	}
}

// SeatColor is the colour of a seat or persona on a dark or light
// background: the lead, the peer and the moderator have fixed colours, a
// persona the colour of its index in agents, any other name a stable colour
// of its own. These are the HTML transcript's colours.
func SeatColor(seat string, agents []string, isDark bool) color.Color {
	light, dark := transcript.SeatColor(seat, agents)
	if isDark {
		return lipgloss.Color(dark)
	}
	return lipgloss.Color(light)
}
