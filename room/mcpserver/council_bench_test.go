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

// wakeRoom is a room whose last seat is parked in wait_for_message while
// the benchmark writes the other seats' messages as a writer does (a
// temporary file renamed into place).
type wakeRoom struct {
	r      *room.Room
	seats  []string
	waiter *rawClient
	seq    int
}

func newWakeRoom(b *testing.B, cwd, name string, seats []string) *wakeRoom {
	b.Helper()
	opt := room.CreateOptions{Topic: "bench", Budget: 1 << 30}
	if len(seats) > 2 {
		opt.Seats = seats
	}
	r, _, err := room.Create(cwd, name, opt)
	if err != nil {
		b.Fatal(err)
	}
	last := seats[len(seats)-1]
	w := &wakeRoom{r: r, seats: seats, waiter: startRaw(b, hosttest.PlainBinary(b), "--room", name, "--seat", last, "--cwd", cwd)}
	w.waiter.initialize(b)
	return w
}

// write puts the next message of seat into place; staged, it leaves it
// under a temporary name and returns the rename to do.
func (w *wakeRoom) write(b *testing.B, seat string) func() error {
	w.seq++
	at := time.Now().UTC()
	body := fmt.Sprintf("{\n  \"seq\": %d,\n  \"at\": %q,\n  \"seat\": %q,\n  \"agent\": \"bench\",\n  \"kind\": %q,\n  \"text\": \"ping\"\n}\n",
		w.seq, at.Format(room.TimeLayout), seat, room.DefaultKind(seat))
	tmp := filepath.Join(w.r.MessagesDir(), fmt.Sprintf(".tmp-bench-%d", w.seq))
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		b.Fatal(err)
	}
	final := filepath.Join(w.r.MessagesDir(), fmt.Sprintf("%04d-%d-abcdef.json", w.seq, at.UnixMilli()))
	return func() error { return os.Rename(tmp, final) }
}

// round plays one round of eight messages with the last seat parked. In
// the council, every other seat's message but the one before the parked
// seat's turn lands while it waits (waking it, but not at its turn). In
// the two-seat room, six messages (three of each seat) land before it
// waits and read_room shows them to it, so both rooms hold as many files
// at every round (each wake lists the messages folder). The time measured
// is from the rename of the message just before the parked seat's turn to
// its reply at the client. Its own message is then written, as its post
// would be.
func (w *wakeRoom) round(b *testing.B) time.Duration {
	n := len(w.seats)
	if n == 2 {
		for i := range 6 {
			if err := w.write(b, w.seats[i%2])(); err != nil {
				b.Fatal(err)
			}
		}
		if res := <-w.waiter.tool("read_room", nil); res["error"] != nil {
			b.Fatal(res["error"])
		}
	}
	reply := w.waiter.tool("wait_for_message", map[string]any{"timeout_seconds": 10})
	time.Sleep(2 * time.Millisecond) // let it park
	for _, seat := range w.seats[:n-2] {
		if err := w.write(b, seat)(); err != nil {
			b.Fatal(err)
		}
	}
	rename := w.write(b, w.seats[n-2])
	time.Sleep(2 * time.Millisecond) // let it park again
	t0 := time.Now()
	if err := rename(); err != nil {
		b.Fatal(err)
	}
	res := <-reply
	d := time.Since(t0)
	if res["error"] != nil {
		b.Fatal(res["error"])
	}
	if err := w.write(b, w.seats[n-1])(); err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkCouncilWake: the wake latency to the next seat in an 8-seat
// council against a two-seat room's, in one run, a round of each in turn
// (eight messages in each room): from the rename of the message before a
// seat's turn to that parked seat's reply at the client. In the council
// the parked seat is the last of eight, so the six posts before it also
// reach it, not at its turn, and its reply carries seven messages.
func BenchmarkCouncilWake(b *testing.B) {
	cwd := b.TempDir()
	pair := newWakeRoom(b, cwd, "pair", room.DefaultSeats())
	council := newWakeRoom(b, cwd, "council8", []string{"lead", "s1", "s2", "s3", "s4", "s5", "s6", "s7"})
	var two, eight []time.Duration
	for b.Loop() {
		two = append(two, pair.round(b))
		eight = append(eight, council.round(b))
	}
	p50a, p95a := hosttest.Percentile(two, 0.5), hosttest.Percentile(two, 0.95)
	p50b, p95b := hosttest.Percentile(eight, 0.5), hosttest.Percentile(eight, 0.95)
	b.ReportMetric(float64(p50a.Microseconds())/1000, "two-p50-ms")
	b.ReportMetric(float64(p95a.Microseconds())/1000, "two-p95-ms")
	b.ReportMetric(float64(p50b.Microseconds())/1000, "eight-p50-ms")
	b.ReportMetric(float64(p95b.Microseconds())/1000, "eight-p95-ms")
	b.ReportMetric(float64(p50b)/float64(p50a), "p50-ratio")
	b.ReportMetric(float64(p95b)/float64(p95a), "p95-ratio")
}
