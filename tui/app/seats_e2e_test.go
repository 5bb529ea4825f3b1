//go:build unix

package app

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// groupGone waits until no process is left in process group pgid.
func groupGone(pgid int, timeout time.Duration) bool {
	for deadline := time.Now().Add(timeout); ; time.Sleep(20 * time.Millisecond) {
		if errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// TestE2EPlayedSeats drives the real binary in tmux: the new-MCP-room
// form fills both seats with a model (the mock provider, from the
// environment), so creating the room starts two `roundtable seat`
// processes; the watch screen says roundtable holds each seat, shows the
// peer's draft while it writes and its message once posted. Quitting the
// app stops both processes, says so, and leaves nothing in their process
// groups.
func TestE2EPlayedSeats(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 50, Dir: t.TempDir(), Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("Welcome to roundtable", 15*time.Second)
	s.SendKeys("m")
	s.WaitFor("New MCP room", 10*time.Second)
	s.SendKeys("-l", "played")
	s.SendKeys("Tab")
	s.SendKeys("-l", "Should the cache be write-through?")
	// Budget, seats, spec, then the lead's mind: a model; its provider,
	// model and persona, then the peer's mind: a model.
	s.SendKeys("Tab", "Tab", "Tab", "Tab", "Right")
	s.WaitFor("◂ a model ▸", 10*time.Second)
	s.SendKeys("Tab", "Tab", "Tab", "Tab", "Right")
	s.WaitUntil("both seats a model, with the mock", func(sc string) bool {
		return strings.Count(sc, "◂ a model ▸") == 2 && strings.Count(sc, "◂ mock ▸") == 2
	}, 10*time.Second)
	s.SendKeys("C-s")
	screen, pids := bothSeatsStarted(s)
	if len(pids) != 2 || !strings.Contains(screen, "Lead seat (roundtable · model mock)") || !strings.Contains(screen, "Peer seat (roundtable · model mock)") {
		t.Fatalf("pids %v; the page:\n%s", pids, screen)
	}
	for _, pid := range pids {
		if groupGone(pid, 0) {
			t.Fatalf("seat process group %d is not running", pid)
		}
	}

	s.SendKeys("Enter")
	s.WaitUntil("who holds each seat", func(sc string) bool {
		return strings.Contains(sc, "lead  roundtable · model mock") && strings.Contains(sc, "peer  roundtable · model mock")
	}, 20*time.Second)
	s.WaitFor("peer is writing…", 30*time.Second)
	s.WaitUntil("the peer's message", func(sc string) bool {
		return regexp.MustCompile(`(?m)^peer roundtable:mock`).MatchString(sc)
	}, 30*time.Second)

	s.SendKeys("C-c")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
	screen = s.CaptureHistory()
	flatScreen := flat(screen)
	for _, pid := range pids {
		if !groupGone(pid, 3*time.Second) {
			t.Errorf("process group %d still has processes after the app quit", pid)
		}
		if !strings.Contains(flatScreen, "pid "+strconv.Itoa(pid)+")") {
			t.Errorf("the app did not say it stopped pid %d:\n%s", pid, screen)
		}
	}
	if !strings.Contains(flatScreen, "Stopped the seats roundtable played: the lead of room played (model mock, pid") {
		t.Errorf("the app did not say it stopped the seats:\n%s", screen)
	}
}

// bothSeatsStarted waits for the new-room page to say roundtable plays
// both seats and returns the page and the two seat processes' pids.
func bothSeatsStarted(s *tmuxtest.Session) (string, []int) {
	screen := s.WaitUntil("both seats started", func(sc string) bool {
		return strings.Count(sc, "roundtable plays it (pid ") == 2
	}, 15*time.Second)
	var pids []int
	for _, m := range regexp.MustCompile(`roundtable plays it \(pid (\d+)\)`).FindAllStringSubmatch(screen, -1) {
		pid, _ := strconv.Atoi(m[1])
		pids = append(pids, pid)
	}
	return screen, pids
}
