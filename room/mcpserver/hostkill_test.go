//go:build unix

package mcpserver_test

import (
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestKilledHostSeatsAreGone: roundtable host killed with SIGKILL writes
// no disconnect lines; readers say its seats are gone, since the process
// holding them is.
func TestKilledHostSeatsAreGone(t *testing.T) {
	cwd := t.TempDir()
	toks := issueTokens(t, cwd, "hostkill", 3)
	h := startHost(t, "--room", "hostkill", "--cwd", cwd)
	peer := connectHTTP(t, h.url, toks[room.GrantPeer], protoLegacy)
	peer.call("room_status", nil)
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
	if err := h.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-h.done
	if st := state(); st != room.StateDisconnected {
		t.Errorf("the peer of a killed host reads %q, want %q", st, room.StateDisconnected)
	}
}
