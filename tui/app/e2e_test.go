package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// e2eEnv keeps the user's persona file and provider settings out of the
// program under test.
func e2eEnv(t *testing.T) []string {
	return []string{"XDG_CONFIG_HOME=" + t.TempDir(), "ROUNDTABLE_PROVIDER=mock", "ROUNDTABLE_CWD="}
}

// TestE2EDebate drives the real binary in tmux at 160×48: a one-round
// debate started from the command line, its verdict, e, the exported file.
func TestE2EDebate(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 160, Height: 48, Dir: cwd, Env: e2eEnv(t)},
		bin, "tui", "--topic", "Should we adopt GraphQL for the public API", "--rounds", "1", "--fast")
	wants := []string{"✓ verdict in", "Product Manager", "Software Architect", "Security Reviewer", "Moderator's verdict", "Decision:", "Round 1 of 1"}
	// Wait for all of it: tmux may be read between the header and the body
	// of a frame being drawn.
	screen := s.WaitUntil("the verdict", func(sc string) bool {
		for _, w := range wants {
			if !strings.Contains(sc, w) {
				return false
			}
		}
		return true
	}, 30*time.Second)
	for _, want := range wants {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	if n := strings.Count(strings.Split(screen, "\n")[2], "╭─"); n != 3 {
		t.Errorf("%d columns side by side at 160 wide, want 3:\n%s", n, screen)
	}
	s.SendKeys("e")
	screen = s.WaitFor("Exported the transcript", 10*time.Second)
	matches, err := filepath.Glob(filepath.Join(cwd, "*-transcript.md"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("exported files %v (%v); screen:\n%s", matches, err, screen)
	}
	if !strings.Contains(screen, filepath.Base(matches[0])) {
		t.Errorf("the status line does not name %s:\n%s", matches[0], screen)
	}
	data, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "## Verdict") || !strings.Contains(string(data), "**Decision:**") {
		t.Errorf("the export has no verdict:\n%s", data)
	}
	s.SendKeys("q") // back to the home screen, where the debate is listed
	s.WaitFor("1 room in", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestE2ENarrow checks the tabbed layout at 80×24: one persona at a time,
// every persona in the tab strip, the verdict a tab of its own.
func TestE2ENarrow(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 80, Height: 24, Dir: t.TempDir(), Env: e2eEnv(t)},
		bin, "tui", "--topic", "Move to Kubernetes", "--rounds", "1")
	tabbed := func(screen string) bool {
		lines := strings.Split(screen, "\n")
		return len(lines) > 3 && strings.Contains(lines[2], "Product Manager") &&
			strings.Contains(lines[2], "Software Architect") && strings.Contains(lines[2], "Security Reviewer") &&
			strings.Count(screen, "╭─") == 1 && strings.Contains(screen, "is speaking")
	}
	s.WaitUntil("the tab strip while a persona speaks", tabbed, 20*time.Second)
	screen := s.WaitFor("✓ verdict in", 60*time.Second)
	if tabs := strings.Split(screen, "\n")[2]; !strings.Contains(tabs, "Verdict") {
		t.Errorf("no verdict tab: %q", tabs)
	}
	if !strings.Contains(screen, "╭─ Moderator's verdict") {
		t.Errorf("the verdict is not shown once in:\n%s", screen)
	}
	for _, l := range strings.Split(strings.TrimRight(screen, "\n"), "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("a line is %d wide: %q", w, l)
		}
	}
	s.SendKeys("Tab")
	s.WaitFor("╭─ Product Manager", 15*time.Second)
	s.SendKeys("q")
	s.WaitFor("1 room in", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestE2EHome is a new user's first run: the welcome, n, a topic, the
// debate, back home where it is listed.
func TestE2EHome(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 160, Height: 48, Dir: t.TempDir(), Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("Welcome to roundtable", 15*time.Second)
	s.SendKeys("n")
	s.WaitFor("New persona debate", 15*time.Second)
	s.SendKeys("-l", "Should we split the monolith?")
	// Three rounds (the form's default): a debate long enough that esc,
	// however late a loaded machine delivers it, finds it still running.
	s.SendKeys("C-s")
	s.WaitFor("is speaking", 15*time.Second)
	s.SendKeys("Escape")
	s.WaitFor("Stop the debate? y/n", 15*time.Second)
	s.SendKeys("y")
	s.WaitFor("■ stopped", 10*time.Second)
	s.SendKeys("Escape")
	screen := s.WaitFor("1 room in", 10*time.Second)
	if !strings.Contains(screen, "stopped") || !strings.Contains(screen, "should-we-split-the-monolith") {
		t.Errorf("the stopped debate is not listed:\n%s", screen)
	}
	s.SendKeys("Enter")
	s.WaitFor("replay · cancelled", 10*time.Second)
	s.SendKeys("q") // q is "back" on the replay, as esc is
	s.WaitFor("1 room in", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}
