package room

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// wakeRooms is how many rooms BenchmarkNotifierWake watches besides the
// one it posts in: below the 128 inotify instances a user has, so the
// benchmark also runs on a store that takes one per room.
const wakeRooms = 50

// BenchmarkNotifierWake: the time from a message renamed into a room's
// messages folder, as a writer does, to the room's Notifier waking, with
// that room watched alone and then among wakeRooms others in the same
// folder (as a host serves them), a wake of each in turn in one run. The
// ratio is the crowded wake's to the lone one's.
func BenchmarkNotifierWake(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lone := benchWatched(b, ctx, b.TempDir(), "lone")
	crowd := b.TempDir()
	for i := range wakeRooms {
		benchWatched(b, ctx, crowd, "r"+strconv.Itoa(i))
	}
	crowded := benchWatched(b, ctx, crowd, "target")
	var alone, among []time.Duration
	seq := 0
	for b.Loop() {
		seq++
		alone = append(alone, benchWake(b, lone, seq))
		among = append(among, benchWake(b, crowded, seq))
	}
	pct := func(d []time.Duration, p float64) time.Duration {
		s := slices.Clone(d)
		slices.Sort(s)
		return s[int(float64(len(s)-1)*p)]
	}
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
	b.ReportMetric(us(pct(alone, 0.5)), "lone-p50-µs")
	b.ReportMetric(us(pct(alone, 0.95)), "lone-p95-µs")
	b.ReportMetric(us(pct(among, 0.5)), "crowd-p50-µs")
	b.ReportMetric(us(pct(among, 0.95)), "crowd-p95-µs")
	b.ReportMetric(float64(pct(among, 0.5))/float64(pct(alone, 0.5)), "p50-ratio")
}

type benchRoom struct {
	dir string
	n   *Notifier
}

func benchWatched(b *testing.B, ctx context.Context, cwd, name string) benchRoom {
	b.Helper()
	r, _, err := Create(cwd, name, CreateOptions{Topic: "bench", Budget: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	n := Watch(ctx, r)
	b.Cleanup(n.Close)
	if !n.Inotify() {
		b.Fatal("inotify unavailable")
	}
	return benchRoom{dir: r.MessagesDir(), n: n}
}

// benchWake writes a message to a temporary name, then measures from its
// rename into place to the Notifier's wake.
func benchWake(b *testing.B, r benchRoom, seq int) time.Duration {
	b.Helper()
	tmp := filepath.Join(r.dir, ".tmp-bench")
	if err := os.WriteFile(tmp, []byte(`{"seq":`+strconv.Itoa(seq)+`}`), 0o644); err != nil {
		b.Fatal(err)
	}
	ch := r.n.Changed()
	t0 := time.Now()
	if err := os.Rename(tmp, filepath.Join(r.dir, fmt.Sprintf("%06d-bench.json", seq))); err != nil {
		b.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		b.Fatal("no wake")
	}
	return time.Since(t0)
}

// BenchmarkHubDispatch: what the shared instance adds to each event, in
// process, with hubRooms rooms watched: finding the room an event is for
// (deliveries), beside handling the event in that room, which its own
// watcher did before too (where a Create also looked again for the room's
// missing folders, notes, drafts and seats, a failed inotify_add_watch
// each: no longer). The event is a message renamed into place in one
// room's messages folder.
func BenchmarkHubDispatch(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cwd := b.TempDir()
	var target benchRoom
	for i := range hubRooms {
		target = benchWatched(b, ctx, cwd, "r"+strconv.Itoa(i))
	}
	h := target.n.hub
	ev := fsnotify.Event{Name: filepath.Join(target.dir, "000001-bench.json"), Op: fsnotify.Create}
	if o := h.deliveries(ev); len(o) != 1 || o[0].d != target.n.DirWatch {
		b.Fatalf("the event goes to %d watchers, want its room's alone", len(o))
	}
	b.Run("find", func(b *testing.B) {
		for b.Loop() {
			h.deliveries(ev)
		}
	})
	b.Run("handle", func(b *testing.B) {
		for b.Loop() {
			target.n.event(ev)
		}
	})
}
