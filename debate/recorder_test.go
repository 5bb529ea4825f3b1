package debate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

func TestRoomName(t *testing.T) {
	at := time.Date(2026, 11, 30, 14, 20, 10, 0, time.UTC)
	tests := map[string]string{
		"Should we adopt GraphQL?":   "should-we-adopt-graphql-20261130-142010",
		"  ../../etc/passwd  ":       "etc-passwd-20261130-142010",
		"日本語のトピック":                   "debate-20261130-142010",
		"":                           "debate-20261130-142010",
		"Café: naïve résumé parsing": "caf-na-ve-r-sum-parsing-20261130-142010",
		strings.Repeat("very long topic words ", 10): "very-long-topic-words-very-long-topic-20261130-142010",
	}
	for topic, want := range tests {
		got := RoomName(topic, at)
		if got != want {
			t.Errorf("RoomName(%q) = %q, want %q", topic, got, want)
		}
		if err := room.ValidateName(got); err != nil {
			t.Errorf("RoomName(%q) = %q is not a valid room name: %v", topic, got, err)
		}
	}
}

// runRecorded runs a debate into a fresh room under dir and returns the
// events seen through Record and the room.
func runRecorded(t *testing.T, dir, name string, cfg Config, p Provider) ([]Event, *room.Room) {
	t.Helper()
	eng, err := New(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(dir, name, eng.Config())
	if err != nil {
		t.Fatal(err)
	}
	return collect(t, Record(eng.Run(context.Background()), NewRecorder(r))), r
}

func TestRecordedDebateReadsBack(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 2, Seed: 3}
	evs, _ := runRecorded(t, dir, "graphql", cfg, NewMock(0))
	if evs[len(evs)-1].Type != EventDone {
		t.Fatalf("ended with %+v", evs[len(evs)-1])
	}
	r, err := room.Open(dir, "graphql")
	if err != nil {
		t.Fatal(err)
	}
	c := r.Config()
	if !c.IsDebate() || c.Topic != cfg.Topic || c.Rounds != 2 || c.Budget != 2 || !slices.Equal(c.Agents, cfg.Names()) {
		t.Fatalf("room.json %+v", c)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Messages) != 7 {
		t.Fatalf("%d messages, want 6 turns and a verdict", len(st.Messages))
	}
	var turnEnds []Event
	var summary Event
	for _, ev := range evs {
		if ev.Type == EventTurnEnd {
			turnEnds = append(turnEnds, ev)
		}
		if ev.Type == EventSummary {
			summary = ev
		}
	}
	for i, m := range st.Messages[:6] {
		want := turnEnds[i]
		if m.Seat != want.Agent || m.Round != want.Round || m.Kind != KindTurn || m.Text != want.Text || m.Agent != "mock" || m.Seq != i+1 {
			t.Errorf("message %d: %+v, want the turn_end %+v", i, m, want)
		}
	}
	v := st.Messages[6]
	if v.Seat != room.SeatModerator || v.Kind != room.KindSummary || v.Text != summary.Text || v.Round != 2 || !strings.HasPrefix(v.Text, "**Decision:**") {
		t.Errorf("verdict %+v", v)
	}
	if st.Closed == nil || st.Closed.Reason != ReasonComplete {
		t.Fatalf("closed %+v, want %q", st.Closed, ReasonComplete)
	}
	if len(st.Skipped) != 0 {
		t.Fatalf("skipped files %v", st.Skipped)
	}
}

