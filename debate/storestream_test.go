package debate

import (
	"context"
	"testing"
)

// TestStreamEndsWithTheRoom: a session's events are its room's. A run
// recorded in its room ends the stream with the room's own final event
// (closed.json), after the run is gone, and the stream closes only then;
// a run that left no end in its room (it could not save it) ends it with
// what end gives.
func TestStreamEndsWithTheRoom(t *testing.T) {
	eng, err := New(Config{Topic: "Adopt Rust?", Personas: DefaultPersonas(), Rounds: 1}, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(t.TempDir(), "", eng.Config())
	if err != nil {
		t.Fatal(err)
	}
	follow, first, err := FollowStore(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range Record(eng.Run(context.Background()), NewRecorder(r)) {
		}
	}()
	usedEnd := false
	var evs []Event
	for ev := range follow.Stream(first, done, func() Event { usedEnd = true; return Event{Type: EventError, Text: "no end"} }) {
		evs = append(evs, ev)
	}
	select {
	case <-done:
	default:
		t.Fatal("the stream closed before the run was gone")
	}
	turns := 0
	for _, ev := range evs {
		if ev.Type == EventTurnEnd {
			turns++
		}
	}
	if last := evs[len(evs)-1]; last.Type != EventDone || usedEnd || turns != len(DefaultPersonas()) {
		t.Fatalf("ended with %+v (end() used: %v) after %d turns; want the room's done after %d", last, usedEnd, turns, len(DefaultPersonas()))
	}
	if evs[0].Type != EventSessionStart {
		t.Fatalf("the stream starts with %s", evs[0].Type)
	}

	// A room its run never closed.
	r2, err := CreateRoom(t.TempDir(), "", eng.Config())
	if err != nil {
		t.Fatal(err)
	}
	follow2, first2, err := FollowStore(context.Background(), r2)
	if err != nil {
		t.Fatal(err)
	}
	gone := make(chan struct{})
	close(gone)
	var last Event
	for ev := range follow2.Stream(first2, gone, func() Event { return Event{Type: EventError, Text: "the room could not be saved"} }) {
		last = ev
	}
	if last.Type != EventError || last.Text != "the room could not be saved" {
		t.Fatalf("a room left open ended the stream with %+v", last)
	}
}
