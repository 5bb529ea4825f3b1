package room

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// A debate room's seats are its personas and the moderator, whatever their
// names hold: each draft gets one safe file, and reads back in seat order.
func TestDraftsOfAnyDebateSeat(t *testing.T) {
	names := []string{"Dr. Ada Lovelace", "../../etc/passwd", "Zoë 李", "a/b\\c", "lead"}
	var ps []PersonaInfo
	for _, n := range names {
		ps = append(ps, PersonaInfo{Name: n, Persona: "x"})
	}
	r, _, err := Create(t.TempDir(), "panel", CreateOptions{Topic: "T", Budget: 2, Mode: ModeDebate, Personas: ps})
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]string{}, names...), SeatModerator)
	if got := r.Config().Seats(); !slices.Equal(got, want) {
		t.Fatalf("seats = %q, want %q", got, want)
	}
	// Written in reverse order, read in seat order.
	for i := len(want) - 1; i >= 0; i-- {
		if err := r.WriteDraft(Draft{Seat: want[i], Text: "text of " + want[i]}); err != nil {
			t.Fatalf("draft of %q: %v", want[i], err)
		}
	}
	if err := r.WriteDraft(Draft{Seat: SeatPeer, Text: "x"}); !errors.Is(err, ErrBadSeat) {
		t.Fatalf("a draft for peer, not a seat of the debate: %v", err)
	}
	entries, err := os.ReadDir(DraftsDir(r.Dir()))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Fatalf("%d files in drafts/, want %d", len(entries), len(want))
	}
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || strings.ContainsAny(n, "/\\ ") || strings.Contains(n, "..") || n != strings.ToLower(n) || !strings.HasSuffix(n, ".json") {
			t.Fatalf("unsafe draft file name %q", n)
		}
	}
	if _, err := os.Stat(filepath.Join(DraftsDir(r.Dir()), "lead.json")); err != nil {
		t.Fatalf("the persona named lead keeps lead.json: %v", err)
	}
	ds, err := r.Drafts()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if d.Text != "text of "+d.Seat {
			t.Fatalf("draft %+v", d)
		}
		got = append(got, d.Seat)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("drafts in order %q, want %q", got, want)
	}
	// A file under one seat's name that claims another seat is skipped.
	if err := os.WriteFile(DraftFile(r.Dir(), names[0]), []byte(`{"seat":"Zoë 李","text":"forged"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.ClearDrafts(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(DraftsDir(r.Dir())); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("after clearing every seat the drafts folder is left: %v", err)
	}
	if err := r.ClearDraft("no\x00seat"); err != nil {
		t.Fatalf("clearing a seat that cannot be: %v", err)
	}
}

func TestSeatsOfAnMCPRoom(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "plain", CreateOptions{Topic: "T", Budget: 2, Seats: []string{SeatLead, SeatPeer}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(r.Dir(), "room.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "seats") {
		t.Fatalf("the default seats were written to room.json:\n%s", data)
	}
	if got := r.Config().Seats(); !slices.Equal(got, DefaultSeats()) {
		t.Fatalf("seats = %q", got)
	}
	three := []string{SeatLead, SeatPeer, "reviewer"}
	r3, _, err := Create(cwd, "three", CreateOptions{Topic: "T", Budget: 2, Seats: three})
	if err != nil {
		t.Fatal(err)
	}
	again, err := Open(cwd, "three")
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Config().Seats(); !slices.Equal(got, three) {
		t.Fatalf("seats read back = %q, want %q", got, three)
	}
	if err := r3.WriteDraft(Draft{Seat: "reviewer", Text: "hm"}); err != nil {
		t.Fatal(err)
	}
	l, err := r3.LockSeat("reviewer")
	if err != nil {
		t.Fatal(err)
	}
	if h := SeatHolder(r3.Dir(), "reviewer"); !h.Live || h.PID != os.Getpid() {
		t.Fatalf("holder of reviewer: %+v", h)
	}
	_ = l.Unlock()
	for _, bad := range [][]string{{"lead", "lead"}, {"solo"}, {"lead", ""}, {"lead", "x\ny"}} {
		if _, _, err := Create(cwd, "bad", CreateOptions{Topic: "T", Budget: 2, Seats: bad}); !errors.Is(err, ErrBadSeat) {
			t.Fatalf("seats %q: %v, want ErrBadSeat", bad, err)
		}
	}
}
