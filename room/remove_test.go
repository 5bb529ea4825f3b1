package room

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTrash(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "cache-design", CreateOptions{Topic: "Keep me", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatLead, Agent: "claude", Text: "first"}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	dst, err := Trash(cwd, "cache-design", at)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cwd, Folder, TrashFolder, "cache-design-20260304T050607Z"); dst != want {
		t.Errorf("moved to %s, want %s", dst, want)
	}
	if _, err := Open(cwd, "cache-design"); !errors.Is(err, ErrNoRoom) {
		t.Errorf("the room still opens after Trash: %v", err)
	}
	// The trash is not a room: no listing can show it.
	if ValidateName(TrashFolder) == nil {
		t.Errorf("%q is a valid room name, so it would be listed as a room", TrashFolder)
	}
	// Moving the folder back restores the room, messages and all.
	if err := os.Rename(dst, Dir(cwd, "cache-design")); err != nil {
		t.Fatal(err)
	}
	back, err := Open(cwd, "cache-design")
	if err != nil {
		t.Fatal(err)
	}
	st, err := back.State()
	if err != nil || len(st.Messages) != 1 || st.Messages[0].Text != "first" || back.Config().Topic != "Keep me" {
		t.Errorf("restored room: %+v %v", st.Messages, err)
	}

	// Trashed twice in the same second: two folders, nothing overwritten.
	first, err := Trash(cwd, "cache-design", at)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Create(cwd, "cache-design", CreateOptions{Topic: "Again"}); err != nil {
		t.Fatal(err)
	}
	second, err := Trash(cwd, "cache-design", at)
	if err != nil {
		t.Fatal(err)
	}
	if first == second || !strings.HasSuffix(second, "-2") {
		t.Errorf("the second trash went to %s (first %s)", second, first)
	}
}

func TestTrashRefuses(t *testing.T) {
	cwd := t.TempDir()
	if _, err := Trash(cwd, "missing", time.Now()); !errors.Is(err, ErrNoRoom) {
		t.Errorf("a missing room: %v", err)
	}
	if _, err := Trash(cwd, "../etc", time.Now()); !errors.Is(err, ErrBadName) {
		t.Errorf("a bad name: %v", err)
	}
	// A room that cannot be read can still be deleted.
	dir := Dir(cwd, "broken")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "room.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Trash(cwd, "broken", time.Now()); err != nil {
		t.Errorf("a broken room: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the broken room is still there: %v", err)
	}
}

func TestLiveSeats(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	for _, l := range []struct {
		event string
		f     []Field
	}{
		{"connect", []Field{F("seat", SeatLead), F("agent", "claude"), F("pid", os.Getpid())}},
		{"call", []Field{F("seat", SeatLead), F("tool", "wait_for_message")}},
		{"connect", []Field{F("seat", SeatPeer), F("agent", "codex"), F("pid", dead.Process.Pid)}},
	} {
		at = at.Add(time.Millisecond)
		if err := AppendLog(dir, at, l.event, l.f...); err != nil {
			t.Fatal(err)
		}
	}
	live, err := LiveSeats(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].Seat != SeatLead || live[0].Agent != "claude" {
		t.Errorf("live seats %+v, want the lead only (the peer's process is gone)", live)
	}
	if err := AppendLog(dir, at.Add(time.Millisecond), "disconnect", F("seat", SeatLead)); err != nil {
		t.Fatal(err)
	}
	if live, _ := LiveSeats(dir); len(live) != 0 {
		t.Errorf("a disconnected seat is live: %+v", live)
	}
	if live, err := LiveSeats(t.TempDir()); err != nil || len(live) != 0 {
		t.Errorf("no server.log: %+v %v", live, err)
	}
}
