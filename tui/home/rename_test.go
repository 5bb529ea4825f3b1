package home

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

func selectRoom(t *testing.T, m *Model, name string) {
	t.Helper()
	for i, idx := range m.shown {
		if m.rooms[idx].Name == name {
			m.cursor = i
			return
		}
	}
	t.Fatalf("room %q is not listed", name)
}

func TestRenameAndUndoDelete(t *testing.T) {
	cwd := sampleRooms(t)
	m := loaded(t, cwd, 120, 24)
	if v := plain(m.View()); strings.Contains(v, "u undo") {
		t.Errorf("u shows before anything was deleted:\n%s", v)
	}
	selectRoom(t, &m, "cache-design")

	// R opens the prompt with the name; a bad name is refused in place.
	m, _ = pressKey(m, "R")
	if m.rename == nil || !strings.Contains(plain(m.View()), "Rename room cache-design") {
		t.Fatalf("R did not ask for a name:\n%s", plain(m.View()))
	}
	for range len("cache-design") {
		m, _ = pressKey(m, "backspace")
	}
	for _, k := range []string{".", "x"} {
		m, _ = pressKey(m, k)
	}
	m, cmd := pressKey(m, "enter")
	if cmd != nil || m.rename == nil || !strings.Contains(plain(m.View()), "Not a room name") {
		t.Fatalf("an invalid name was not refused in place:\n%s", plain(m.View()))
	}
	// A name taken is refused by the rename itself: the prompt stays open,
	// saying why, with the name typed.
	m, _ = pressKey(m, "backspace")
	m, _ = pressKey(m, "backspace")
	taken := "should-we-adopt-graphql-20261129-101500"
	for _, k := range strings.Split(taken, "") {
		m, _ = pressKey(m, k)
	}
	m, cmd = pressKey(m, "enter")
	if cmd == nil || m.rename == nil || !m.rename.pending {
		t.Fatal("enter did not start the rename")
	}
	m, _ = m.Update(cmd())
	if v := plain(m.View()); m.rename == nil || m.rename.pending || m.rename.input.Value() != taken ||
		!strings.Contains(v, "Could not rename cache-design") || !strings.Contains(v, "new name:") {
		t.Fatalf("a refused rename did not stay in its prompt:\n%s", v)
	}
	for range len(taken) {
		m, _ = pressKey(m, "backspace")
	}
	for _, k := range strings.Split("cache-v2", "") {
		m, _ = pressKey(m, k)
	}
	m, cmd = pressKey(m, "enter")
	if cmd == nil {
		t.Fatal("enter did not rename")
	}
	m, relist := m.Update(cmd())
	if m.rename != nil {
		t.Fatal("the prompt stayed open after the rename")
	}
	if v := plain(m.View()); !strings.Contains(v, "Renamed cache-design to cache-v2.") {
		t.Fatalf("status after rename:\n%s", v)
	}
	m = run(t, m, relist)
	if sel, _ := m.Selected(); sel.Name != "cache-v2" {
		t.Errorf("the cursor is on %q, want the renamed room", sel.Name)
	}
	if _, err := room.Open(cwd, "cache-v2"); err != nil {
		t.Fatalf("the renamed room does not open: %v", err)
	}

	// d then y deletes; u brings it back under its name.
	m, check := pressKey(m, "d")
	m = run(t, m, check)
	m, trash := pressKey(m, "y")
	m, relist = m.Update(trash())
	m = run(t, m, relist)
	if _, err := os.Stat(room.Dir(cwd, "cache-v2")); !os.IsNotExist(err) {
		t.Fatalf("the room was not deleted: %v", err)
	}
	if v := plain(m.View()); !strings.Contains(v, "u restores it") {
		t.Errorf("the status does not offer u:\n%s", v)
	}
	m, restore := pressKey(m, "u")
	if restore == nil {
		t.Fatal("u did nothing")
	}
	m, relist = m.Update(restore())
	m = run(t, m, relist)
	if v := plain(m.View()); !strings.Contains(v, "Restored room cache-v2.") {
		t.Errorf("status after u:\n%s", v)
	}
	if _, err := room.Open(cwd, "cache-v2"); err != nil {
		t.Fatalf("the restored room does not open: %v", err)
	}
	if _, cmd := pressKey(m, "u"); cmd != nil {
		t.Error("u restored twice")
	}
}

func TestJunkRooms(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		r    Room
		junk bool
	}{
		{Room{Messages: 0, Closed: true}, true},
		{Room{Messages: 0, Last: now.Add(-48 * time.Hour)}, true},
		{Room{Messages: 0, Last: now.Add(-time.Hour)}, false},
		{Room{Messages: 3, Closed: true}, false},
		{Room{Err: "room.json is not valid JSON"}, true},
		{Room{Err: "2 message files could not be read", Messages: 5}, false},
	}
	for i, c := range cases {
		if got := isJunk(c.r, now); got != c.junk {
			t.Errorf("case %d %+v: junk %v, want %v", i, c.r, got, c.junk)
		}
		c.r.Junk = c.junk
		if c.junk && c.r.Status() != "junk" {
			t.Errorf("case %d: status %q", i, c.r.Status())
		}
	}
	// A debate that failed before anything was said is junk, but says it
	// failed: why is worth a look before it goes.
	failed := Room{Mode: ModeDebate, Closed: true, Reason: "failed: openai failed during PM's turn (round 1): HTTP 400"}
	failed.Junk = isJunk(failed, now)
	if !failed.Junk || failed.Status() != "failed" {
		t.Errorf("a debate failed on its first turn: junk %v, status %q; want junk, shown failed", failed.Junk, failed.Status())
	}
	if cancelled := (Room{Mode: ModeDebate, Closed: true, Reason: "cancelled", Junk: true}); cancelled.Status() != "junk" {
		t.Errorf("a debate stopped before anything was said: status %q, want junk", cancelled.Status())
	}
}
