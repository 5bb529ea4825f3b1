package host

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkRoomPickerPickup measures how long `host --all` takes to serve
// a room created while it runs: from room.Create's start until the host
// serves the room (its tokens issued and printed). The floor is
// room.Create alone, in the same run.
func BenchmarkRoomPickerPickup(b *testing.B) {
	b.Run("floor=create", func(b *testing.B) {
		cwd := b.TempDir()
		i := 0
		for b.Loop() {
			if _, _, err := room.Create(cwd, fmt.Sprintf("r%06d", i), room.CreateOptions{Topic: "t"}); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("create-until-served", func(b *testing.B) {
		cwd := b.TempDir()
		first, _, err := room.Create(cwd, "first", room.CreateOptions{Topic: "t"})
		if err != nil {
			b.Fatal(err)
		}
		tokens, err := room.NewTokenSet([]*room.Room{first})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		h, err := NewHost(ctx, Options{Rooms: []*room.Room{first}, Tokens: tokens})
		if err != nil {
			b.Fatal(err)
		}
		stop, err := PickUpRooms(ctx, cwd, "http://127.0.0.1:1/mcp", h, tokens, io.Discard, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		i := 0
		for b.Loop() {
			name := fmt.Sprintf("r%06d", i)
			i++
			if _, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "t"}); err != nil {
				b.Fatal(err)
			}
			for deadline := time.Now().Add(10 * time.Second); !h.Serves(name); time.Sleep(50 * time.Microsecond) {
				if time.Now().After(deadline) {
					b.Fatalf("room %s not served within 10 s", name)
				}
			}
		}
	})
}
