package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EBudgetFromTheForm: in a real 80×24 terminal, the new-debate form
// refuses a cost cap on the mock (which reports no cost) in its own words
// and starts nothing; a token cap typed instead stops the mock debate
// after the turn that spends it, the screen says so, and the room closes
// complete naming the budget, with fewer turns than the debate has.
func TestE2EBudgetFromTheForm(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 80, Height: 24, Dir: cwd, Env: e2eEnv(t)},
		bin, "tui", "--fast", "--rounds", "3")
	s.WaitFor("Welcome to roundtable", 15*time.Second)
	s.SendKeys("n")
	s.WaitFor("New persona debate", 15*time.Second)
	s.SendKeys("-l", "Should we adopt GraphQL?")
	// Rounds, personas, provider, pause, protocol (the mock's model is no
	// field): the sixth tab is the cost cap.
	for range 6 {
		s.SendKeys("Tab")
	}
	s.WaitUntil("the Budget row focused", func(sc string) bool { return strings.Contains(sc, "▸ Budget") }, 10*time.Second)
	s.SendKeys("-l", "0.5")
	s.SendKeys("C-s")
	want := `A cost cap needs a cost to count, and the mock provider reports none; add a [prices."MODEL"] table to a personas file (see roundtable debate --help) or use the token cap instead.`
	screen := s.WaitUntil("the cost cap refused", func(sc string) bool { return strings.Contains(flat(sc), want) }, 10*time.Second)
	if strings.Contains(screen, "--max") || strings.Contains(screen, "Starting the debate") {
		t.Errorf("the refusal names a flag or the debate starts anyway:\n%s", screen)
	}
	if rooms := roomDirs(t, cwd); len(rooms) > 0 {
		t.Fatalf("a refused cost cap left rooms: %v", rooms)
	}
	// Empty the cost cap and cap the tokens instead: the mock's first two
	// turns spend more than 500.
	s.SendKeys("BSpace", "BSpace", "BSpace", "Tab")
	s.SendKeys("-l", "500")
	s.WaitUntil("the token cap typed", func(sc string) bool { return strings.Contains(sc, "tokens 500") && !strings.Contains(sc, "A cost cap") }, 10*time.Second)
	s.SendKeys("C-s")
	screen = s.WaitUntil("the budget stop", func(sc string) bool {
		return strings.Contains(flat(sc), "stopped early because the token budget of 500 was reached")
	}, 30*time.Second)
	if !strings.Contains(screen, "✓ verdict in") || !strings.Contains(screen, "Moderator's verdict") {
		t.Errorf("the budget stop has no verdict:\n%s", screen)
	}
	s.SendKeys("q") // back to the home screen
	s.WaitFor("m MCP room", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}

	rooms := roomDirs(t, cwd)
	if len(rooms) != 1 {
		t.Fatalf("rooms %v, want the debate's", rooms)
	}
	r, err := room.Open(cwd, rooms[0])
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, "complete: the token budget of 500 was reached") || !debate.IsComplete(st.Closed.Reason) {
		t.Fatalf("the room closed %+v, want complete at the token budget", st.Closed)
	}
	turns, verdicts := 0, 0
	for _, m := range st.Messages {
		if m.Seat == room.SeatModerator {
			verdicts++
		} else {
			turns++
		}
	}
	// Three personas and three rounds would be nine turns.
	if turns == 0 || turns >= 9 || verdicts != 1 {
		t.Errorf("%d turns and %d verdicts saved, want fewer than 9 turns and the verdict", turns, verdicts)
	}
}

// roomDirs names the room folders under cwd's .roundtable.
func roomDirs(t *testing.T, cwd string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(cwd, room.Folder))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
