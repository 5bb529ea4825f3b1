package watch_test

import (
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
	url, token, host := serveRoom(t, bin, cwd, "far", "--topic", "A room served over HTTP", "--budget", "3")
	addr := strings.TrimPrefix(url, "http://")

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
