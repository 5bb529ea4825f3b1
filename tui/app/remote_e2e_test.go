//go:build unix

package app

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

var (
	hostServing  = regexp.MustCompile(`serving live at (http://\S+)/mcp`)
	hostObserver = regexp.MustCompile(`^    token\s+(rt_\S+)$`)
)

// startHostOf runs `roundtable host --room name` over cwd on a free port
// and returns the address to watch and the observer token it printed.
func startHostOf(t *testing.T, bin, cwd, name string) (url, token string) {
	t.Helper()
	cmd := exec.Command(bin, "host", "--room", name, "--cwd", cwd, "--listen", "127.0.0.1:0")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var mu sync.Mutex
	var printed strings.Builder
	found := make(chan [2]string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		tok := ""
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			printed.WriteString(line + "\n")
			mu.Unlock()
			if m := hostObserver.FindStringSubmatch(line); m != nil {
				tok = m[1]
			}
			if m := hostServing.FindStringSubmatch(line); m != nil {
				found <- [2]string{m[1], tok}
			}
		}
	}()
	select {
	case f := <-found:
		if f[1] == "" {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("the host printed no observer token:\n%s", printed.String())
		}
		return f[0], f[1]
	case <-time.After(20 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("the host did not say it serves room %s:\n%s", name, printed.String())
	}
	return "", ""
}

// shownOfTurn counts the runs of three words of agent's turn in progress
// that screen shows; 0 when agent no longer speaks.
func shownOfTurn(p *inProgress, agent, screen string) int {
	now, triples := p.triples()
	if now != agent {
		return 0
	}
	n := 0
	for _, tri := range triples {
		if strings.Contains(screen, tri) {
			n++
		}
	}
	return n
}

// TestE2EWatchRemoteDebate: a debate run headless on one machine, served
// by `roundtable host`, watched with `roundtable watch --url` and the
// observer token: the debate screen's columns, the header saying it runs
// on the host; a persona's words stream in, growing between two captures
// while its turn has no message yet (from its draft, through the host);
// then the verdict and "complete" once the debate ends; q quits and the
// local copy of the room is gone.
func TestE2EWatchRemoteDebate(t *testing.T) {
	bin, cwd, cmd, p, r := startFollowedDebate(t)
	url, token := startHostOf(t, bin, cwd, "live")

	tmp := t.TempDir() // where the watch keeps its copy of the room
	env := append(e2eEnv(t), "ROUNDTABLE_TOKEN="+token, "TMPDIR="+tmp)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 160, Height: 48, Dir: t.TempDir(), Env: env}, bin, "watch", "--url", url)
	host := strings.TrimPrefix(url, "http://")
	s.WaitFor("· on "+host, 20*time.Second)
	if sc := s.Capture(); !strings.Contains(sc, "Zeppelin fleets") || strings.Count(strings.Split(sc, "\n")[2], "╭─") != 3 {
		t.Errorf("not the debate screen's three columns at 160 wide:\n%s", sc)
	}

	// Words of the turn spoken now, in no message saved yet, with the
	// speaker named in the header: they came from its draft, via the host.
	_, seen := waitWordsInProgress(t, s, p, r, "on "+host)
	t.Logf("a turn in progress showed %q before its message", seen)

	// The turn grows on screen between two captures while it is spoken
	// (the same speaker, no new message): more of its words show, token
	// by token, not a turn at a time. A turn that ends between the two is
	// given another try with the next.
	grew := false
	for try := 0; try < 5 && !grew; try++ {
		st, err := r.Refresh()
		if err != nil {
			t.Fatal(err)
		}
		agent, _ := p.triples()
		before := shownOfTurn(p, agent, s.Capture())
		if agent == "" || before == 0 {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		s.WaitUntil("the turn to grow or end", func(sc string) bool {
			now, err := r.Refresh()
			if err != nil || len(now.Messages) != len(st.Messages) {
				return true // the turn ended: try again
			}
			grew = shownOfTurn(p, agent, sc) > before
			return grew
		}, 30*time.Second)
	}
	if !grew {
		t.Fatalf("no turn grew on screen while it was spoken:\n%s", s.Capture())
	}

	s.WaitUntil("the verdict", func(sc string) bool {
		return strings.Contains(sc, "Moderator's verdict") && strings.Contains(sc, "replay · complete") && strings.Contains(sc, "Decision:")
	}, 90*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("watch exit status %d", code)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("the headless debate: %v", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("the watch left its copy of the room behind: %v", left)
	}
}
