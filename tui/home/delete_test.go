package home

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// pressKey presses k and returns the screen and its command.
func pressKey(m Model, k string) (Model, tea.Cmd) { return m.Update(keytest.Press(k)) }

// run runs cmd, if any, and gives the screen what it sends.
func run(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command to run")
	}
	m, _ = m.Update(cmd())
	return m
}

func TestDelete(t *testing.T) {
	cwd := sampleRooms(t)
	m := loaded(t, cwd, 100, 20)
	if !strings.Contains(plain(m.View()), "d delete") {
		t.Errorf("the help does not show d:\n%s", plain(m.View()))
	}
	if sel, _ := m.Selected(); sel.Name != "cache-design" {
		t.Fatalf("selected %q", sel.Name)
	}

	// d asks, naming the room; y does nothing until the seats are read.
	m, check := pressKey(m, "d")
	if m.confirm == nil || check == nil || !strings.Contains(plain(m.View()), "Delete room cache-design?") {
		t.Fatalf("d did not ask:\n%s", plain(m.View()))
	}
	if m2, cmd := pressKey(m, "y"); cmd != nil || m2.confirm == nil {
		t.Error("y deleted before the seats were read")
	}
	m = run(t, m, check)
	v := plain(m.View())
	for _, want := range []string{"Delete room cache-design? y/n", "y moves it to .roundtable/.trash (restorable), n keeps it."} {
		if !strings.Contains(v, want) {
			t.Errorf("the confirmation lacks %q:\n%s", want, v)
		}
	}

	// n, esc and q keep the room (q does not quit while asked).
	for _, k := range []string{"n", "esc", "q"} {
		m2, cmd := pressKey(m, k)
		if m2.confirm != nil || cmd != nil || !strings.Contains(plain(m2.View()), "Kept room cache-design.") {
			t.Errorf("%s: confirm %v cmd %v\n%s", k, m2.confirm, cmd, plain(m2.View()))
		}
	}

	// y moves the room to the trash, and the list no longer has it.
	m, trash := pressKey(m, "y")
	if m.confirm != nil || trash == nil {
		t.Fatal("y did not delete")
	}
	m, relist := m.Update(trash())
	if _, err := os.Stat(room.Dir(cwd, "cache-design")); !os.IsNotExist(err) {
		t.Errorf("the room folder is still there: %v", err)
	}
	moved, _ := filepath.Glob(filepath.Join(cwd, room.Folder, room.TrashFolder, "cache-design-*", "room.json"))
	if len(moved) != 1 {
		t.Errorf("the trash holds %v", moved)
	}
	if v := plain(m.View()); !strings.Contains(v, "Deleted room cache-design (moved to .roundtable/.trash/cache-design-") {
		t.Errorf("the status does not say where the room went:\n%s", v)
	}
	m = run(t, m, relist)
	for _, r := range m.Rooms() {
		if r.Name == "cache-design" || strings.HasPrefix(r.Name, ".") {
			t.Errorf("%q is still listed", r.Name)
		}
	}
	if n := len(m.Rooms()); n != 3 {
		t.Errorf("%d rooms after the delete, want 3", n)
	}
	if rooms, _ := List(cwd); len(rooms) != 3 {
		t.Errorf("List shows %d rooms, want 3 (the trash is not a room)", len(rooms))
	}
}

func TestDeleteWarns(t *testing.T) {
	cwd := sampleRooms(t)
	if err := room.AppendLog(room.Dir(cwd, "cache-design"), time.Now(), "connect",
		room.F("seat", room.SeatLead), room.F("agent", "claude"), room.F("pid", os.Getpid())); err != nil {
		t.Fatal(err)
	}
	writeRoom(t, cwd, fixture{
		name: "running-debate", created: time.Hour,
		cfg: room.Config{Topic: "Still going", Mode: room.ModeDebate, Agents: []string{"A"}, Rounds: 2, Spec: "SPEC.md"},
	})
	m := loaded(t, cwd, 140, 20)
	tests := []struct{ name, want string }{
		{"cache-design", "The lead seat (claude) is still connected"},
		{"running-debate", "The debate is still open"},
	}
	for _, tt := range tests {
		for i, idx := range m.shown {
			if m.rooms[idx].Name == tt.name {
				m.cursor = i
			}
		}
		m2, check := pressKey(m, "d")
		m2 = run(t, m2, check)
		v := plain(m2.View())
		if !strings.Contains(v, "Delete room "+tt.name+"? y/n") || !strings.Contains(v, tt.want) {
			t.Errorf("%s: the confirmation does not warn %q:\n%s", tt.name, tt.want, v)
		}
	}
}

func TestDeleteNothing(t *testing.T) {
	m := loaded(t, t.TempDir(), 100, 20)
	if m2, cmd := pressKey(m, "d"); m2.confirm != nil || cmd != nil {
		t.Error("d with no room asked something")
	}
}
