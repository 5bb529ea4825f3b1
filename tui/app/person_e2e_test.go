package app

import (
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EPersonSeatFromTheForm: the new-MCP-room form offers "you, at the
// keyboard" for a seat; enter on the commands page opens the room with
// that seat taken, as watch --take does, and quitting gives it up.
func TestE2EPersonSeatFromTheForm(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 30, Dir: cwd, Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("m MCP room", 10*time.Second)
	s.SendKeys("m")
	s.WaitFor("New MCP room", 10*time.Second)
	s.SendKeys("-l", "kbd")
	s.SendKeys("Tab")
	s.SendKeys("-l", "Who plays the peer?")
	// Budget, seats, spec, the lead's mind and label, then the peer's mind.
	s.SendKeys("Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Left")
	s.WaitFor("you, at the keyboard", 10*time.Second)
	s.SendKeys("C-s")
	s.WaitFor("Peer seat (you, at the keyboard)", 10*time.Second)
	s.SendKeys("Enter")
	s.WaitFor("you play the peer", 10*time.Second)
	r, err := room.Open(cwd, "kbd")
	if err != nil {
		t.Fatal(err)
	}
	live, err := room.LiveSeats(r.Dir())
	if err != nil || len(live) != 1 || live[0].Seat != room.SeatPeer || live[0].Agent != "person" {
		t.Fatalf("the seats held while the screen plays the peer: %+v, %v", live, err)
	}
	s.SendKeys("q")
	s.WaitFor("1 room in", 10*time.Second)
	if live, _ := room.LiveSeats(r.Dir()); len(live) != 0 {
		t.Errorf("the seat is still held after q: %+v", live)
	}
}
