package theme

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/roundtable-dev/roundtable/room/transcript"
)

func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// TestSeatColorMatchesTranscript checks that a seat has the colour of the
// HTML transcript on both backgrounds.
func TestSeatColorMatchesTranscript(t *testing.T) {
	agents := []string{"skeptic", "optimist", "pragmatist"}
	for _, seat := range []string{"lead", "peer", "moderator", "skeptic", "optimist", "pragmatist", "stranger"} {
		light, dark := transcript.SeatColor(seat, agents)
		if got := hex(SeatColor(seat, agents, false)); got != strings.ToLower(light) {
			t.Errorf("%s on light: %s, transcript %s", seat, got, light)
		}
		if got := hex(SeatColor(seat, agents, true)); got != strings.ToLower(dark) {
			t.Errorf("%s on dark: %s, transcript %s", seat, got, dark)
		}
	}
}

func TestSeatsDiffer(t *testing.T) {
	s := DefaultStyles(true)
	agents := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	seen := map[string]string{}
	for _, seat := range append([]string{"moderator"}, agents...) {
		c := hex(s.Seat(seat, agents).Color)
		// Personas take eight colours of their own; none may repeat, nor
		// take the moderator's.
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s share colour %s", seat, other, c)
		}
		seen[c] = seat
	}
	if hex(s.Seat("lead", nil).Color) == hex(s.Seat("peer", nil).Color) {
		t.Error("lead and peer share a colour")
	}
}

func TestSeatStyles(t *testing.T) {
	s := DefaultStyles(false)
	seat := s.Seat("lead", nil)
	if hex(seat.Name.GetForeground()) != hex(seat.Color) || !seat.Name.GetBold() {
		t.Error("Name is not bold in the seat's colour")
	}
	if hex(seat.Border.GetBorderTopForeground()) != hex(seat.Color) {
		t.Error("Border is not in the seat's colour")
	}
	if seat.Border.GetBorderStyle() != lipgloss.RoundedBorder() {
		t.Error("Border is not rounded")
	}
}

func TestDefaultStylesFollowBackground(t *testing.T) {
	dark, light := DefaultStyles(true), DefaultStyles(false)
	if !dark.Dark || light.Dark {
		t.Fatal("Dark field wrong")
	}
	if hex(dark.Text.GetForeground()) == hex(light.Text.GetForeground()) {
		t.Error("text colour does not change with the background")
	}
	if hex(dark.ClosedBanner.GetBackground()) == hex(light.ClosedBanner.GetBackground()) {
		t.Error("banner colour does not change with the background")
	}
	if dark.Title.Render("x") == "x" {
		t.Error("Title renders no style")
	}
}
