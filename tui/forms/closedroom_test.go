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
	v := plain(f.View())
	if strings.Contains(v, "roundtable --room shut") {
		t.Fatalf("the form offers commands for the closed room:\n%s", v)
	}
	// The whole sentence is on screen, wrapped under the name, once.
	flat := strings.Join(strings.Fields(v), " ")
	if !strings.Contains(flat, "such as shut-2") || strings.Count(flat, "shut is closed") != 1 || strings.Contains(flat, `create room "shut"`) {
		t.Fatalf("the refusal is not shown whole, once:\n%s", v)
	}
}
