package debate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// shape is what a screen draws of an event stream: every event but the
// tokens, whose text is checked against the turn it builds, and the
// round ends and activity, which the store gives coarser.
func shape(evs []Event) []string {
	var out []string
	for _, ev := range evs {
		switch ev.Type {
		case EventToken, EventRoundEnd, EventActivity, EventRetry:
			continue
		case EventSessionStart:
			out = append(out, fmt.Sprintf("start %q %v %d", ev.Topic, ev.Agents, ev.Rounds))
		case EventDone:
			out = append(out, "done")
		default:
			out = append(out, fmt.Sprintf("%s r%d %s %q incomplete=%v", ev.Type, ev.Round, ev.Agent, ev.Text, ev.Incomplete))
		}
	}
	return out
}

// streamedTurns checks that each turn's tokens add up to its text.
func streamedTurns(t *testing.T, evs []Event) (turns, tokens, verdicts int) {
	t.Helper()
	got := map[string]*strings.Builder{}
	for _, ev := range evs {
		switch ev.Type {
		case EventTurnStart:
			got[ev.Agent] = &strings.Builder{}
		case EventToken:
			b := got[ev.Agent]
			if b == nil { // the verdict: no turn_start
				b = &strings.Builder{}
				got[ev.Agent] = b
			}
			b.WriteString(ev.Text)
			tokens++
		case EventSummary:
			verdicts++
			if b := got["Moderator"]; b == nil || b.String() != ev.Text {
				t.Errorf("the verdict did not stream: %v, then the summary %q", b, ev.Text)
			}
		case EventTurnEnd:
			turns++
			if b := got[ev.Agent]; b.String() != ev.Text {
				t.Errorf("%s's round %d streamed %q, then ended with %q", ev.Agent, ev.Round, b.String(), ev.Text)
			}
		default:
		}
	}
	return turns, tokens, verdicts
}

func TestReadStoreIsTheRunReplayed(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 2, Seed: 3}
	run, r := runRecorded(t, dir, "graphql", cfg, NewMock(0))
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	replay := ReadStore(r.Config(), st, nil)
	if want, got := shape(run), shape(replay); !slices.Equal(want, got) {
		t.Fatalf("the replay differs from the run:\nrun:    %q\nreplay: %q", want, got)
	}
	last := replay[len(replay)-1]
	if last.Type != EventDone || last.Usage == nil || *last.Usage != *run[len(run)-1].Usage {
		t.Fatalf("the replay ends with %+v (usage %+v), the run with usage %+v", last, last.Usage, run[len(run)-1].Usage)
	}
}

