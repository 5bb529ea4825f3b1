package watch_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestSearchNotesEndToEnd drives the real binary in tmux on a room of 40
// messages with a steering note after message 20: / finds a word that only
// the note holds, marked in its band; a word in two messages and the note
// is visited by n in the feed's order (message, note, message); a note
// another process adds while the search is kept is counted.
func TestSearchNotesEndToEnd(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "noted", room.CreateOptions{Topic: "Notes in the haystack", Budget: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 40; i++ {
		seat := room.SeatLead
		if i%2 == 0 {
			seat = room.SeatPeer
		}
		text := fmt.Sprintf("Message %d: hay and more hay.\n\nA second paragraph of straw.", i)
		switch i {
		case 8:
			text = "Message 8 hides a needle."
		case 31:
			text = "Message 31 hides a needle too."
		}
		if _, err := r.Record(room.Post{Seat: seat, Agent: "agent-" + seat, Kind: "answer", Text: text}); err != nil {
			t.Fatal(err)
		}
		if i == 20 {
			if _, err := r.AddNote(room.NoteFromHost, "Steer by the lighthouse, and drop the needle talk.", 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 30, Dir: t.TempDir()}, bin, "watch", "--room", "noted", "--cwd", cwd)
	s.WaitFor("#40 ·", e2eTimeout)
	s.SendKeys("g")
	s.WaitFor("#1 ·", e2eTimeout)

	s.SendKeys("/")
	s.WaitFor("/█ · type to search", e2eTimeout)
	s.SendKeys("-l", "lighthouse")
	screen := s.WaitFor("/lighthouse█ · 1/1 matches", e2eTimeout)
	if !strings.Contains(screen, "Steer by the lighthouse") {
		t.Errorf("the note's match is not in view:\n%s", screen)
	}
	if ansi := s.CaptureANSI(); !hasBackground(bandLine(ansi, "Steer by the"), "lighthouse") {
		t.Errorf("the match in the note is not marked:\n%q", ansi)
	}

	s.SendKeys("C-u")
	s.SendKeys("-l", "needle")
	screen = s.WaitFor("/needle█ · 1/3 matches", e2eTimeout)
	if !strings.Contains(screen, "Message 8 hides") {
		t.Errorf("the first match is not message 8:\n%s", screen)
	}
	s.SendKeys("Enter")
	s.WaitFor("1/3 matches · n next", e2eTimeout)
	s.SendKeys("n")
	screen = s.WaitFor("2/3 matches", e2eTimeout)
	if !strings.Contains(screen, "drop the needle talk") || strings.Contains(screen, "Message 8 hides") {
		t.Errorf("n did not go to the note after message 20:\n%s", screen)
	}
	s.SendKeys("n")
	screen = s.WaitFor("3/3 matches", e2eTimeout)
	if !strings.Contains(screen, "Message 31 hides") {
		t.Errorf("n did not go on to message 31:\n%s", screen)
	}

	if _, err := r.AddNote(room.NoteFromHost, "One more needle for the seats.", 0); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("3/4 matches", e2eTimeout)
	s.SendKeys("q")
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// bandLine is the screen's line holding text, "" when none does.
func bandLine(ansi, text string) string {
	for _, l := range strings.Split(ansi, "\n") {
		if strings.Contains(l, text) {
			return l
		}
	}
	return ""
}
