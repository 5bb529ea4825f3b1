package room

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeedRefusesAClosedRoom: seeding a closed room again fails with a
// sentence naming a free new name, and leaves its prompts as they were.
func TestSeedRefusesAClosedRoom(t *testing.T) {
	cwd := t.TempDir()
	if _, err := Seed(cwd, "done", CreateOptions{Topic: "first", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	r, err := Open(cwd, "done")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatLead, Agent: "a", Text: "brief"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Seed(cwd, "done", CreateOptions{Topic: "first"}); err != nil {
		t.Fatalf("seeding an open room again: %v", err)
	}
	if _, err := r.Close(CloseOptions{Reason: "decided"}); err != nil {
		t.Fatal(err)
	}
	lead := filepath.Join(r.Dir(), "lead.md")
	before, _ := os.ReadFile(lead)
	if _, _, err := Create(cwd, "done-2", CreateOptions{Topic: "t"}); err != nil {
		t.Fatal(err)
	}
	_, err = Seed(cwd, "done", CreateOptions{Topic: "second", Budget: 3})
	var ce *ClosedRoomError
	if !errors.As(err, &ce) || !errors.Is(err, ErrClosed) {
		t.Fatalf("seed of a closed room: %v", err)
	}
	if want := "room done is closed (decided); choose a new name, such as done-3"; err.Error() != want {
		t.Fatalf("the refusal says %q, want %q", err, want)
	}
	if after, _ := os.ReadFile(lead); string(after) != string(before) {
		t.Fatal("the refused seed rewrote the prompts")
	}
}

func TestFreeName(t *testing.T) {
	cwd := t.TempDir()
	for _, n := range []string{"a", "a-2", "b-7"} {
		if _, _, err := Create(cwd, n, CreateOptions{Topic: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	long := strings.Repeat("x", 64)
	for base, want := range map[string]string{"a": "a-3", "b-7": "b-8", "c": "c-2", long: long[:62] + "-2"} {
		if got := FreeName(cwd, base); got != want {
			t.Errorf("FreeName(%q) = %q, want %q", base, got, want)
		}
		if err := ValidateName(FreeName(cwd, base)); err != nil {
			t.Error(err)
		}
	}
}

// TestRenameRewritesWhatNamesTheRoom: after a rename, room.json's room,
// the default spec path (and its file) and the prompts name the new room;
// fields roundtable does not know stay.
func TestRenameRewritesWhatNamesTheRoom(t *testing.T) {
	cwd := t.TempDir()
	if _, err := Seed(cwd, "old-name", CreateOptions{Topic: "cache it", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	dir := Dir(cwd, "old-name")
	var raw map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, "room.json"))
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["extra"] = "kept"
	data, _ = json.Marshal(raw)
	if err := os.WriteFile(filepath.Join(dir, "room.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, "SPEC-old-name.md"), []byte("# spec\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Rename(cwd, "old-name", "new-name"); err != nil {
		t.Fatal(err)
	}
	ndir := Dir(cwd, "new-name")
	data, err := os.ReadFile(filepath.Join(ndir, "room.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got["room"] != "new-name" || got["spec"] != "SPEC-new-name.md" || got["extra"] != "kept" || got["topic"] != "cache it" {
		t.Fatalf("room.json after the rename: %s", data)
	}
	if _, err := os.Stat(filepath.Join(cwd, "SPEC-new-name.md")); err != nil {
		t.Fatalf("the spec file did not follow: %v", err)
	}
	for _, seat := range []string{"lead.md", "peer.md"} {
		p, err := os.ReadFile(filepath.Join(ndir, seat))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(p), "old-name") || !strings.Contains(string(p), "new-name") {
			t.Fatalf("%s still names the old room:\n%s", seat, p)
		}
	}

	// A spec path chosen by hand stays.
	if _, err := Seed(cwd, "hand", CreateOptions{Topic: "t", Spec: "docs/design.md"}); err != nil {
		t.Fatal(err)
	}
	if err := Rename(cwd, "hand", "hand-2"); err != nil {
		t.Fatal(err)
	}
	r, err := Open(cwd, "hand-2")
	if err != nil || r.Config().Spec != "docs/design.md" {
		t.Fatalf("a chosen spec path after the rename: %v %q", err, r.Config().Spec)
	}
}

// TestDiscardNewLeavesNothing: a room created and seeded a moment ago,
// with only the seat's own released lock, goes with .roundtable; one
// holding anything more stays.
func TestDiscardNewLeavesNothing(t *testing.T) {
	cwd := t.TempDir()
	if _, err := Seed(cwd, "fresh", CreateOptions{Topic: "t"}); err != nil {
		t.Fatal(err)
	}
	r, err := Open(cwd, "fresh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(r.Dir(), "seats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Dir(), "seats", "lead.lock"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := DiscardNew(r, SeatLead); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(cwd, Folder)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf(".roundtable is still there: %v", err)
	}

	if _, err := Seed(cwd, "used", CreateOptions{Topic: "t", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	u, err := Open(cwd, "used")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := u.PostMessage(Post{Seat: SeatPeer, Agent: "a", Text: "hi"}); err == nil {
		t.Fatal("the peer posted first")
	}
	if _, _, err := u.PostMessage(Post{Seat: SeatLead, Agent: "a", Text: "brief"}); err != nil {
		t.Fatal(err)
	}
	if err := DiscardNew(u, SeatPeer); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(cwd, "used"); err != nil {
		t.Fatalf("a room with a message was discarded: %v", err)
	}
}

// TestNoAccessSaysWhatToDo: a permission error about a room's file names
// the file and what to do; other errors pass unchanged, and wrapping twice
// says it once.
func TestNoAccessSaysWhatToDo(t *testing.T) {
	perm := &os.PathError{Op: "open", Path: "/r/room.json", Err: os.ErrPermission}
	err := NoAccess(perm, "/r/room.json")
	if !errors.Is(err, os.ErrPermission) || !strings.Contains(err.Error(), "may not use /r/room.json: give it access") || !strings.Contains(err.Error(), "run roundtable as the user who owns the room") {
		t.Fatalf("got %v", err)
	}
	if again := NoAccess(err, "/r"); again != err {
		t.Fatalf("wrapped twice: %v", again)
	}
	other := errors.New("disk full")
	if NoAccess(other, "/r") != other || NoAccess(nil, "/r") != nil {
		t.Fatal("another error changed")
	}
}
