package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2ESearchReplay drives the real binary in tmux on a finished debate
// opened from the home screen (a replay): / finds "needle" in two
// personas' columns and the verdict, n and N move between them switching
// the focused column, esc clears; ctrl+p on the replay runs an export, and
// on the home screen starts a new debate.
func TestE2ESearchReplay(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	personas := []string{"Product Manager", "Software Architect", "Security Reviewer"}
	r, _, err := room.Create(cwd, "needles", room.CreateOptions{Topic: "Where is the needle", Mode: room.ModeDebate, Agents: personas, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 2; round++ {
		for _, p := range personas {
			text := fmt.Sprintf("%s in round %d: only hay here.", p, round)
			switch {
			case p == "Software Architect" && round == 1:
				text = "The architect found the needle in the schema."
			case p == "Security Reviewer" && round == 2:
				text = "The reviewer says the needle is a risk."
			}
			if _, err := r.Record(room.Post{Seat: p, Agent: "mock", Kind: debate.KindTurn, Text: text, Round: round}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := r.Record(room.Post{Seat: room.SeatModerator, Agent: "mock", Kind: room.KindSummary, Text: "Verdict: keep the needle.", Round: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: debate.ReasonComplete}); err != nil {
		t.Fatal(err)
	}

	const wait = 15 * time.Second
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 140, Height: 40, Dir: cwd, Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("1 room in", wait)
	s.SendKeys("Enter")
	s.WaitFor("replay · complete", wait)

	s.SendKeys("/")
	s.WaitFor("/█ · type to search", wait)
	s.SendKeys("-l", "needle")
	s.WaitFor("/needle█ · 3/3 matches", wait) // from the verdict, in focus on a replay
	s.SendKeys("Enter")
	s.WaitFor("3/3 matches · n next · N previous", wait)
	focused := func(name string) func(string) bool {
		return func(sc string) bool { return strings.Contains(sc, "› "+name) }
	}
	s.SendKeys("n") // wraps to the first: the architect's column
	screen := s.WaitUntil("1/3 with the Architect focused", func(sc string) bool {
		return strings.Contains(sc, "1/3 matches") && focused("Software Architect")(sc)
	}, wait)
	if !strings.Contains(screen, "found the needle") {
		t.Errorf("the match is not in view:\n%s", screen)
	}
	s.SendKeys("n")
	s.WaitUntil("2/3 with the Reviewer focused", func(sc string) bool {
		return strings.Contains(sc, "2/3 matches") && focused("Security Reviewer")(sc)
	}, wait)
	s.SendKeys("N")
	s.WaitUntil("1/3 with the Architect focused again", func(sc string) bool {
		return strings.Contains(sc, "1/3 matches") && focused("Software Architect")(sc)
	}, wait)
	s.SendKeys("Escape") // clears the search; the replay stays
	s.WaitUntil("the search cleared", func(sc string) bool {
		return !strings.Contains(sc, "matches") && strings.Contains(sc, "replay · complete")
	}, wait)

	// The palette on the replay: filter to the Markdown export and run it.
	s.SendKeys("C-p")
	s.WaitFor("Commands", wait)
	s.SendKeys("-l", "export .md")
	s.WaitUntil("the palette filtered", func(sc string) bool {
		return strings.Contains(sc, "> export .md") && !strings.Contains(sc, "E  export .html")
	}, wait)
	s.SendKeys("Enter")
	s.WaitFor("Exported the transcript", wait)

	// And on the home screen: n, a new debate, through the palette.
	s.SendKeys("q")
	s.WaitFor("1 room in", wait)
	s.SendKeys("C-p")
	s.WaitFor("Commands", wait)
	s.SendKeys("-l", "new deb")
	s.SendKeys("Enter")
	s.WaitFor("New persona debate", wait)
	s.SendKeys("C-c")
	if code := s.ExitStatus(wait); code != 0 {
		t.Errorf("exit status %d", code)
	}
}
