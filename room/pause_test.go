package room

import (
	"path/filepath"
	"testing"
)

// TestPauseFollowedAndMirrored: a debate's pause (paused.json) reaches a
// feed after the messages of its round, written by another Room value as
// another process would, and its end too; a closed room is never paused;
// a mirror takes the pause and its end from snapshots.
func TestPauseFollowedAndMirrored(t *testing.T) {
	cwd, dst := t.TempDir(), t.TempDir()
	r := debateRoom(t, cwd, "paused")
	a, b := "Dr. Ada/Lovelace", "Zoë 李"
	w, err := Open(cwd, "paused")
	if err != nil {
		t.Fatal(err)
	}
	f := feedOf(t, r)
	// The round's two turns, then the pause, all before the feed looks.
	for _, seat := range []string{a, b} {
		if _, err := w.Record(Post{Seat: seat, Agent: "m", Kind: "turn", Text: "said", Round: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetPaused(1); err != nil {
		t.Fatal(err)
	}
	for i, want := range []FeedKind{FeedMessage, FeedMessage, FeedPaused} {
		ev := next(t, f)
		if ev.Kind != want {
			t.Fatalf("event %d is kind %d, want %d (%+v)", i, ev.Kind, want, ev)
		}
		if want == FeedPaused && (ev.Paused == nil || ev.Paused.Round != 1) {
			t.Fatalf("the pause reads %+v, want round 1", ev.Paused)
		}
	}
	c, _ := follow(t, w, dst, Cursor{})
	if c.Paused != 1 {
		t.Fatalf("the mirror's cursor says paused %d, want 1", c.Paused)
	}
	m, err := Open(dst, "paused")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := m.State(); err != nil || st.Paused == nil || st.Paused.Round != 1 || len(st.Messages) != 2 {
		t.Fatalf("the mirror's state: paused %+v, %d messages, err %v; want paused after round 1, 2 messages", st.Paused, len(st.Messages), err)
	}

	// It goes on: the pause ends for the feed and the mirror.
	if err := w.ClearPaused(); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, f); ev.Kind != FeedPaused || ev.Paused != nil {
		t.Fatalf("after the pause ended the feed gave %+v, want FeedPaused with no pause", ev)
	}
	if c, _ = follow(t, w, dst, c); c.Paused != 0 {
		t.Fatalf("the mirror's cursor says paused %d after the pause ended", c.Paused)
	}
	if st, err := m.Refresh(); err != nil || st.Paused != nil {
		t.Fatalf("the mirror is still paused (%+v, %v)", st.Paused, err)
	}

	// Stopped while paused: the marker stays for a resume, but the closed
	// room waits for nobody.
	if err := w.SetPaused(1); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, f); ev.Kind != FeedPaused || ev.Paused == nil {
		t.Fatalf("the second pause gave %+v", ev)
	}
	if _, err := w.Close(CloseOptions{Reason: "cancelled"}); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, f); ev.Kind != FeedPaused || ev.Paused != nil {
		t.Fatalf("closing a paused room gave %+v first, want the pause's end", ev)
	}
	if ev := next(t, f); ev.Kind != FeedClosed {
		t.Fatalf("then %+v, want the close", ev)
	}
	if st, _ := w.State(); st.Paused == nil {
		t.Error("the closed room's state lost its paused.json, which a resume reads")
	}
	if _, err := readRegular(filepath.Join(w.Dir(), PauseFile), 4<<10); err != nil {
		t.Errorf("paused.json is gone from the closed room: %v", err)
	}
}
