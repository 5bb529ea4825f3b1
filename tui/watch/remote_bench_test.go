package watch

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkRemoteLatency is how long a message takes from its post on the
// host to the remote watcher's mirror, over MCP's streamable HTTP on
// loopback: the host's Notifier wakes the parked observe_room call, the
// reply crosses HTTP, the observer writes the mirror, and the mirror's own
// Notifier (the one the screen waits on) fires. Its floor, measured in the
// same run, is the local path alone: a post to the notification of a
// watcher of the same folder. It reports the median and p95.
func BenchmarkRemoteLatency(b *testing.B) {
	src, _, err := room.Create(b.TempDir(), "far", room.CreateOptions{Topic: "t", Budget: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	post := func() int {
		m, err := src.Record(room.Post{Seat: room.SeatLead, Agent: "a", Text: "a message of a usual length, a line or two of an agent's reply"})
		if err != nil {
			b.Fatal(err)
		}
		return m.Seq
	}
	// measure posts and waits for r (opened on a folder, with its
	// Notifier) to hold the message.
	measure := func(b *testing.B, r *room.Room, n *room.Notifier) {
		var ds []time.Duration
		for b.Loop() {
			start := time.Now()
			seq := post()
			for {
				ch := n.Changed()
				st, err := r.State()
				if err != nil {
					b.Fatal(err)
				}
				if st.LastSeq() >= seq {
					break
				}
				select {
				case <-ch:
				case <-time.After(10 * time.Second):
					b.Fatal("the message never arrived")
				}
			}
			ds = append(ds, time.Since(start))
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64(ds[len(ds)*95/100].Microseconds())/1000, "p95-ms")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	b.Run("floor-local", func(b *testing.B) {
		r, err := room.Open(src.Cwd(), "far")
		if err != nil {
			b.Fatal(err)
		}
		n := room.Watch(ctx, r)
		defer n.Close()
		measure(b, r, n)
	})
	b.Run("remote", func(b *testing.B) {
		host := StartTestHost(b, src, "rt_tok")
		endpoint, label, err := observeURL(host.URL())
		if err != nil {
			b.Fatal(err)
		}
		o := newObserver(endpoint, "rt_tok")
		defer o.close()
		first, _, err := o.observe(ctx, room.Cursor{}, 0)
		if err != nil {
			b.Fatal(err)
		}
		mirror := b.TempDir()
		if err := room.ApplySnapshot(mirror, first); err != nil {
			b.Fatal(err)
		}
		r, err := room.Open(mirror, "far")
		if err != nil {
			b.Fatal(err)
		}
		n := room.Watch(ctx, r)
		defer n.Close()
		loop, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); followRemote(loop, o, mirror, first, NewRemoteLink(label)) }()
		defer func() { stop(); <-done }()
		measure(b, r, n)
	})
}
