package room

import (
	"context"
	"fmt"
	"testing"
)

// benchObserved is a room of 1,000 messages, a server.log and a draft,
// with a Notifier attached (as a host has), and the cursor of a watcher
// that has it all.
func benchObserved(b *testing.B) (*Room, Cursor) {
	b.Helper()
	r, _, err := Create(b.TempDir(), "observed", CreateOptions{Budget: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		seat := SeatLead
		if i%2 == 1 {
			seat = SeatPeer
		}
		if _, _, err := r.PostMessage(Post{Seat: seat, Agent: "a", Text: fmt.Sprintf("## Point %d\n\nA paragraph of about the length agents write.", i)}); err != nil {
			b.Fatal(err)
		}
		if err := r.Log(EventCall, F("seat", seat), F("tool", "post")); err != nil {
			b.Fatal(err)
		}
	}
	if err := r.WriteDraft(Draft{Seat: SeatLead, Agent: "a", Text: "half"}); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := Watch(ctx, r)
	b.Cleanup(func() { cancel(); n.Close() })
	c := Cursor{}
	for {
		s, err := r.Snapshot(c)
		if err != nil {
			b.Fatal(err)
		}
		if s.Empty() {
			return r, c
		}
		c = s.Next
	}
}

// BenchmarkSnapshotNothingNew is what an observe_room call costs when the
// watcher is up to date (each wake-up of a parked call); State, what every
// seat's read costs, is its floor.
func BenchmarkSnapshotNothingNew(b *testing.B) {
	r, c := benchObserved(b)
	b.Run("floor-State", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.State(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Snapshot", func(b *testing.B) {
		for b.Loop() {
			s, err := r.Snapshot(c)
			if err != nil || !s.Empty() {
				b.Fatalf("%+v, %v", s, err)
			}
		}
	})
	b.Run("poll", func(b *testing.B) {
		// What a parked call without a Notifier does every ObservePoll:
		// stat server.log and the drafts.
		files := append([]string{r.dir + "/" + LogFile}, r.DraftFiles()...)
		for b.Loop() {
			_ = StatSig(files...)
		}
	})
}
