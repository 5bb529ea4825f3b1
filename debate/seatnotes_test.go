package debate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestSeatHearsHostNotes: a seat roundtable plays is shown the host's
// notes where they were given, among the messages, marked as the host's
// and as outranking the debate's course, in the model's request and in
// the transcript an agent is sent.
func TestSeatHearsHostNotes(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "heard", room.CreateOptions{Topic: "Should we cache", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	g := &SeatGame{s: SeatSettings{Room: "heard", Seat: room.SeatPeer, Cwd: cwd}, r: r}
	note := func(text string) {
		if _, err := r.AddNote(room.NoteFromHost, text, 0); err != nil {
			t.Fatal(err)
		}
	}
	post := func(seat, text string) {
		if _, _, err := r.PostMessage(room.Post{Seat: seat, Agent: "a", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	note("NOTE-A keep it small")
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	req, err := g.seatRequest(PurposeSeatPeer, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if user := req.Messages[1].Content; !strings.Contains(user, "Nobody has posted yet. The host has written") || !strings.Contains(user, "NOTE-A") {
		t.Fatalf("a note in an empty room:\n%s", user)
	}

	post(room.SeatLead, "MSG-1 brief")
	note("NOTE-B quote the benchmark")
	post(room.SeatPeer, "MSG-2 answer")
	post(room.SeatLead, "MSG-3 question")
	if st, err = r.Refresh(); err != nil {
		t.Fatal(err)
	}
	req, err = g.seatRequest(PurposeSeatPeer, st, 0)
	if err != nil {
		t.Fatal(err)
	}
	user := req.Messages[1].Content
	last := -1
	for _, w := range []string{"NOTE-A", "MSG-1", "NOTE-B", "MSG-2", "MSG-3"} {
		i := strings.Index(user, w)
		if i <= last {
			t.Fatalf("%s out of place in:\n%s", w, user)
		}
		last = i
	}
	if !strings.Contains(user, "note 2 from the host (the person running this room; it outranks the course of the debate)") {
		t.Fatalf("the note is not marked as the host's:\n%s", user)
	}
	var agents []string
	for _, tr := range req.Info.Transcript {
		agents = append(agents, tr.Agent)
	}
	if got := strings.Join(agents, ","); got != "host,lead,host,peer,lead" {
		t.Fatalf("transcript speakers %s", got)
	}
	if tr := req.Info.Transcript[2]; tr.Text != "NOTE-B quote the benchmark" || !strings.Contains(tr.Model, "outranks") {
		t.Fatalf("note turn %+v", tr)
	}
}

// TestSeatSpecIsNoDraft: the lead's turn leaves its draft for its post to
// replace, but the spec the lead composes writes none: a draft would read
// as a turn (a round past the budget) in the lead's column, and could
// outlive the close.
func TestSeatSpecIsNoDraft(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "spec", room.CreateOptions{Topic: "Should we cache", Budget: 1})
	if err != nil {
		t.Fatal(err)
	}
	g := &SeatGame{
		s: SeatSettings{Room: "spec", Seat: room.SeatLead, Cwd: cwd, DraftEvery: DefaultDraftEvery, TurnTimeout: time.Minute}, r: r, label: "roundtable:acp:scripted", cap: TurnTokenCap(0),
		p: seatProvider{Provider: &scriptedSeat{replies: []string{"kind: brief\n\nCache reads.", "# Spec\n\nCache reads for 60 s."}}},
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	drafts := func() []room.Draft {
		ds, err := r.Drafts()
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	if _, _, err := g.compose(context.Background(), PurposeSeatLead, st, 0); err != nil {
		t.Fatal(err)
	}
	if ds := drafts(); len(ds) != 1 || !strings.Contains(ds[0].Text, "Cache reads.") {
		t.Fatalf("the lead's turn left drafts %+v, want its text", ds)
	}
	if err := r.ClearDraft(room.SeatLead); err != nil {
		t.Fatal(err)
	}
	text, _, err := g.compose(context.Background(), PurposeSeatSpec, st, 0)
	if err != nil || !strings.Contains(text, "# Spec") {
		t.Fatalf("the spec: %q, %v", text, err)
	}
	if ds := drafts(); len(ds) != 0 {
		t.Errorf("composing the spec wrote a draft: %+v", ds)
	}
}
