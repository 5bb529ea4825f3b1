//go:build unix

package mcpserver_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestKilledStdioSeatIsGone: an MCP seat server holds its seat's lock
// from its connect line (lock=held) to its disconnect; killed (SIGKILL, no
// disconnect line), it reads as disconnected, from the lock, and the seat
// is free for a person at once.
func TestKilledStdioSeatIsGone(t *testing.T) {
	cwd := t.TempDir()
	s := hosttest.StartSeat(t, cwd, "killed-stdio", "peer")
	s.OK("wait_for_message", map[string]any{"timeout_seconds": 1})
	r, err := room.Open(cwd, "killed-stdio")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(r.Dir(), room.LogFile))
	m := regexp.MustCompile(`connect seat=peer agent=peer-agent pid=(\d+) waits=logged lock=held`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("the connect line does not say the seat's lock is held:\n%s", data)
	}
	pid, _ := strconv.Atoi(string(m[1]))
	if h := room.SeatHolder(r.Dir(), room.SeatPeer); !h.Live || h.PID != pid {
		t.Fatalf("the seat's lock while it plays: %+v, want pid %d", h, pid)
	}
	if _, err := r.TakeSeatAsPerson(room.SeatPeer); err == nil {
		t.Fatal("a person took a seat an MCP server holds")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s.Client.Close() // reaps the process
	seats, err := room.ReadSeats(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, si := range seats {
		if si.Seat == room.SeatPeer && si.State != room.StateDisconnected {
			t.Errorf("the killed MCP seat reads %q, want %q", si.State, room.StateDisconnected)
		}
	}
	p, err := r.TakeSeatAsPerson(room.SeatPeer)
	if err != nil {
		t.Fatalf("the killed server's seat is not free: %v", err)
	}
	_ = p.Release()
}
