package room

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDraftsAreWrittenReadAndNeverCounted(t *testing.T) {
	r, _, err := Create(t.TempDir(), "drafty", CreateOptions{Topic: "Drafts", Budget: 4})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC)
	if err := r.WriteDraft(Draft{Seat: SeatPeer, Agent: "roundtable:mock", StartedAt: at, Text: "half a <thought>"}); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteDraft(Draft{Seat: SeatLead, Agent: "roundtable:acp:codex", StartedAt: at, Text: "first"}); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteDraft(Draft{Seat: "moderator", Text: "x"}); err == nil {
		t.Fatal("a draft for seat moderator was accepted")
	}
	// A torn file and a stray name are skipped, not fatal.
	if err := os.WriteFile(filepath.Join(DraftsDir(r.Dir()), "other.json"), []byte(`{"seat":"other"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := r.Drafts()
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].Seat != SeatLead || ds[1].Text != "half a <thought>" || !ds[1].StartedAt.Equal(at) {
		t.Fatalf("drafts = %+v", ds)
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 0 || st.Turn != SeatLead {
		t.Fatalf("a draft changed the room's state: %d messages, turn %s", len(st.Messages), st.Turn)
	}
	if err := r.ClearDraft(SeatPeer); err != nil {
		t.Fatal(err)
	}
	if err := r.ClearDraft(SeatPeer); err != nil {
		t.Fatalf("clearing a cleared draft: %v", err)
	}
	if ds, _ := r.Drafts(); len(ds) != 1 || ds[0].Seat != SeatLead {
		t.Fatalf("after clearing the peer: %+v", ds)
	}
}
