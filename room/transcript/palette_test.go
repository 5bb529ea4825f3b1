package transcript

import (
	"regexp"
	"testing"
)

func TestSeatColor(t *testing.T) {
	agents := []string{"Skeptic", "Optimist", "Pragmatist"}
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	seen := map[string]string{}
	for _, seat := range append([]string{"lead", "peer", "moderator"}, agents...) {
		light, dark := SeatColor(seat, agents)
		if !hex.MatchString(light) || !hex.MatchString(dark) {
			t.Fatalf("SeatColor(%q) = %q, %q: not #rrggbb", seat, light, dark)
		}
		if light == dark {
			t.Errorf("SeatColor(%q): the same color for light and dark backgrounds", seat)
		}
		if other, ok := seen[light]; ok {
			t.Errorf("%q and %q share the color %s", seat, other, light)
		}
		seen[light] = seat
	}
	if l, d := SeatColor("lead", nil); l != "#1d4ed8" || d != "#60a5fa" {
		t.Errorf("lead = %s, %s; the lead's color is fixed", l, d)
	}
	if l, _ := SeatColor("peer", []string{"x"}); l != "#b45309" {
		t.Errorf("peer = %s; the peer's color is fixed", l)
	}
	// Personas take their color from their index, so the TUI and the
	// transcript agree whatever order the turns came in.
	if a, _ := SeatColor("Optimist", agents); a != personaColors[1].light {
		t.Errorf("Optimist = %s, want the second persona color %s", a, personaColors[1].light)
	}
	many := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	if a, _ := SeatColor("i", many); a != personaColors[0].light {
		t.Errorf("the ninth persona = %s, want the palette to cycle", a)
	}
	// A name nobody listed still gets a stable color.
	a1, _ := SeatColor("stranger", nil)
	a2, _ := SeatColor("stranger", nil)
	if a1 != a2 || !hex.MatchString(a1) {
		t.Errorf("stranger = %s then %s", a1, a2)
	}
	for _, c := range personaColors {
		if c == moderatorColor {
			t.Errorf("the moderator's color is also a persona's")
		}
	}
}
