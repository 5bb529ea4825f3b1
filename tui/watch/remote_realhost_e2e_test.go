package watch_test

import (
	"bufio"
	"net"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestRemoteWatchAgainstRoundtableHost runs two real processes of the
// binary: `roundtable host` serving a room over HTTP, and `roundtable
// watch --url` in tmux with the observer token the host printed. A message
// posted in the room shows on the remote screen; the host stopped with
// SIGTERM is said as a lost connection.
func TestRemoteWatchAgainstRoundtableHost(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	host := exec.Command(bin, "host", "--room", "far", "--topic", "A room served over HTTP", "--budget", "3",
		"--cwd", cwd, "--listen", addr)
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Process.Kill(); _ = host.Wait() })
	tokenLine := regexp.MustCompile(`ROUNDTABLE_TOKEN=(rt_\S+) roundtable watch --url (\S+)$`)
	var url, token string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := tokenLine.FindStringSubmatch(sc.Text()); m != nil {
			token, url = m[1], m[2]
		}
		if strings.Contains(sc.Text(), "serving far at") {
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

	// As the host's line says: the token in the environment, out of argv.
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 30, Dir: t.TempDir(), Env: []string{"ROUNDTABLE_TOKEN=" + token}},
		bin, "watch", "--url", url)
	screen := s.WaitFor("A room served over HTTP", e2eTimeout)
	if !strings.Contains(screen, "remote: "+addr) {
		t.Errorf("the screen does not say it is remote (%s):\n%s", addr, screen)
	}
	r, err := room.Open(cwd, "far")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "opus", Text: "The brief, posted on the host: " + strconv.Itoa(42)}); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("The brief, posted on the host: 42", e2eTimeout)

	if err := host.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("lost", 20*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("watch exited %d", code)
	}
}
