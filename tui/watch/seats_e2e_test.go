package watch_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// seatProc is a seat server process of the built binary, spoken to in
// JSON-RPC over its stdio the way an agent's MCP client does.
type seatProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	mu     sync.Mutex
	nextID int
	wait   map[int]chan map[string]any
	done   chan struct{}
}

func startSeatProc(t *testing.T, bin, cwd, roomName, seat string) *seatProc {
	t.Helper()
	cmd := exec.Command(bin, "--room", roomName, "--seat", seat, "--agent", seat+"-e2e", "--cwd", cwd, "--topic", "Seats on screen")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &seatProc{t: t, cmd: cmd, in: in, wait: map[int]chan map[string]any{}, done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var msg map[string]any
			if json.Unmarshal(sc.Bytes(), &msg) != nil {
				continue
			}
			id, ok := msg["id"].(float64)
			if !ok {
				continue
			}
			p.mu.Lock()
			ch := p.wait[int(id)]
			p.mu.Unlock()
			if ch != nil {
				ch <- msg
			}
		}
		_ = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(p.stop)
	<-p.send("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "e2e", "version": "1"}})
	p.write(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return p
}

func (p *seatProc) write(v any) {
	data, _ := json.Marshal(v)
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.in.Write(append(data, '\n')); err != nil {
		p.t.Errorf("writing to the seat: %v", err)
	}
}

func (p *seatProc) send(method string, params any) <-chan map[string]any {
	p.mu.Lock()
	p.nextID++
	id := p.nextID
	ch := make(chan map[string]any, 1)
	p.wait[id] = ch
	p.mu.Unlock()
	p.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return ch
}

// call calls a tool and returns the reply's channel.
func (p *seatProc) call(tool string, args map[string]any) <-chan map[string]any {
	return p.send("tools/call", map[string]any{"name": tool, "arguments": args})
}

// stop closes the seat's stdin, as an agent CLI that quits does, and waits
// for the process to leave.
func (p *seatProc) stop() {
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// TestWatchShowsThinkingParkedAndGoneSeats runs the built binary three
// times: the watch screen in tmux and two real seat servers. The screen
// must say which seat is parked in wait_for_message and which is thinking
// since its wait returned, count that time up on its own, and put up the
// banner once both seats have disconnected from the open room.
func TestWatchShowsThinkingParkedAndGoneSeats(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 30, Dir: t.TempDir()}, bin, "watch", "--room", "seats-e2e", "--cwd", cwd)
	s.WaitFor("waiting for the first seat", e2eTimeout)

	lead := startSeatProc(t, bin, cwd, "seats-e2e", "lead")
	peer := startSeatProc(t, bin, cwd, "seats-e2e", "peer")
	s.WaitFor("Seats on screen", e2eTimeout)

	peerWoke := peer.call("wait_for_message", map[string]any{"timeout_seconds": 50})
	s.WaitUntil("the peer parked", func(sc string) bool {
		return seatLine(sc, "peer", "peer-e2e", "parked · ") && strings.Contains(sc, "listening for the lead")
	}, e2eTimeout)

	if r := <-lead.call("post", map[string]any{"text": "The brief: stream or load whole?"}); r["error"] != nil {
		t.Fatalf("post: %v", r)
	}
	if r := <-peerWoke; r["error"] != nil {
		t.Fatalf("peer's wait: %v", r)
	}
	lead.call("wait_for_message", map[string]any{"timeout_seconds": 50})
	screen := s.WaitUntil("the peer thinking and the lead parked", func(sc string) bool {
		return seatLine(sc, "peer", "peer-e2e", "thinking · ") && strings.Contains(sc, "since its wait returned a message") &&
			seatLine(sc, "lead", "lead-e2e", "parked · ")
	}, e2eTimeout)
	if strings.Contains(screen, "BOTH SEATS") {
		t.Fatalf("seats-gone banner with both seats connected:\n%s", screen)
	}
	// The thinking time counts up with no new line in server.log.
	ticking := regexp.MustCompile(`thinking · ([3-9]|[1-5][0-9])s since`)
	s.WaitUntil("the thinking time counting up", func(sc string) bool { return ticking.MatchString(sc) }, e2eTimeout)

	lead.stop()
	peer.stop()
	screen = s.WaitFor("BOTH SEATS HAVE DISCONNECTED", e2eTimeout)
	if !strings.Contains(strings.Join(strings.Fields(screen), " "), "restart both agents (their roundtable entries for room seats-e2e, lead and peer)") {
		t.Errorf("the banner does not say how to go on:\n%s", screen)
	}
	s.SendKeys("q")
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d after q, want 0", code)
	}
}

// seatLine reports whether the screen has the seat's header line with the
// agent label and the state text on it.
func seatLine(screen, seat, agent, state string) bool {
	for _, l := range strings.Split(screen, "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == seat && strings.Contains(l, " an agent over MCP ("+agent+") ") && strings.Contains(l, state) {
			return true
		}
	}
	return false
}
