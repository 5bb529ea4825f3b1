package watch_test

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EWatchersSeeThePause runs a headless debate that pauses between
// rounds (its stdin the person's enter), and watches it from two other
// processes in tmux: roundtable watch on its folder, and roundtable watch
// --url through roundtable host. Both say it is paused after round 1 (it
// was read as a stall before), then after round 2 once it went on, and
// neither says so once it has ended.
func TestE2EWatchersSeeThePause(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	deb := exec.Command(bin, "debate", "--topic", "Adopt Rust", "--rounds", "2", "--fast",
		"--pause-between-rounds", "--room", "paused", "--cwd", cwd)
	enter, err := deb.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	deb.Stdout, deb.Stderr = io.Discard, &stderr
	if err := deb.Start(); err != nil {
		t.Fatal(err)
	}
	waited := false
	t.Cleanup(func() {
		if !waited {
			_ = deb.Process.Kill()
			_ = deb.Wait()
		}
	})
	marker := filepath.Join(cwd, room.Folder, "paused", room.PauseFile)
	waitForFile(t, marker, &stderr)

	local := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 30, Dir: t.TempDir()},
		bin, "watch", "--room", "paused", "--cwd", cwd)
	local.WaitFor("paused after round 1", e2eTimeout)

	url, token, _ := serveRoom(t, bin, cwd, "paused")
	remote := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 30, Dir: t.TempDir(), Env: []string{"ROUNDTABLE_TOKEN=" + token}},
		bin, "watch", "--url", url)
	remote.WaitFor("⏸ paused after round 1", e2eTimeout)

	// enter: round 2, then the pause before the verdict.
	if _, err := io.WriteString(enter, "\n"); err != nil {
		t.Fatal(err)
	}
	local.WaitFor("paused after round 2", e2eTimeout)
	remote.WaitFor("⏸ paused after round 2", e2eTimeout)

	// enter again: the verdict, and the end.
	if _, err := io.WriteString(enter, "\n"); err != nil {
		t.Fatal(err)
	}
	waited = true
	if err := deb.Wait(); err != nil {
		t.Fatalf("the debate: %v\n%s", err, stderr.String())
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("%s is still there after the debate went on and ended (%v)", room.PauseFile, err)
	}
	local.WaitUntil("the closed room, not paused", func(sc string) bool {
		return strings.Contains(sc, "closed") && !strings.Contains(sc, "paused after")
	}, e2eTimeout)
	remote.WaitUntil("the finished debate, not paused", func(sc string) bool {
		return strings.Contains(sc, "A finished debate") && !strings.Contains(sc, "paused after")
	}, e2eTimeout)
}

// waitForFile waits for path to exist, failing with what the debate said.
func waitForFile(t *testing.T, path string, said *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(e2eTimeout)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear within %s; the debate said:\n%s", path, e2eTimeout, said.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serveRoom runs roundtable host on the room (with more of its flags, if
// any) and returns the URL and the observer token its output prints, and
// the host's process.
func serveRoom(t *testing.T, bin, cwd, name string, flags ...string) (url, token string, host *exec.Cmd) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	host = exec.Command(bin, append([]string{"host", "--room", name, "--cwd", cwd, "--listen", addr}, flags...)...)
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Process.Kill(); _ = host.Wait() })
	line := regexp.MustCompile(`ROUNDTABLE_TOKEN=(rt_\S+) roundtable watch --url (\S+)$`)
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			token, url = m[1], m[2]
		}
		if strings.Contains(sc.Text(), "serving "+name+" at") {
			break
		}
	}
	if token == "" {
		t.Fatal("roundtable host printed no observer token and watch line")
	}
	go func() { // keep draining the host's output
		for sc.Scan() {
		}
	}()
	return url, token, host
}
