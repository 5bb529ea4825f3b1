package room

import (
	"os"
	"strings"
	"testing"
)

func dotFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestDraftWriterPrepared: drafts written through a DraftWriter, with each
// next write made ready, read as WriteDraft's do; what Prepare makes is
// invisible to readers and gone after Close; a write after the room's
// drafts were cleared (drafts/ removed under it) still lands.
func TestDraftWriterPrepared(t *testing.T) {
	r := newRoom(t, 3)
	w, err := r.DraftWriter(SeatLead)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := r.DraftWriter("nobody"); err == nil {
		t.Fatal("a writer for a seat the room does not have was made")
	}
	if err := w.Write(Draft{Seat: SeatPeer, Text: "x"}); err == nil {
		t.Fatal("the lead's writer wrote the peer's draft")
	}
	text := ""
	for i := range 5 {
		text += " word"
		if err := w.Write(Draft{Seat: SeatLead, Agent: "a", Text: text, Tokens: i + 1}); err != nil {
			t.Fatal(err)
		}
		ds, err := r.Drafts()
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != 1 || ds[0].Text != text || ds[0].Tokens != i+1 {
			t.Fatalf("write %d reads %+v, want the lead's draft %q", i, ds, text)
		}
		w.Prepare()
		if i > 0 && (w.next == nil || w.old == "") {
			t.Fatalf("after write %d Prepare made nothing ready (next %v, old %q)", i, w.next, w.old)
		}
		// The draft on disk still reads the same once its next write is
		// made ready.
		if ds, _ := r.Drafts(); len(ds) != 1 || ds[0].Text != text {
			t.Fatalf("after Prepare the draft reads %+v", ds)
		}
	}
	if n := len(dotFiles(t, DraftsDir(r.Dir()))); n != 2 {
		t.Fatalf("%d files made ready in drafts/, want 2 (the next file and the old draft's second name)", n)
	}
	// Another process clears the room's drafts under the writer.
	if err := os.RemoveAll(DraftsDir(r.Dir())); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(Draft{Seat: SeatLead, Text: "after"}); err != nil {
		t.Fatalf("a write after drafts/ was removed: %v", err)
	}
	if ds, _ := r.Drafts(); len(ds) != 1 || ds[0].Text != "after" {
		t.Fatalf("after drafts/ was removed the write reads %+v", ds)
	}
	w.Prepare()
	w.Close()
	if left := dotFiles(t, DraftsDir(r.Dir())); len(left) != 0 {
		t.Fatalf("Close left %v in drafts/", left)
	}
}

// TestClearDraftsTakesWhatAKilledWriterLeft: a writer killed mid-turn
// leaves its ready files; clearing the room's drafts removes them and
// drafts/ too.
func TestClearDraftsTakesWhatAKilledWriterLeft(t *testing.T) {
	r := newRoom(t, 3)
	w, err := r.DraftWriter(SeatPeer)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := w.Write(Draft{Seat: SeatPeer, Text: "t"}); err != nil {
			t.Fatal(err)
		}
		w.Prepare()
	}
	_ = w.next.Close() // killed: its file is never closed by Close
	if err := r.ClearDrafts(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(DraftsDir(r.Dir())); !os.IsNotExist(err) {
		t.Fatalf("drafts/ after ClearDrafts: %v, want gone", err)
	}
}
