package room

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestNotesTakeNoTurnAndMerge(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "steer", CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(Post{Seat: SeatLead, Agent: "a", Text: "brief"}); err != nil {
		t.Fatal(err)
	}
	n1, err := r.AddNote(NoteFromHost, "prefer the simple design", 0)
	if err != nil {
		t.Fatal(err)
	}
	if n1.Seq != 1 || n1.AfterSeq != 1 || n1.From != NoteFromHost {
		t.Fatalf("first note %+v: want seq 1 after message 1 from host", n1)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Round != 1 || st.Turn != SeatPeer || len(st.Messages) != 1 {
		t.Fatalf("a note changed the derived state: round %d turn %s msgs %d", st.Round, st.Turn, len(st.Messages))
	}
	if len(st.Notes) != 1 || st.Notes[0].Text != "prefer the simple design" {
		t.Fatalf("notes %+v", st.Notes)
	}
	// Another process sees it, numbered; a second note counts on.
	other, err := Open(cwd, "steer")
	if err != nil {
		t.Fatal(err)
	}
	n2, err := other.AddNote(NoteFromHost, "and keep it short", 0)
	if err != nil || n2.Seq != 2 {
		t.Fatalf("second note %+v %v", n2, err)
	}
	st, _ = r.Refresh()
	if st.LastNoteSeq() != 2 || len(NotesAfter(st.Notes, 1)) != 1 {
		t.Fatalf("notes after a refresh: %+v", st.Notes)
	}
	// Empty and closed are refused; nothing is written.
	var empty *EmptyError
	if _, err := r.AddNote(NoteFromHost, "  ", 0); !errors.As(err, &empty) {
		t.Fatalf("empty note: %v", err)
	}
	if _, err := r.Close(CloseOptions{Reason: "done"}); err != nil {
		t.Fatal(err)
	}
	var closed *ClosedError
	if _, err := r.AddNote(NoteFromHost, "late", 0); !errors.As(err, &closed) {
		t.Fatalf("note on a closed room: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(NotesDir(r.Dir()), "*.json"))
	if len(files) != 2 {
		t.Fatalf("%d note files, want 2", len(files))
	}
}

func TestNoteWakesNotifier(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "wake", CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Watch(ctx, r)
	if _, err := r.State(); err != nil {
		t.Fatal(err)
	}
	ch := n.Changed()
	other, _ := Open(cwd, "wake")
	if _, err := other.AddNote(NoteFromHost, "hello", 0); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(3 * time.Second):
		t.Fatal("a note in a new notes folder did not wake the notifier")
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		st, _ := r.State()
		if len(st.Notes) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("State did not show the note after the wake")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// A broken note file is skipped, not fatal.
	if err := os.WriteFile(filepath.Join(NotesDir(r.Dir()), "0009-1-abcdef.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := r.Refresh()
	if err != nil || len(st.Notes) != 1 || len(st.NewSkipped) != 1 {
		t.Fatalf("broken note: err %v notes %d skipped %+v", err, len(st.Notes), st.NewSkipped)
	}
	// The broken file keeps its number: the next note comes after it.
	if n, err := r.AddNote(NoteFromHost, "after the broken one", 0); err != nil || n.Seq != 10 {
		t.Fatalf("note after a broken 0009: %+v %v, want seq 10", n, err)
	}
}
