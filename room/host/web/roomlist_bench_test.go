package web_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkIndexListPush: how long after a message lands in a room (a
// post through the store, as an agent's seat server writes it) the
// index's stream lists that room first (push-ms/op), beside how long the
// room's own API stream takes to carry the same message as turn_end
// (peer-ms/op), read in the same run from the same host. Two rooms take
// turns, so each message moves its room to the top. The page polling
// /rooms.json every 3 s waited 1,500 ms on average for the same.
//
//	go test -run '^$' -bench IndexListPush -benchtime 40x ./room/host/web/
func BenchmarkIndexListPush(b *testing.B) {
	cwd := b.TempDir()
	names := []string{"east", "west"}
	rooms := map[string]*room.Room{}
	for _, n := range names {
		// In a millisecond of its own (see below): west, made last, is
		// first, and east's first message moves it on.
		time.Sleep(time.Millisecond)
		r, _, err := room.Create(cwd, n, room.CreateOptions{Topic: "Room " + n, Budget: 1000})
		if err != nil {
			b.Fatal(err)
		}
		rooms[n] = r
	}
	h := startHost(b, cwd)
	defer h.stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Each stream's data lines, with when they arrived.
	type line struct {
		text string
		at   time.Time
	}
	lines := func(path string) <-chan line {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+h.starter)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("open %s: %v %v", path, err, resp)
		}
		out := make(chan line, 1024)
		go func() {
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "data: ") {
					out <- line{sc.Text(), time.Now()}
				}
			}
			close(out)
		}()
		return out
	}
	list := lines("/rooms.events")
	api := map[string]<-chan line{}
	for _, n := range names {
		api[n] = lines("/api/sessions/" + n + "/stream")
	}
	wait := func(what string, c <-chan line, ok func(string) bool) time.Time {
		for {
			select {
			case l, open := <-c:
				if !open {
					b.Fatal("a stream ended")
				}
				if ok(l.text) {
					return l.at
				}
			case <-time.After(30 * time.Second):
				b.Fatalf("%s: no event in 30 s", what)
			}
		}
	}
	wait("the list on connect", list, func(string) bool { return true })
	seats := []string{room.SeatLead, room.SeatPeer}
	var push, peer time.Duration
	var last time.Time
	i := 0
	for b.Loop() {
		n := names[i%2]
		text := fmt.Sprintf("message %d", i)
		// The store dates a message to the millisecond, and the list
		// orders rooms of one time by name: each post is in a later
		// millisecond than the one before, so it moves its room on.
		time.Sleep(time.Until(last.Truncate(time.Millisecond).Add(time.Millisecond)))
		start := time.Now()
		if _, _, err := rooms[n].PostMessage(room.Post{Seat: seats[(i/2)%2], Text: text}); err != nil {
			b.Fatal(err)
		}
		last = time.Now() // the message is dated by now
		first := `data: {"rooms":[{"name":"` + n + `"`
		atList := wait(fmt.Sprintf("the list after message %d to %s", i, n), list, func(l string) bool { return strings.HasPrefix(l, first) })
		atAPI := wait("the API stream of "+n, api[n], func(l string) bool { return strings.Contains(l, `"full_text":"`+text+`"`) })
		push += atList.Sub(start)
		peer += atAPI.Sub(start)
		i++
	}
	b.ReportMetric(float64(push.Microseconds())/1000/float64(b.N), "push-ms/op")
	b.ReportMetric(float64(peer.Microseconds())/1000/float64(b.N), "peer-ms/op")
}
