package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// prefill writes n alternating messages into a new room the way a server
// would, without going through the lock, to set up large rooms quickly.
func prefill(tb testing.TB, cwd, name string, n, budget int) *room.Room {
	tb.Helper()
	r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "bench", Budget: budget})
	if err != nil {
		tb.Fatal(err)
	}
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		seat := room.SeatLead
		if i%2 == 0 {
			seat = room.SeatPeer
		}
		at := base.Add(time.Duration(i) * time.Millisecond)
		body := fmt.Sprintf("{\n  \"seq\": %d,\n  \"at\": %q,\n  \"seat\": %q,\n  \"agent\": \"a\",\n  \"kind\": %q,\n  \"text\": \"message %d with a little text to make it realistic\"\n}\n",
			i, at.Format(room.TimeLayout), seat, room.DefaultKind(seat), i)
		file := fmt.Sprintf("%04d-%d-abcdef.json", i, at.UnixMilli())
		if err := os.WriteFile(filepath.Join(r.MessagesDir(), file), []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return r
}

// BenchmarkWakeLatency: a peer seat process is parked in wait_for_message;
// the benchmark renames a lead message into place, as a writer does, and
// measures from the rename to the peer's reply arriving at the client.
func BenchmarkWakeLatency(b *testing.B) {
	cwd := b.TempDir()
	r := prefill(b, cwd, "wake", 0, 1<<30)
	peer := startRaw(b, hosttest.PlainBinary(b), "--room", "wake", "--seat", "peer", "--cwd", cwd)
	peer.initialize(b)
	var lat []time.Duration
	seq := 0
	for b.Loop() {
		seq++
		at := time.Now().UTC()
		body := fmt.Sprintf("{\n  \"seq\": %d,\n  \"at\": %q,\n  \"seat\": \"lead\",\n  \"agent\": \"bench\",\n  \"kind\": \"brief\",\n  \"text\": \"ping\"\n}\n", seq, at.Format(room.TimeLayout))
		tmp := filepath.Join(r.MessagesDir(), ".tmp-bench")
		if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		reply := peer.tool("wait_for_message", map[string]any{"timeout_seconds": 10})
		time.Sleep(2 * time.Millisecond) // let it park
		t0 := time.Now()
		if err := os.Rename(tmp, filepath.Join(r.MessagesDir(), fmt.Sprintf("%04d-%d-abcdef.json", seq, at.UnixMilli()))); err != nil {
			b.Fatal(err)
		}
		res := <-reply
		lat = append(lat, time.Since(t0))
		if res["error"] != nil {
			b.Fatal(res["error"])
		}
	}
	hosttest.ReportMs(b, lat)
}

func benchTool10k(b *testing.B, tool string, args func(last int) map[string]any) {
	cwd := b.TempDir()
	prefill(b, cwd, "big", 10000, 1<<30)
	c := startRaw(b, hosttest.PlainBinary(b), "--room", "big", "--seat", "lead", "--cwd", cwd)
	c.initialize(b)
	<-c.tool("room_status", nil) // the first call parses the 10,000 files once
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		res := <-c.tool(tool, args(10000))
		lat = append(lat, time.Since(t0))
		if res["error"] != nil {
			b.Fatalf("%s: %v", tool, res["error"])
		}
	}
	hosttest.ReportMs(b, lat)
}

// BenchmarkRoomStatus10k: room_status round trip over stdio in a room of
// 10,000 messages.
func BenchmarkRoomStatus10k(b *testing.B) {
	benchTool10k(b, "room_status", func(int) map[string]any { return nil })
}

// BenchmarkReadRoomSinceLatest10k: read_room {since: latest} in a room of
// 10,000 messages.
func BenchmarkReadRoomSinceLatest10k(b *testing.B) {
	benchTool10k(b, "read_room", func(last int) map[string]any { return map[string]any{"since": last} })
}
