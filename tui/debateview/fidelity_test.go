package debateview

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/fidelity"
)

// TestDebateKeepsEveryCharacter plays a turn and a verdict of random
// Markdown-ish text (fidelity.Doc) on screens 20 to 200 columns wide: no
// line of the screen is wider than the terminal, and every character that
// Markdown does not consume is on screen in order, the turn inside its
// column's frame and the verdict inside its panel.
func TestDebateKeepsEveryCharacter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 2026))
	for n := range fidelity.Cases(60) {
		turnText, verdictText := fidelity.Doc(rng), fidelity.Doc(rng)
		w := 20 + rng.IntN(181)
		// A screen tall enough to show the turn and the verdict whole:
		// short first, taller when a pane does not show everything.
		for h := 100; ; h *= 4 {
			err := playFidelity(t, w, h, turnText, verdictText)
			if errors.Is(err, errPaneScrolls) && h < 6400 {
				continue
			}
			if err != nil {
				t.Fatalf("case %d, width %d: %v", n, w, err)
			}
			break
		}
	}
}

// errPaneScrolls: a pane does not show all of its text.
var errPaneScrolls = errors.New("the pane does not show everything")

// playFidelity plays one turn and a verdict on a w×h screen and checks
// both panes.
func playFidelity(t *testing.T, w, h int, turnText, verdictText string) error {
	s := newSynth(t, w, h)
	s.events(debate.Event{Type: debate.EventSessionStart, Topic: "fidelity", Agents: panel, Rounds: 1, Provider: "mock"},
		debate.Event{Type: debate.EventRoundStart, Round: 1})
	s.speak(1, panel[0], turnText)
	s.settle()
	check := func(what, text string, pane int) error {
		screen := s.view()
		fail := func(err error) error {
			if errors.Is(err, errPaneScrolls) {
				return err
			}
			return fmt.Errorf("%s: %w\ntext: %q\nscreen:\n%s", what, err, text, screen)
		}
		if err := screenFits(screen, w); err != nil {
			return fail(err)
		}
		if scrolls(&s.m, pane) {
			return errPaneScrolls
		}
		inside, err := paneText(s.m.lay, screen, pane, len(s.m.cols), w)
		if err != nil {
			return fail(err)
		}
		if err := fidelity.Check(text, inside); err != nil {
			return fail(err)
		}
		return nil
	}
	if err := check("turn", turnText, 0); err != nil {
		return err
	}
	s.events(debate.Event{Type: debate.EventRoundEnd, Round: 1},
		debate.Event{Type: debate.EventSummary, Text: verdictText})
	s.settle()
	return check("verdict", verdictText, len(s.m.cols))
}

// scrolls reports whether pane (a column, or the verdict) has more lines
// than its frame shows.
func scrolls(m *Model, pane int) bool {
	rows := m.lay.colRows - 2
	if pane == len(m.cols) {
		if m.lay.panelRows > 0 {
			rows = m.lay.panelRows - 2
		}
		return m.verdict.scroll.top > 0 || len(m.verdict.lines) > rows
	}
	c := m.cols[pane]
	return c.scroll.top > 0 || c.total > rows
}

// screenFits reports a line of screen wider than w.
func screenFits(screen string, w int) error {
	for i, l := range strings.Split(screen, "\n") {
		if lw := ansi.StringWidth(l); lw > w {
			return fmt.Errorf("line %d is %d wide", i, lw)
		}
	}
	return nil
}

// paneText is what screen shows inside the frame of pane (a column, or the
// verdict when pane is the number of columns), as laid out in lay.
func paneText(lay layout, screen string, pane, cols, w int) (string, error) {
	lines := strings.Split(screen, "\n")
	top, rows, x0, x1 := -1, 0, 0, 0
	for i, p := range lay.panes {
		if p == pane {
			top, rows = lay.colTop, lay.colRows
			x0, x1 = lay.xs[i], lay.xs[i]+lay.widths[i]
		}
	}
	if top < 0 && pane == cols && lay.panelRows > 0 {
		top, rows, x0, x1 = lay.panelTop, lay.panelRows, 0, w
	}
	if top < 0 {
		return "", fmt.Errorf("pane %d is not on screen (panes %v)", pane, lay.panes)
	}
	if top+rows > len(lines) {
		return "", fmt.Errorf("pane %d runs past the screen", pane)
	}
	var b strings.Builder
	for _, l := range lines[top+1 : top+rows-1] {
		b.WriteString(ansi.Cut(l, x0+2, x1-2))
		b.WriteByte('\n')
	}
	return b.String(), nil
}
