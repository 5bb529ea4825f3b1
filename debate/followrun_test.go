package debate

import (
	"os"
	"testing"
)

// TestFollowRunNeedsItsRoom: a run whose room cannot be read is not
// started (every event of a session comes from its room): followRun says
// why, and the engine's stream is never asked for.
func TestFollowRunNeedsItsRoom(t *testing.T) {
	eng, err := New(Config{Topic: "T", Personas: DefaultPersonas(), Rounds: 1}, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(t.TempDir(), "", eng.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(r.MessagesDir()); err != nil {
		t.Fatal(err)
	}
	started := false
	evs, err := followRun(r, false, func() <-chan Event {
		started = true
		return nil
	})
	if err == nil || evs != nil || started {
		t.Fatalf("followRun on a room with no messages folder: %v, stream %v, started %v; want an error and nothing started", err, evs, started)
	}
}
