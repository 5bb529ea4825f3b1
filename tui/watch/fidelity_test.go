package watch

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/fidelity"
)

// TestWatchKeepsEveryCharacter opens rooms holding random Markdown-ish
// messages (fidelity.Doc) at widths from 20 to 200: no line of the screen
// is wider than the terminal, and every character of the message, and of
// the moderator's verdict, that Markdown does not consume is on screen in
// order, in the message's own lines.
func TestWatchKeepsEveryCharacter(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2026))
	const height = 1500 // tall enough to show both whole
	for n := range fidelity.Cases(60) {
		msg, verdict := fidelity.Doc(rng), fidelity.Doc(rng)
		w := 20 + rng.IntN(181)
		cwd := t.TempDir()
		writeRoom(t, cwd, "prop", room.Config{Room: "prop", Topic: "fidelity", Budget: 4, CreatedAt: at(0)}, []fileMsg{
			{1, at(1), room.SeatLead, "opus", "brief", msg, 0},
			{2, at(2), room.SeatModerator, "mod", room.KindSummary, verdict, 0},
		}, nil)
		m := openModel(t, cwd, "prop", w, height)
		screen := plain(m)
		fail := func(what, text string, err error) {
			t.Helper()
			t.Fatalf("case %d, width %d, %s: %v\ntext: %q\nscreen:\n%s", n, w, what, err, text, screen)
		}
		lines := strings.Split(screen, "\n")
		for i, l := range lines {
			if lw := xansi.StringWidth(l); lw > w {
				fail("line width", msg, fmt.Errorf("line %d is %d wide", i, lw))
			}
		}
		body, err := messageBody(lines, "#1 ·")
		if err != nil {
			fail("message", msg, err)
		}
		if err := fidelity.Check(msg, body); err != nil {
			fail("message", msg, err)
		}
		panel, err := verdictBody(lines, w)
		if err != nil {
			fail("verdict", verdict, err)
		}
		if err := fidelity.Check(verdict, panel); err != nil {
			fail("verdict", verdict, err)
		}
	}
}

// messageBody is the text of the message whose header line holds stamp:
// the lines after it up to the blank line that ends it, without the seat's
// bar.
func messageBody(lines []string, stamp string) (string, error) {
	start := -1
	for i, l := range lines {
		if strings.Contains(l, stamp) {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return "", fmt.Errorf("no message header with %q", stamp)
	}
	var b strings.Builder
	for _, l := range lines[start:] {
		if strings.TrimSpace(l) == "" {
			return b.String(), nil
		}
		if !strings.HasPrefix(l, "│") {
			return "", fmt.Errorf("message line without the seat's bar: %q", l)
		}
		b.WriteString(xansi.Cut(l, 2, xansi.StringWidth(l)))
		b.WriteByte('\n')
	}
	return "", fmt.Errorf("the message runs off the screen")
}

// verdictBody is the text inside the verdict's panel, without its frame.
func verdictBody(lines []string, w int) (string, error) {
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "╭─ Moderator") {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return "", fmt.Errorf("no verdict panel")
	}
	var b strings.Builder
	for _, l := range lines[start:] {
		if strings.HasPrefix(l, "╰") {
			return b.String(), nil
		}
		if !strings.HasPrefix(l, "│ ") || xansi.StringWidth(l) != w {
			return "", fmt.Errorf("verdict line outside its frame: %q", l)
		}
		b.WriteString(xansi.Cut(l, 2, w-2))
		b.WriteByte('\n')
	}
	return "", fmt.Errorf("the verdict runs off the screen")
}

// TestSpecShowsHTMLAsText: the spec view (s) renders through the same
// Markdown renderer, so the generics and tags of a spec are on screen.
func TestSpecShowsHTMLAsText(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	spec := "# Retry policy\n\nMake `Store<T>` and Store<T> generic; the <Button onClick={retry}/> component retries.\n\n<script>alert('spec')</script>\n\nAT&amp;T keeps &lt;its&gt; entities.\n"
	writeFile(t, filepath.Join(cwd, "SPEC-retry-policy.md"), []byte(spec))
	m := openModel(t, cwd, name, 100, 40)
	m, cmd := press(m, "s")
	m, _ = m.Update(cmd())
	view := plain(m)
	for _, want := range []string{"Store<T>", "and Store<T> generic;", "<Button onClick={retry}/> component", "<script>alert('spec')</script>", "AT&amp;T keeps &lt;its&gt; entities."} {
		if !strings.Contains(view, want) {
			t.Errorf("%q missing from the spec view:\n%s", want, view)
		}
	}
}
