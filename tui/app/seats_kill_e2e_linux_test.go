package app

import (
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EPlayedSeatOutlivesNoKilledApp: the app is killed (SIGKILL, no
// chance to clean up) while a seat it started plays; the seat is told
// (Linux's parent-death signal) and its process group is gone soon after.
func TestE2EPlayedSeatOutlivesNoKilledApp(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 50, Dir: t.TempDir(), Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("Welcome to roundtable", 15*time.Second)
	s.SendKeys("m")
	s.WaitFor("New MCP room", 10*time.Second)
	s.SendKeys("-l", "killed")
	s.SendKeys("Tab")
	s.SendKeys("-l", "Should the cache be write-through?")
	// The peer's mind, from the end of the form: a model.
	s.SendKeys("BTab", "BTab", "BTab", "BTab", "Right")
	s.WaitFor("◂ a model ▸", 10*time.Second)
	s.SendKeys("C-s")
	screen := s.WaitFor("roundtable plays it (pid ", 15*time.Second)
	m := regexp.MustCompile(`roundtable plays it \(pid (\d+)\)`).FindStringSubmatch(screen)
	if m == nil || !strings.Contains(screen, "claude mcp add roundtable-killed-lead") {
		t.Fatalf("the page:\n%s", screen)
	}
	pid, _ := strconv.Atoi(m[1])
	if groupGone(pid, 0) {
		t.Fatalf("seat process group %d is not running", pid)
	}
	if err := syscall.Kill(s.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !groupGone(pid, 5*time.Second) {
		t.Errorf("the seat's process group %d outlived the killed app", pid)
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