func TestFollowStoreStreamsARunInProgress(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Topic: "Cache or not", Personas: DefaultPersonas(), Rounds: 2, Seed: 5}
	eng, err := New(cfg, NewMock(2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(dir, "cache", eng.Config())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	follow, got, err := FollowStore(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	defer follow.Close()
	done := make(chan []Event)
	go func() { done <- collect(t, Record(eng.Run(ctx), NewRecorder(r))) }()
	for !follow.Ended() {
		evs, err := follow.Next(ctx)
		if err != nil {
			t.Fatalf("following the room: %v (after %d events)", err, len(got))
		}
		got = append(got, evs...)
	}
	run := <-done
	if want, have := shape(run), shape(got); !slices.Equal(want, have) {
		t.Fatalf("the store's events differ from the run's:\nrun:   %q\nstore: %q", want, have)
	}
	turns, tokens, verdicts := streamedTurns(t, got)
	if verdicts != 1 {
		t.Fatalf("%d summaries", verdicts)
	}
	if tokens <= turns {
		t.Fatalf("the store streamed %d token events for %d turns: the turns did not stream", tokens, turns)
	}
}

func TestStoreEventsCarryRetriesActivityAndWhoFailed(t *testing.T) {
	r, rc, cfg := draftsRoom(t)
	who := cfg.Personas[0].Name
	follow, first, err := FollowStore(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	defer follow.Close()
	if len(first) != 1 || first[0].Type != EventSessionStart {
		t.Fatalf("an empty room reads as %+v", first)
	}
	handle(t, rc,
		Event{Type: EventTurnStart, Round: 1, Agent: who, Model: "m"},
		Event{Type: EventRetry, Round: 1, Agent: who, Attempt: 2, Attempts: 4, Status: 429, Wait: 1500 * time.Millisecond, Text: "rate limited"},
		Event{Type: EventActivity, Round: 1, Agent: who, Kind: ActivityTool, Text: "read go.mod"},
	)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var got []Event
	for !slices.ContainsFunc(got, func(e Event) bool { return e.Type == EventActivity }) {
		evs, err := follow.Next(ctx)
		if err != nil {
			t.Fatalf("no activity came: %v; got %+v", err, got)
		}
		got = append(got, evs...)
	}
	want := []EventType{EventRoundStart, EventTurnStart, EventRetry, EventActivity}
	var types []EventType
	for _, e := range got {
		types = append(types, e.Type)
	}
	if !slices.Equal(types, want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	rt := got[2]
	if rt.Attempt != 2 || rt.Attempts != 4 || rt.Status != 429 || rt.Wait != 1500*time.Millisecond || rt.Text != "rate limited" || rt.Agent != who {
		t.Fatalf("retry read back as %+v", rt)
	}
	if a := got[3]; a.Kind != ActivityTool || a.Text != "read go.mod" {
		t.Fatalf("activity read back as %+v", a)
	}
	handle(t, rc, Event{Type: EventError, Agent: who, Round: 1, Text: "the provider refused"})
	for !follow.Ended() {
		evs, err := follow.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, evs...)
	}
	last := got[len(got)-1]
	if last.Type != EventError || last.Agent != who || last.Text != "the provider refused" {
		t.Fatalf("the failure read back as %+v", last)
	}
	st, _ := r.State()
	if st.Closed == nil || st.Closed.Seat != who {
		t.Fatalf("closed.json names seat %+v, want %q", st.Closed, who)
	}
}

// TestMCPDraftTokensAreAppends: a played seat's draft of an MCP room grows
// with its kind line first and the lead's CLOSE last, which its post does
// not say; read look by look, the turn's tokens are appends that add up
// to the message's text (seed 002's rule), with nothing to take back.
func TestMCPDraftTokensAreAppends(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "mcp", room.CreateOptions{Topic: "Cache or not", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	reader := NewRoomReader(r.Config())
	look := func() []Event {
		st, err := r.Refresh()
		if err != nil {
			t.Fatal(err)
		}
		ds, err := r.Drafts()
		if err != nil {
			t.Fatal(err)
		}
		return reader.Read(st, ds)
	}
	evs := look()
	started := time.Now()
	final := "We cache reads for **60 s**.\n\nWrites go through."
	for _, d := range []string{
		"ki", "kind: bri", "kind: brief\n", "kind: brief\n\nWe cache", "kind: brief\n\nWe cache reads for **60 s**.\n",
		"kind: brief\n\nWe cache reads for **60 s**.\n\nWrites go through.\nCL", "kind: brief\n\nWe cache reads for **60 s**.\n\nWrites go through.\nCLOSE",
	} {
		if err := r.WriteDraft(room.Draft{Seat: room.SeatLead, Agent: "roundtable:mock", Text: d, StartedAt: started}); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, look()...)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "roundtable:mock", Kind: "brief", Text: final}); err != nil {
		t.Fatal(err)
	}
	if err := r.ClearDraft(room.SeatLead); err != nil {
		t.Fatal(err)
	}
	evs = append(evs, look()...)
	var streamed []string
	for _, ev := range evs {
		if ev.Type == EventToken {
			streamed = append(streamed, ev.Text)
		}
	}
	if turns, _, _ := streamedTurns(t, evs); turns != 1 {
		t.Fatalf("%d turns ended, want 1: %v", turns, shape(evs))
	}
	if len(streamed) < 3 || strings.Contains(strings.Join(streamed, ""), "kind") || strings.Contains(strings.Join(streamed, ""), "CL") {
		t.Errorf("the draft streamed %q: want its body in several appends, no kind line, no CLOSE", streamed)
	}
}
