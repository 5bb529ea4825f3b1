package web_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/webengine"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/web"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// benchTurn is a typical turn, about 700 bytes.
var benchTurn = strings.Repeat("The runner starts every due job in its own goroutine with no bound; a semaphore is twenty lines. ", 7)

// finishedDebate writes a closed debate room of n turns (two personas,
// n/2 rounds, then the verdict) straight in the format.
func finishedDebate(tb testing.TB, n int) (cwd, name string) {
	tb.Helper()
	cwd, name = tb.TempDir(), "big"
	dir := filepath.Join(cwd, room.Folder, name)
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		tb.Fatal(err)
	}
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	cfg := fmt.Sprintf(`{"room": %q, "topic": "A long debate", "budget": %d, "spec": "SPEC-big.md", "createdAt": %q, "mode": "debate", "agents": ["Ann", "Bob"], "rounds": %d}`+"\n",
		name, n/2, t0.Format(room.TimeLayout), n/2)
	if err := os.WriteFile(filepath.Join(dir, "room.json"), []byte(cfg), 0o644); err != nil {
		tb.Fatal(err)
	}
	write := func(seq int, seat, kind string, round int, text string) {
		ts := t0.Add(time.Duration(seq) * time.Second)
		m := fmt.Sprintf(`{"seq": %d, "at": %q, "seat": %q, "agent": "mock", "kind": %q, "text": %q, "round": %d}`+"\n",
			seq, ts.Format(room.TimeLayout), seat, kind, text, round)
		if err := os.WriteFile(filepath.Join(dir, "messages", fmt.Sprintf("%04d-%d-%06x.json", seq, ts.UnixMilli(), seq)), []byte(m), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for i := 1; i <= n; i++ {
		seat := "Ann"
		if i%2 == 0 {
			seat = "Bob"
		}
		write(i, seat, "turn", (i+1)/2, fmt.Sprintf("%s (%d)", benchTurn, i))
	}
	write(n+1, room.SeatModerator, "summary", n/2, "Adopt the semaphore.")
	closed := fmt.Sprintf(`{"reason": "complete", "specPath": "", "at": %q}`+"\n", t0.Add(time.Duration(n+2)*time.Second).Format(room.TimeLayout))
	if err := os.WriteFile(filepath.Join(dir, "closed.json"), []byte(closed), 0o644); err != nil {
		tb.Fatal(err)
	}
	return cwd, name
}

// oneRoom is a host of one room.
type oneRoom struct{ r *room.Room }

func (o oneRoom) Rooms() []string { return []string{o.r.Config().Room} }
func (o oneRoom) Room(name string) (*room.Room, bool) {
	return o.r, name == o.r.Config().Room
}

func (o oneRoom) AddRoom(context.Context, *room.Room) (bool, error) { return false, nil }

func (o oneRoom) RoomsChanged() <-chan struct{} { return nil } // never

// BenchmarkStream10kFinished: the stream of a finished 10,000-turn debate
// that nobody watched yet (the room just opened, its log not built): the
// time to the response's first byte, to session_start, and to done (the
// whole replay, 10,000 turns and their tokens).
//
//	go test -run '^$' -bench Stream10kFinished -benchtime 5x ./room/host/web/
func BenchmarkStream10kFinished(b *testing.B) {
	cwd, name := finishedDebate(b, 10_000)
	var first, start, done time.Duration
	for b.Loop() {
		r, err := room.Open(cwd, name)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		s := web.New(ctx, web.Options{Engine: webengine.New(), Host: oneRoom{r}, Provider: "mock"})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			s.ServeHTTP(w, req.WithContext(webauth.WithGrant(req.Context(), room.Grant{Grant: webauth.GrantStarter})))
		}))
		t0 := time.Now()
		resp, err := http.Get(srv.URL + web.StreamPath(name))
		if err != nil {
			b.Fatal(err)
		}
		br := bufio.NewReader(resp.Body)
		if _, err := br.Peek(1); err != nil {
			b.Fatal(err)
		}
		first += time.Since(t0)
		sawStart := false
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				b.Fatalf("the stream ended before done: %v", err)
			}
			if !sawStart && line == "event: session_start\n" {
				start += time.Since(t0)
				sawStart = true
			}
			if line == "event: done\n" {
				done += time.Since(t0)
				break
			}
		}
		resp.Body.Close()
		srv.Close()
		cancel()
	}
	n := float64(b.N)
	b.ReportMetric(float64(first.Microseconds())/n/1000, "ms-first-byte")
	b.ReportMetric(float64(start.Microseconds())/n/1000, "ms-session_start")
	b.ReportMetric(float64(done.Microseconds())/n/1000, "ms-done")
}
