package app

import (
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EQBack drives the real binary in tmux through every screen and
// checks that q means one thing: back to the previous screen, and quit
// from the home screen. In a form's text field q is a letter (esc goes
// back there).
func TestE2EQBack(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 36, Dir: t.TempDir(), Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("Welcome to roundtable", 15*time.Second)

	// The new MCP room form: q types into the name field.
	s.SendKeys("m")
	s.WaitFor("New MCP room", 10*time.Second)
	s.SendKeys("-l", "q-room")
	s.WaitFor("q-room", 10*time.Second)
	s.SendKeys("Tab")
	s.SendKeys("-l", "Pick a cache")
	s.SendKeys("C-s")
	s.WaitFor("MCP room q-room is ready", 10*time.Second)
	screen := s.WaitFor("q/esc home", 10*time.Second)
	if !strings.Contains(screen, "claude mcp add roundtable-q-room-lead") {
		t.Errorf("the commands page lacks the lead's command:\n%s", screen)
	}
	// The commands page has no text field: q goes home.
	s.SendKeys("q")
	s.WaitFor("1 room in", 10*time.Second)

	// The watch screen: q goes home.
	s.SendKeys("Enter")
	s.WaitFor("Pick a cache", 10*time.Second)
	screen = s.WaitFor("q back", 10*time.Second)
	if !strings.Contains(screen, "room q-room") {
		t.Errorf("enter did not open the room in the watch screen:\n%s", screen)
	}
	s.SendKeys("q")
	s.WaitFor("1 room in", 10*time.Second)

	// The new debate form: esc goes back (q would type).
	s.SendKeys("n")
	s.WaitFor("New persona debate", 10*time.Second)
	s.SendKeys("Escape")
	s.WaitFor("1 room in", 10*time.Second)

	// Home: q quits.
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d after q on the home screen", code)
	}
}
