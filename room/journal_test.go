package room

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// waitWake waits for ch, failing the test after a while.
func waitWake(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not wake the notifier", what)
	}
}

// listingsOf is how often r listed its messages folder.
func listingsOf(r *Room) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.listings
}

// A watched room learns new messages and notes from the kernel's events:
// after the first read, State parses the files that arrived without
// listing the folder; when events may have been lost, it lists again.
func TestStateReadsArrivalsWithoutListing(t *testing.T) {
	r := newRoom(t, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := Watch(ctx, r)
	defer n.Close()
	if !n.Inotify() || !n.local {
		t.Fatal("inotify on a local filesystem is needed: the journal is only trusted there")
	}
	if _, err := r.State(); err != nil {
		t.Fatal(err)
	}
	base := listingsOf(r)
	if base != 1 {
		t.Fatalf("the first read listed the folder %d times, want 1", base)
	}
	other, err := Open(r.Cwd(), r.Config().Room)
	if err != nil {
		t.Fatal(err)
	}
	for i, seat := range []string{SeatLead, SeatPeer, SeatLead} {
		ch := n.Changed()
		mustPost(t, other, seat, "turn")
		waitWake(t, ch, "a post")
		st, err := r.State()
		if err != nil || len(st.Messages) != i+1 {
			t.Fatalf("after post %d: %d messages, %v", i+1, len(st.Messages), err)
		}
	}
	if got := listingsOf(r); got != base {
		t.Fatalf("three posts read with %d listings, want none", got-base)
	}
	// The first note makes the notes folder, which may hold files no
	// event told of: that read lists; the next note's does not.
	for i, text := range []string{"mind the budget", "and the spec"} {
		ch := n.Changed()
		if _, err := other.AddNote(NoteFromHost, text, 1); err != nil {
			t.Fatal(err)
		}
		waitWake(t, ch, "a note")
		var st State
		for {
			ch = n.Changed()
			if st, err = r.State(); err != nil || len(st.Notes) == i+1 {
				break
			}
			waitWake(t, ch, "the note's file") // the folder came first
		}
		if err != nil || st.Notes[i].Text != text {
			t.Fatalf("after note %d: %+v, %v", i+1, st.Notes, err)
		}
	}
	base++
	if got := listingsOf(r); got != base {
		t.Fatalf("two notes read with %d listings, want 1 (the folder's appearance)", got-base+1)
	}

	// Events lost (an overflow): the next read lists, and still sees all.
	ch := n.Changed()
	n.lose()
	mustPost(t, other, SeatPeer, "after the overflow")
	waitWake(t, ch, "a post")
	st, err := r.State()
	if err != nil || len(st.Messages) != 4 {
		t.Fatalf("after the overflow: %d messages, %v", len(st.Messages), err)
	}
	if got := listingsOf(r); got != base+1 {
		t.Fatalf("after lost events the read listed %d times, want 1", got-base)
	}

	// The messages folder removed: the read lists, and says the room is gone.
	ch = n.Changed()
	if err := os.RemoveAll(r.MessagesDir()); err != nil {
		t.Fatal(err)
	}
	waitWake(t, ch, "the folder's removal")
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err = r.State()
		if errors.Is(err, ErrNoRoom) || time.Now().After(deadline) {
			break
		}
		<-n.Changed()
	}
	if !errors.Is(err, ErrNoRoom) {
		t.Fatalf("with its messages folder gone the room reads %v, want ErrNoRoom", err)
	}
}

// The journal holds at most journalCap names between reads; past that it
// is lost, so the reader lists rather than miss one.
func TestJournalLostPastItsCap(t *testing.T) {
	dir := t.TempDir()
	msgsDir, notesDir := filepath.Join(dir, "messages"), filepath.Join(dir, "notes")
	j := newJournal(msgsDir, notesDir)
	if _, _, complete := j.take(); complete {
		t.Fatal("a new journal is complete: the first read must list")
	}
	j.add(filepath.Join(dir, "room.json")) // not its folders
	j.add(filepath.Join(notesDir, "0001-1-abcdef.json"))
	msgs, notes, complete := j.take()
	if !complete || len(msgs) != 0 || len(notes) != 1 || notes[0] != "0001-1-abcdef.json" {
		t.Fatalf("take = %q, %q, %v; want the one note", msgs, notes, complete)
	}
	for i := range journalCap + 1 {
		j.add(filepath.Join(msgsDir, time.Unix(int64(i), 0).Format("150405")+".json"))
	}
	if msgs, notes, complete := j.take(); complete || len(msgs)+len(notes) != 0 {
		t.Fatalf("past the cap: %d names, complete %v; want lost", len(msgs)+len(notes), complete)
	}
}
