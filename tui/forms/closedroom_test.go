package forms

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestRoomFormRefusesAClosedRoom: the new-room form on the name of a
// closed room stays on its fields with the room layer's sentence (a free
// name suggested) and offers no seats to connect.
func TestRoomFormRefusesAClosedRoom(t *testing.T) {
	f, cwd := newTestRoomForm(t, 120, 40)
	r, _, err := room.Create(cwd, "shut", room.CreateOptions{Topic: "The first topic", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: "decided"}); err != nil {
		t.Fatal(err)
	}
	keys := append(typeText(nil, "shut"), "tab")
	keys = append(append(keys, typeText(nil, "Another topic")...), "ctrl+s")
	f, _ = drive(f, keys...)
	if f.Ready() || !strings.Contains(f.err, "room shut is closed (decided)") || !strings.Contains(f.err, "such as shut-2") {
		t.Fatalf("ready %v err %q", f.Ready(), f.err)
	}
	if v := plain(f.View()); strings.Contains(v, "roundtable --room shut") {
		t.Fatalf("the form offers commands for the closed room:\n%s", v)
	}
}
