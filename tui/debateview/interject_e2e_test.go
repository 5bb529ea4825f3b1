package debateview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

func interjectEnv(t *testing.T) []string {
	return []string{"XDG_CONFIG_HOME=" + t.TempDir(), "ROUNDTABLE_PROVIDER=mock", "ROUNDTABLE_CWD="}
}

// TestE2EInterject drives the real binary in tmux at 200×50, as a person
// would: a mock debate set to pause between rounds stops after round 1 and
// says so; i opens the composer, the note typed is sent with enter and
// shows as a band in the columns; enter goes on and the next persona
// answers the note; after the last pause the verdict comes, and e exports
// a transcript with the note in it.
func TestE2EInterject(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 200, Height: 50, Dir: cwd, Env: interjectEnv(t)},
		bin, "tui", "--topic", "Should we adopt GraphQL for the public API", "--rounds", "2", "--fast", "--pause-between-rounds")
	s.WaitFor("Paused after round 1: enter to go on, i to speak.", 30*time.Second)

	s.SendKeys("i")
	s.WaitFor("Note to the panel", 10*time.Second)
	s.SendKeys("-l", "Mind the mobile clients")
	s.WaitFor("Mind the mobile clients", 10*time.Second)
	s.SendKeys("Enter")
	screen := s.WaitUntil("the note band in every column", func(sc string) bool {
		return strings.Count(sc, "✎ You · note to the panel · round 1") == 3
	}, 10*time.Second)
	if !strings.Contains(screen, "┃ Mind the mobile clients") {
		t.Fatalf("the band does not show the note:\n%s", screen)
	}
	if strings.Contains(screen, "enter send") {
		t.Fatalf("the composer stayed open after enter:\n%s", screen)
	}

	s.SendKeys("Enter") // go on
	s.WaitFor("To the user's note, “Mind the mobile clients”", 30*time.Second)
	s.WaitFor("Paused after round 2", 30*time.Second)
	s.SendKeys("Enter")
	s.WaitFor("✓ verdict in", 30*time.Second)

	s.SendKeys("e")
	screen = s.WaitFor("Exported the transcript", 10*time.Second)
	matches, err := filepath.Glob(filepath.Join(cwd, "*-transcript.md"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("exported files %v (%v); screen:\n%s", matches, err, screen)
	}
	data, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	for _, want := range []string{"- **Notes:** 1", "> **The user's note**", "> Mind the mobile clients", "To the user's note, “Mind the mobile clients”"} {
		if !strings.Contains(md, want) {
			t.Errorf("the export lacks %q:\n%s", want, md)
		}
	}
	if strings.Index(md, "> Mind the mobile clients") > strings.Index(md, "## Round 2") {
		t.Errorf("the note is not between round 1 and round 2 in the export:\n%s", md)
	}
	s.SendKeys("q")
	s.WaitFor("1 room in", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestE2EInterjectWhileSpeaking: without pauses, a note typed while the
// first persona speaks joins before the next turn, which answers it.
func TestE2EInterjectWhileSpeaking(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 200, Height: 50, Dir: t.TempDir(), Env: interjectEnv(t)},
		bin, "tui", "--topic", "Should we adopt GraphQL for the public API", "--rounds", "1")
	s.WaitFor("Product Manager is speaking", 30*time.Second)
	s.SendKeys("i")
	s.WaitFor("Note to the panel", 10*time.Second)
	s.SendKeys("-l", "Think of the batch jobs")
	s.SendKeys("Enter")
	s.WaitFor("✎ You · note to the panel · round 1", 30*time.Second)
	s.WaitFor("To the user's note, “Think of the batch jobs”", 30*time.Second)
	s.WaitFor("✓ verdict in", 60*time.Second)
	s.SendKeys("q")
	s.WaitFor("1 room in", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}
