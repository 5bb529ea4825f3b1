package watch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestSearchEndToEnd drives the real binary in tmux on a room of 60
// messages, three of them saying "needle": / and typing find and count
// them, the match is scrolled into view and marked, n and N move between
// them, esc clears; then ctrl+p opens the palette, typing filters it and
// enter runs the action chosen (an export).
func TestSearchEndToEnd(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "hay", room.CreateOptions{Topic: "A haystack", Budget: 100})
	if err != nil {
		t.Fatal(err)
	}
	needles := map[int]string{8: "Message 8 hides a Needle here.", 31: "Message 31: another needle.", 52: "Message 52, the last needle."}
	for i := 1; i <= 60; i++ {
		seat := room.SeatLead
		if i%2 == 0 {
			seat = room.SeatPeer
		}
		text, ok := needles[i]
		if !ok {
			text = fmt.Sprintf("Message %d: hay and more hay.\n\nA second paragraph of straw.", i)
		}
		if _, err := r.Record(room.Post{Seat: seat, Agent: "agent-" + seat, Kind: "answer", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 30, Dir: out}, bin, "watch", "--room", "hay", "--cwd", cwd)
	s.WaitFor("#60 ·", e2eTimeout)
	s.SendKeys("g") // from the top
	s.WaitFor("#1 ·", e2eTimeout)

	s.SendKeys("/")
	s.WaitFor("/█ · type to search", e2eTimeout)
	s.SendKeys("-l", "needle")
	screen := s.WaitFor("/needle█ · 1/3 matches", e2eTimeout)
	if !strings.Contains(screen, needles[8]) {
		t.Errorf("the first match is not in view:\n%s", screen)
	}
	// Marked, in the current match's look.
	if ansi := s.CaptureANSI(); !strings.Contains(ansi, "Needle") || !hasBackground(ansi, "Needle") {
		t.Errorf("the match is not marked:\n%q", ansi)
	}
	s.SendKeys("Enter")
	s.WaitFor("1/3 matches · n next · N previous", e2eTimeout)
	s.SendKeys("n")
	screen = s.WaitFor("2/3 matches", e2eTimeout)
	if !strings.Contains(screen, needles[31]) || strings.Contains(screen, needles[8]) {
		t.Errorf("n did not scroll to message 31:\n%s", screen)
	}
	s.SendKeys("n")
	screen = s.WaitFor("3/3 matches", e2eTimeout)
	if !strings.Contains(screen, needles[52]) {
		t.Errorf("n did not scroll to message 52:\n%s", screen)
	}
	s.SendKeys("N", "N")
	screen = s.WaitFor("1/3 matches", e2eTimeout)
	if !strings.Contains(screen, needles[8]) {
		t.Errorf("N N did not go back to message 8:\n%s", screen)
	}
	s.SendKeys("Escape")
	s.WaitUntil("the search cleared", func(sc string) bool { return !strings.Contains(sc, "matches") }, e2eTimeout)
	if ansi := s.CaptureANSI(); hasBackground(ansi, "Needle") {
		t.Errorf("the mark stayed after esc")
	}

	// The palette: open, filter, run.
	s.SendKeys("C-p")
	screen = s.WaitFor("Commands", e2eTimeout)
	for _, want := range []string{"export md", "export html", "search", "follow"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the palette lacks %q:\n%s", want, screen)
		}
	}
	s.SendKeys("-l", "export md")
	s.WaitUntil("the palette filtered", func(sc string) bool {
		return strings.Contains(sc, "> export md") && strings.Contains(sc, "e  export md") && !strings.Contains(sc, "E  export html")
	}, e2eTimeout)
	s.SendKeys("Enter")
	s.WaitFor("Exported the transcript", e2eTimeout)
	if files, _ := filepath.Glob(filepath.Join(out, "*.md")); len(files) != 1 {
		entries, _ := os.ReadDir(out)
		t.Errorf("the palette's export wrote %v (folder: %v)", files, entries)
	}
	s.SendKeys("q")
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// hasBackground reports whether word is drawn with a background colour
// (SGR 48;…) set just before it on the captured screen.
func hasBackground(ansi, word string) bool {
	for _, l := range strings.Split(ansi, "\n") {
		i := strings.Index(l, word)
		if i < 0 {
			continue
		}
		before := l[:i]
		j := strings.LastIndex(before, "\x1b[")
		if j >= 0 && strings.Contains(before[j:], "48;") {
			return true
		}
	}
	return false
}