func TestRecordedCancelKeepsPartialTurn(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 2}, NewMock(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(dir, "", eng.Config())
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	tokens := 0
	for ev := range Record(eng.Run(ctx), NewRecorder(r)) {
		evs = append(evs, ev)
		if ev.Type == EventToken && ev.Agent == "Software Architect" {
			if tokens++; tokens == 4 {
				cancel()
			}
		}
	}
	partial := evs[len(evs)-2]
	if !partial.Incomplete {
		t.Fatalf("no partial turn: %+v", partial)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != ReasonCancelled {
		t.Fatalf("closed %+v", st.Closed)
	}
	last := st.Messages[len(st.Messages)-1]
	if len(st.Messages) != 2 || last.Kind != KindIncomplete || last.Seat != "Software Architect" ||
		!strings.HasPrefix(last.Text, strings.TrimRight(partial.Text, " \n")) || !strings.HasSuffix(last.Text, "*[incomplete: cancelled]*") {
		t.Fatalf("messages %+v", st.Messages)
	}
}

func TestRecordedFailureClosesWithCause(t *testing.T) {
	dir := t.TempDir()
	p := &script{name: "openrouter", failAt: func(req Request, tok int) error {
		if req.Info.Speaker.Name == "Security Reviewer" && tok == 2 {
			return &StatusError{StatusCode: 503}
		}
		return nil
	}}
	evs, r := runRecorded(t, dir, "fails", Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 1}, p)
	last := evs[len(evs)-1]
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != ReasonFailed+last.Text || !strings.Contains(st.Closed.Reason, "HTTP 503") {
		t.Fatalf("closed %+v", st.Closed)
	}
	kinds := []string{}
	for _, m := range st.Messages {
		kinds = append(kinds, m.Kind)
	}
	if !slices.Equal(kinds, []string{KindTurn, KindTurn, KindIncomplete}) {
		t.Fatalf("kinds %v", kinds)
	}
	if inc := st.Messages[2].Text; !strings.Contains(inc, "*[incomplete: openrouter failed during Security Reviewer's turn") {
		t.Fatalf("incomplete note: %q", inc)
	}
}

func TestRecordSaveFailureTurnsDoneIntoError(t *testing.T) {
	dir := t.TempDir()
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas()[:1], Rounds: 1}, &script{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(dir, "gone", eng.Config())
	if err != nil {
		t.Fatal(err)
	}
	// The room disappears under the recorder.
	if err := os.RemoveAll(filepath.Join(dir, room.Folder, "gone")); err != nil {
		t.Fatal(err)
	}
	evs := collect(t, Record(eng.Run(context.Background()), NewRecorder(r)))
	last := evs[len(evs)-1]
	if last.Type != EventError || !errors.Is(last.Err, ErrSave) || !strings.Contains(last.Text, "could not save") {
		t.Fatalf("last %+v", last)
	}
	if err := invariantErr(evs, eng.Config()); err != nil {
		t.Fatal(err)
	}
}

func TestRecordWithoutTerminal(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := Config{Topic: "t", Personas: DefaultPersonas()}.Normalize()
	r, err := CreateRoom(dir, "broken", cfg)
	if err != nil {
		t.Fatal(err)
	}
	in := make(chan Event, 4)
	in <- Event{Type: EventSessionStart, Topic: "t", Agents: cfg.Names(), Rounds: 3}
	in <- Event{Type: EventTurnEnd, Round: 1, Agent: "Product Manager", Text: "half", Incomplete: true}
	close(in)
	evs := collect(t, Record(in, NewRecorder(r)))
	if last := evs[len(evs)-1]; last.Type != EventError {
		t.Fatalf("last %+v", last)
	}
	st, _ := r.State()
	if st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, ReasonFailed) || len(st.Messages) != 1 || st.Messages[0].Kind != KindIncomplete {
		t.Fatalf("state %+v", st)
	}
}

func TestCreateRoom(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := Config{Topic: "Same topic", Personas: DefaultPersonas()}.Normalize()
	a, err := CreateRoom(dir, "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := CreateRoom(dir, "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Config().Room == b.Config().Room {
		t.Fatalf("two debates share room %s", a.Config().Room)
	}
	if _, err := CreateRoom(dir, a.Config().Room, cfg); !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("an existing --room: %v", err)
	}
	if _, err := CreateRoom(dir, "../escape", cfg); !errors.Is(err, ErrBadConfig) {
		t.Fatalf("a bad --room: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "escape")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a bad name created something")
	}
}
