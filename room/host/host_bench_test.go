package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// benchSession connects the go-sdk client to a host for a benchmark.
func benchSession(b *testing.B, url, token, proto string) *sdk.ClientSession {
	b.Helper()
	cs, err := hosttest.DialHTTP(url, hosttest.HTTPClient(token, nil), proto)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callErr(cs *sdk.ClientSession, name string, args map[string]any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, callParams(name, args))
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("%s refused: %v", name, res.Content)
	}
	return nil
}

// BenchmarkHostWakeHTTP: a peer on HTTP (an MCP session, loopback) is
// parked in wait_for_message in a `roundtable host` process; the benchmark
// renames a lead message into place, as a writer does, and measures from
// the rename to the peer's reply arriving at the client. rtt is a
// room_status round trip over the same session, the transport's floor.
func BenchmarkHostWakeHTTP(b *testing.B) {
	cwd := b.TempDir()
	toks := issueTokens(b, cwd, "wake", 1<<30)
	r, err := room.Open(cwd, "wake")
	if err != nil {
		b.Fatal(err)
	}
	h := hosttest.StartBin(b, hosttest.PlainBinary(b), "--rate-limit", "1000000", "--room", "wake", "--cwd", cwd)
	peer := benchSession(b, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	var rtt []time.Duration
	for range 50 {
		t0 := time.Now()
		if err := callErr(peer, "room_status", nil); err != nil {
			b.Fatal(err)
		}
		rtt = append(rtt, time.Since(t0))
	}
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
		reply := make(chan error, 1)
		go func() { reply <- callErr(peer, "wait_for_message", map[string]any{"timeout_seconds": 10}) }()
		time.Sleep(10 * time.Millisecond) // let it park
		t0 := time.Now()
		if err := os.Rename(tmp, filepath.Join(r.MessagesDir(), fmt.Sprintf("%04d-%d-abcdef.json", seq, at.UnixMilli()))); err != nil {
			b.Fatal(err)
		}
		if err := <-reply; err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	hosttest.ReportMs(b, lat)
	b.ReportMetric(float64(hosttest.Percentile(rtt, 0.5).Microseconds())/1000, "rtt-p50-ms")
}

// BenchmarkHostPostWakeHTTP: the lead posts over HTTP and the peer, parked
// over HTTP, wakes: from the lead's call to the peer's reply at its client.
func BenchmarkHostPostWakeHTTP(b *testing.B) {
	cwd := b.TempDir()
	toks := issueTokens(b, cwd, "pw", 1<<30)
	h := hosttest.StartBin(b, hosttest.PlainBinary(b), "--rate-limit", "1000000", "--room", "pw", "--cwd", cwd)
	lead := benchSession(b, h.URL, toks[room.GrantLead], hosttest.ProtoLegacy)
	peer := benchSession(b, h.URL, toks[room.GrantPeer], hosttest.ProtoLegacy)
	var lat []time.Duration
	for b.Loop() {
		reply := make(chan error, 1)
		go func() { reply <- callErr(peer, "wait_for_message", map[string]any{"timeout_seconds": 10}) }()
		time.Sleep(10 * time.Millisecond)
		t0 := time.Now()
		if err := callErr(lead, "post", map[string]any{"text": "ping"}); err != nil {
			b.Fatal(err)
		}
		if err := <-reply; err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		if err := callErr(peer, "post", map[string]any{"text": "pong"}); err != nil {
			b.Fatal(err)
		}
	}
	hosttest.ReportMs(b, lat)
}

// BenchmarkHostPosts: 20 rooms, each with a lead and a peer posting in
// turn over HTTP as fast as they can; reports the posts per second the
// host sustains and how many acknowledged posts are not on disk (lost).
// Each iteration is one post.
func BenchmarkHostPosts(b *testing.B) {
	const rooms = 20
	cwd := b.TempDir()
	toks := make([]map[string]string, rooms)
	for i := range rooms {
		toks[i] = issueTokens(b, cwd, fmt.Sprintf("posts-%02d", i), 1<<30)
	}
	h := hosttest.StartBin(b, hosttest.PlainBinary(b), "--rate-limit", "1000000", "--all", "--cwd", cwd)
	type pair struct{ lead, peer *sdk.ClientSession }
	pairs := make([]pair, rooms)
	for i := range rooms {
		pairs[i] = pair{benchSession(b, h.URL, toks[i][room.GrantLead], hosttest.ProtoLegacy), benchSession(b, h.URL, toks[i][room.GrantPeer], hosttest.ProtoLegacy)}
	}
	floor := storeFloor(b, rooms, b.N)
	var next, acked atomic.Int64
	var failed atomic.Value
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	total := int64(b.N)
	for i := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; next.Add(1) <= total; n++ {
				s := pairs[i].lead
				if n%2 == 1 {
					s = pairs[i].peer
				}
				if err := callErr(s, "post", map[string]any{"text": fmt.Sprintf("post %d", n)}); err != nil {
					failed.Store(err)
					return
				}
				acked.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	onDisk := 0
	for i := range rooms {
		r, err := room.Open(cwd, fmt.Sprintf("posts-%02d", i))
		if err != nil {
			b.Fatal(err)
		}
		st, err := r.State()
		if err != nil {
			b.Fatal(err)
		}
		onDisk += len(st.Messages)
	}
	b.ReportMetric(float64(acked.Load())/elapsed.Seconds(), "posts/s")
	b.ReportMetric(floor, "floor-posts/s")
	b.ReportMetric(float64(acked.Load()-int64(onDisk)), "lost")
	_ = h.Stop()
}

// storeFloor is the posts per second of the store alone in the same run:
// n posts through room.PostMessage, in-process, across rooms rooms of
// their own, one goroutine a room, as the host's seats post.
func storeFloor(b *testing.B, rooms, n int) float64 {
	b.Helper()
	cwd := b.TempDir()
	rs := make([]*room.Room, rooms)
	for i := range rooms {
		r, _, err := room.Create(cwd, fmt.Sprintf("floor-%02d", i), room.CreateOptions{Topic: "floor", Budget: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		rs[i] = r
	}
	var next atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for i := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; next.Add(1) <= int64(n); k++ {
				seat := room.SeatLead
				if k%2 == 1 {
					seat = room.SeatPeer
				}
				if _, _, err := rs[i].PostMessage(room.Post{Seat: seat, Agent: seat, Text: fmt.Sprintf("post %d", k)}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds()
}
