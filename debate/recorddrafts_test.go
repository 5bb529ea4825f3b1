package debate

import (
	"errors"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// draftsRoom is a debate room for two personas and a moderator, and a
// recorder writing into it.
func draftsRoom(t *testing.T) (*room.Room, *Recorder, Config) {
	t.Helper()
	cfg, err := Config{Topic: "t", Personas: DefaultPersonas()[:2]}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(t.TempDir(), "drafted", cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r, NewRecorder(r), cfg
}

// waitDraft waits until seat's draft in r reads text, and fails after a
// generous while (the writer writes within DraftInterval).
func waitDraft(t *testing.T, r *room.Room, seat, text string) room.Draft {
	t.Helper()
	var last []room.Draft
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		last, _ = r.Drafts()
		for _, d := range last {
			if d.Seat == seat && d.Text == text {
				return d
			}
		}
	}
	t.Fatalf("the %s draft never read %q; drafts %+v", seat, text, last)
	return room.Draft{}
}

// noDrafts fails unless the room's drafts folder holds no file.
func noDrafts(t *testing.T, r *room.Room, when string) {
	t.Helper()
	entries, err := os.ReadDir(room.DraftsDir(r.Dir()))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s: drafts/%s is left", when, e.Name())
	}
}

func handle(t *testing.T, rc *Recorder, evs ...Event) {
	t.Helper()
	for _, ev := range evs {
		if err := rc.Handle(ev); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRecorderWritesTheTurnInProgressAsADraft(t *testing.T) {
	r, rc, cfg := draftsRoom(t)
	a, b := cfg.Personas[0].Name, cfg.Personas[1].Name
	handle(t, rc,
		Event{Type: EventSessionStart, Topic: "t", Agents: cfg.Names(), Rounds: 1},
		Event{Type: EventRoundStart, Round: 1},
		Event{Type: EventTurnStart, Round: 1, Agent: a, Model: "m1"},
		Event{Type: EventToken, Round: 1, Agent: a, Text: "hello "},
		Event{Type: EventToken, Round: 1, Agent: a, Text: "world"},
	)
	d := waitDraft(t, r, a, "hello world")
	if d.Agent != "m1" || d.StartedAt.IsZero() {
		t.Fatalf("draft %+v", d)
	}
	handle(t, rc, Event{Type: EventTurnEnd, Round: 1, Agent: a, Model: "m1", Text: "hello world"})
	// The turn's end wrote the message and removed the draft before
	// Handle returned.
	noDrafts(t, r, "after the turn ended")
	st, err := r.State()
	if err != nil || len(st.Messages) != 1 || st.Messages[0].Text != "hello world" {
		t.Fatalf("messages %+v, %v", st.Messages, err)
	}
	// The moderator's tokens are the moderator seat's draft.
	handle(t, rc,
		Event{Type: EventTurnStart, Round: 1, Agent: b, Model: "m2"},
		Event{Type: EventToken, Round: 1, Agent: b, Text: "second"},
		Event{Type: EventToken, Round: 1, Agent: cfg.Moderator.Name, Text: "**Decision:** so"},
	)
	waitDraft(t, r, b, "second")
	waitDraft(t, r, room.SeatModerator, "**Decision:** so")
	handle(t, rc,
		Event{Type: EventTurnEnd, Round: 1, Agent: b, Model: "m2", Text: "second"},
		Event{Type: EventRoundEnd, Round: 1},
		Event{Type: EventSummary, Round: 1, Text: "**Decision:** so", Model: "m0"},
	)
	noDrafts(t, r, "after the verdict")
	handle(t, rc, Event{Type: EventDone})
	noDrafts(t, r, "after the close")
	if st, _ := r.State(); len(st.Messages) != 3 || st.Closed == nil {
		t.Fatalf("state %+v", st)
	}
}

func TestRecorderClearsDraftsOfCutAndFailedTurns(t *testing.T) {
	r, rc, cfg := draftsRoom(t)
	a, b := cfg.Personas[0].Name, cfg.Personas[1].Name
	handle(t, rc,
		Event{Type: EventTurnStart, Round: 1, Agent: a, Model: "m"},
		Event{Type: EventToken, Round: 1, Agent: a, Text: "half a"},
	)
	waitDraft(t, r, a, "half a")
	// A cut turn: its message waits for the error saying why.
	handle(t, rc, Event{Type: EventTurnEnd, Round: 1, Agent: a, Model: "m", Text: "half a", Incomplete: true})
	// Another seat's turn still streaming when the debate fails.
	rc2 := rc.drafts
	rc2.token(b, "never ended")
	waitDraft(t, r, b, "never ended")
	handle(t, rc, Event{Type: EventError, Text: "the provider failed"})
	noDrafts(t, r, "after the failure")
	st, _ := r.State()
	if len(st.Messages) != 1 || st.Messages[0].Kind != KindIncomplete || st.Closed == nil {
		t.Fatalf("state %+v", st)
	}
	// Tokens after the close write nothing and start no writer.
	rc2.token(b, "late")
	noDrafts(t, r, "after a late token")
}

func TestRecorderWithoutDraftsWritesNone(t *testing.T) {
	r, rc, cfg := draftsRoom(t)
	rc.WithoutDrafts()
	a := cfg.Personas[0].Name
	handle(t, rc,
		Event{Type: EventTurnStart, Round: 1, Agent: a},
		Event{Type: EventToken, Round: 1, Agent: a, Text: "x"},
		Event{Type: EventTurnEnd, Round: 1, Agent: a, Text: "x"},
		Event{Type: EventDone},
	)
	if _, err := os.Stat(room.DraftsDir(r.Dir())); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("drafts folder with drafts off: %v", err)
	}
}

// A whole mock debate recorded through the store leaves no draft.
func TestRecordedDebateLeavesNoDrafts(t *testing.T) {
	dir := t.TempDir()
	evs, r := runRecorded(t, dir, "clean", Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 2}, NewMock(0))
	if evs[len(evs)-1].Type != EventDone {
		t.Fatalf("ended with %+v", evs[len(evs)-1])
	}
	noDrafts(t, r, "after a whole debate")
	if _, err := os.Stat(room.DraftsDir(r.Dir())); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a closed debate room keeps its drafts folder: %v", err)
	}
}
