package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EDelete deletes a room from the home screen of the real binary in
// tmux: d asks, naming the room and warning of its connected seat; n keeps
// it; y moves it to .roundtable/.trash and the list no longer has it.
func TestE2EDelete(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "cache-design", room.CreateOptions{Topic: "Should the cache be write-through", Budget: 4}); err != nil {
		t.Fatal(err)
	}
	if err := room.AppendLog(room.Dir(cwd, "cache-design"), time.Now(), "connect",
		room.F("seat", room.SeatLead), room.F("agent", "claude"), room.F("pid", os.Getpid())); err != nil {
		t.Fatal(err)
	}
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 30, Dir: cwd, Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("d")
	screen := s.WaitFor("Delete room cache-design? y/n", 10*time.Second)
	if !strings.Contains(screen, "The lead seat (claude) is still connected") {
		t.Errorf("no warning of the connected seat:\n%s", screen)
	}
	s.SendKeys("n")
	s.WaitFor("Kept room cache-design.", 10*time.Second)
	s.SendKeys("d")
	s.WaitFor("Delete room cache-design? y/n", 10*time.Second)
	s.SendKeys("y")
	s.WaitFor("Deleted room cache-design", 10*time.Second)
	s.WaitFor("no rooms yet", 10*time.Second)
	moved, _ := filepath.Glob(filepath.Join(cwd, room.Folder, room.TrashFolder, "cache-design-*", "room.json"))
	if len(moved) != 1 {
		t.Errorf("the trash holds %v", moved)
	}
	// u brings it back; R renames it (the seat has gone by then).
	s.SendKeys("u")
	s.WaitFor("Restored room cache-design.", 10*time.Second)
	s.WaitFor("1 room in", 10*time.Second)
	if err := room.AppendLog(room.Dir(cwd, "cache-design"), time.Now(), "disconnect",
		room.F("seat", room.SeatLead), room.F("pid", os.Getpid())); err != nil {
		t.Fatal(err)
	}
	s.SendKeys("R")
	s.WaitFor("Rename room cache-design", 10*time.Second)
	s.SendKeys("C-u")
	s.SendKeys("write-cache")
	s.SendKeys("Enter")
	s.WaitFor("Renamed cache-design to write-cache.", 10*time.Second)
	if _, err := room.Open(cwd, "write-cache"); err != nil {
		t.Errorf("the renamed room does not open: %v", err)
	}
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}
