package watch

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
)

// TestLiveDraft: a seat roundtable plays writes its draft through the
// store; the screen names the seat's mind from server.log, shows the draft
// dim under the transcript as it grows (raw HTML as text), and replaces it
// with the message once posted.
func TestLiveDraft(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "drafty", room.CreateOptions{Topic: "Draft topic", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Log("connect", room.F("seat", "lead"), room.F("agent", "claude-code"), room.F("pid", 6)); err != nil {
		t.Fatal(err)
	}
	if err := r.Log("connect", room.F("seat", "peer"), room.F("agent", "roundtable:openai/gpt-4o-mini"), room.F("pid", 7)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: "lead", Agent: "claude-code", Text: "alpha brief from the lead"}); err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: "drafty", ExportDir: t.TempDir(), Dark: true, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	rec := newRecorder(m)
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(100, 30))
	rec.waitText(t, "alpha brief from the lead")
	rec.waitText(t, "lead  an agent over MCP (claude-code)")
	rec.waitText(t, "peer  roundtable · model openai/gpt-4o-mini")
	if strings.Contains(rec.frame(), "is writing") {
		t.Fatalf("a draft shown before any was written:\n%s", rec.frame())
	}

	started := time.Now().UTC()
	if err := r.WriteDraft(room.Draft{Seat: "peer", Agent: "roundtable:openai/gpt-4o-mini", StartedAt: started, Text: "First <b>thoughts</b>"}); err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "peer is writing… roundtable:openai/gpt-4o-mini")
	rec.waitText(t, "First <b>thoughts</b>")
	if err := r.WriteDraft(room.Draft{Seat: "peer", Agent: "roundtable:openai/gpt-4o-mini", StartedAt: started, Text: "First <b>thoughts</b>, then a second clause"}); err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "then a second clause")
	// The position counts messages, not drafts.
	if f := rec.frame(); !strings.Contains(f, "following · 1 of 1") {
		t.Errorf("the position counts the draft:\n%s", f)
	}

	if _, _, err := r.PostMessage(room.Post{Seat: "peer", Agent: "roundtable:openai/gpt-4o-mini", Text: "bravo final answer from the peer"}); err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "bravo final answer from the peer")
	// The draft file is still there (the seat clears it after posting):
	// a message of the seat's since the draft began replaces it anyway.
	if f := rec.frame(); strings.Contains(f, "is writing") || strings.Contains(f, "second clause") {
		t.Errorf("the draft is still shown beside its message:\n%s", f)
	}
	if err := r.ClearDraft("peer"); err != nil {
		t.Fatal(err)
	}
	// A new draft of the next turn shows again, the lead's this time.
	if err := r.WriteDraft(room.Draft{Seat: "lead", StartedAt: time.Now().UTC(), Text: ""}); err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "lead is writing…")
	if err := r.ClearDraft("lead"); err != nil {
		t.Fatal(err)
	}
	rec.waitFrame(t, "the draft gone", func(f string) bool { return !strings.Contains(f, "is writing") })
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

func TestWhoFills(t *testing.T) {
	running := seatproc.Status{Mind: "acp:codex", PID: 9, Running: true}
	for _, tt := range []struct {
		si      room.SeatInfo
		proc    seatproc.Status
		started bool
		want    string
	}{
		{room.SeatInfo{Seat: "lead", Agent: "claude-code", State: room.StateParked}, seatproc.Status{}, false, "an agent over MCP (claude-code)"},
		{room.SeatInfo{Seat: "lead", State: room.StateParked}, seatproc.Status{}, false, "an agent over MCP"},
		{room.SeatInfo{Seat: "peer", Agent: "roundtable:gpt-4o-mini", State: room.StateThinking}, seatproc.Status{}, false, "roundtable · model gpt-4o-mini"},
		{room.SeatInfo{Seat: "peer", Agent: "roundtable:acp:codex", State: room.StateThinking}, running, true, "roundtable · acp:codex"},
		{room.SeatInfo{Seat: "peer", Agent: "roundtable:\x1b[31mred", State: room.StateThinking}, seatproc.Status{}, false, "roundtable · model ␛[31mred"},
		{room.SeatInfo{Seat: "peer", State: room.StateAbsent}, running, true, "roundtable · acp:codex"},
		{room.SeatInfo{Seat: "peer", State: room.StateAbsent}, seatproc.Status{}, false, "—"},
	} {
		if got := whoFills(tt.si, tt.proc, tt.started); got != tt.want {
			t.Errorf("%+v: got %q, want %q", tt.si, got, tt.want)
		}
	}
}
