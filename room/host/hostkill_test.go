//go:build unix

package host_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestKilledHostSeatsAreGone: roundtable host holds the lock of each seat
// it serves; killed with SIGKILL, it writes no disconnect lines, and
// readers say its seats are gone, from the lock.
func TestKilledHostSeatsAreGone(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "hostkill", 3)
	h := hosttest.Start(t, "--room", "hostkill", "--cwd", cwd)
	peer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	peer.Call("room_status", nil)
	dir := room.Dir(cwd, "hostkill")
	state := func() string {
		seats, err := room.ReadSeats(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range seats {
			if s.Seat == room.SeatPeer {
				return s.State
			}
		}
		return ""
	}
	if st := state(); st == room.StateDisconnected || st == room.StateAbsent {
		t.Fatalf("the peer served by a live host reads %q", st)
	}
	// The host holds the seat's lock while it serves the seat, as every
	// holder of a seat does, and its connect line says so.
	if hd := room.SeatHolder(dir, room.SeatPeer); !hd.Live || hd.PID != h.Cmd.Process.Pid {
		t.Errorf("the peer's lock while the host serves it: %+v, want pid %d", hd, h.Cmd.Process.Pid)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, room.LogFile)); !strings.Contains(string(data), "lock=held") {
		t.Errorf("the host's connect line does not say it holds the seat's lock:\n%s", data)
	}
	if err := h.Cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-h.Exited()
	if st := state(); st != room.StateDisconnected {
		t.Errorf("the peer of a killed host reads %q, want %q", st, room.StateDisconnected)
	}
}
