package room

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkOpenState10k opens a room of 10,000 messages and reads it all,
// as a new reader (the transcript command, the watch screen) does.
func BenchmarkOpenState10k(b *testing.B) {
	cwd := b.TempDir()
	r, _, err := Create(cwd, "big", CreateOptions{Budget: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := 1; i <= 10000; i++ {
		seat := SeatLead
		if i%2 == 0 {
			seat = SeatPeer
		}
		at := base.Add(time.Duration(i) * time.Millisecond)
		data, _ := encodeJSON(Message{Seq: i, At: formatTime(at), Seat: seat, Agent: "a", Kind: DefaultKind(seat), Text: fmt.Sprintf("## Point %d\n\nA paragraph of about the length agents write, with `code` and a [link](https://example.com).", i)})
		if err := writeAtomic(r.MessagesDir()+"/"+messageFileName(i, at, "abcdef"), data); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		r2, err := Open(cwd, "big")
		if err != nil {
			b.Fatal(err)
		}
		st, err := r2.State()
		if err != nil || len(st.Messages) != 10000 {
			b.Fatalf("%d messages, %v", len(st.Messages), err)
		}
	}
}
