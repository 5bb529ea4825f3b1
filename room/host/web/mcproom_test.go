package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/webengine"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/web"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// observeStream opens room r's event stream as its observer would, on a
// server of its own; all is closed when the test ends.
func observeStream(t *testing.T, r *room.Room) *http.Response {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	name := r.Config().Room
	s := web.New(ctx, web.Options{Engine: webengine.New(), Host: oneRoom{r}, Provider: "mock", Heartbeat: time.Hour})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		s.ServeHTTP(w, req.WithContext(webauth.WithGrant(req.Context(), room.Grant{Room: name, Grant: room.GrantObserver})))
	}))
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + web.StreamPath(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestMCPRoomStream: an MCP room streams as a debate does, its seats the
// agents, its rounds the budget: a post comes as a turn of the lead
// (round 1) with its kind in turn_meta, the peer's answer closes the
// round, and the room's close ends the stream with closed (its reason and
// spec) and done.
func TestMCPRoomStream(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "plans", room.CreateOptions{Topic: "Plan <the> cache", Budget: 4})
	if err != nil {
		t.Fatal(err)
	}
	resp := observeStream(t, r)
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "event: ") || strings.HasPrefix(l, "data: ") {
				lines <- l
			}
		}
		close(lines)
	}()
	read := func(n int) string {
		t.Helper()
		var b strings.Builder
		for range n {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the stream ended after:\n%s", b.String())
				}
				b.WriteString(l + "\n")
			case <-time.After(10 * time.Second):
				t.Fatalf("no more lines after:\n%s", b.String())
			}
		}
		return b.String()
	}
	want := `event: session_start
data: {"topic":"Plan \u003cthe\u003e cache","agents":["lead","peer"],"rounds":4}
event: seat_state
data: {"seat":"lead","held":false}
event: seat_state
data: {"seat":"peer","held":false}
`
	if got := read(6); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "opus", Kind: "challenge", Text: "Why write-through?"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatPeer, Agent: "gpt", Text: "Reads dominate."}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: "agreement reached"}); err != nil {
		t.Fatal(err)
	}
	want = `event: round_start
data: {"round":1}
event: turn_start
data: {"round":1,"agent":"lead"}
event: speaker
data: {"round":1,"agent":"lead","model":"opus"}
event: token
data: {"round":1,"agent":"lead","text":"Why write-through?"}
event: turn_end
data: {"round":1,"agent":"lead","full_text":"Why write-through?"}
event: turn_meta
data: {"round":1,"agent":"lead","kind":"challenge","model":"opus"}
event: turn_start
data: {"round":1,"agent":"peer"}
event: speaker
data: {"round":1,"agent":"peer","model":"gpt"}
event: token
data: {"round":1,"agent":"peer","text":"Reads dominate."}
event: turn_end
data: {"round":1,"agent":"peer","full_text":"Reads dominate."}
event: turn_meta
data: {"round":1,"agent":"peer","kind":"answer","model":"gpt"}
event: round_end
data: {"round":1}
event: closed
data: {"reason":"agreement reached","spec":"SPEC-plans.md"}
event: done
data: {}
`
	if got := read(28); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if l, ok := <-lines; ok {
		t.Fatalf("the stream went on after done: %q", l)
	}
}

// TestMCPRoomDraftStreamsAppends: a played seat's draft, written as
// roundtable seat writes it (its kind on the first line, the lead's CLOSE
// last), streams as appends: no token_reset, and each turn's tokens add
// up to its turn_end's full_text (seed 002's rule), the message's text.
func TestMCPRoomDraftStreamsAppends(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "drafted", room.CreateOptions{Topic: "Cache", Budget: 1})
	if err != nil {
		t.Fatal(err)
	}
	resp := observeStream(t, r)
	type ev struct{ name, data string }
	evs := make(chan ev, 1000)
	go func() {
		defer close(evs)
		sc := bufio.NewScanner(resp.Body)
		var name string
		for sc.Scan() {
			l := sc.Text()
			if n, ok := strings.CutPrefix(l, "event: "); ok {
				name = n
			} else if d, ok := strings.CutPrefix(l, "data: "); ok {
				evs <- ev{name, d}
			}
		}
	}()
	var got []ev // every event read, in order
	wait := func(name string) {
		t.Helper()
		for {
			select {
			case e, ok := <-evs:
				if !ok {
					t.Fatalf("the stream ended before %s", name)
				}
				got = append(got, e)
				if e.name == name {
					return
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no %s after %v", name, got)
			}
		}
	}
	wait("seat_state")
	started := time.Now()
	body := "Write-through: reads dominate.\n\nMeasure first."
	// Each write once the stream has shown the one before: the turn
	// begins with the kind line alone (nothing of it streams), then each
	// next write adds text.
	for i, text := range []string{"kind: brief", "kind: brief\n\nWrite-through", "kind: brief\n\nWrite-through: reads dominate.\n\n", "kind: brief\n\n" + body + "\nCLOSE"} {
		if err := r.WriteDraft(room.Draft{Seat: room.SeatLead, Agent: "roundtable:mock", Text: text, StartedAt: started}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			wait("turn_start")
		} else {
			wait("token")
		}
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "roundtable:mock", Kind: "brief", Text: body}); err != nil {
		t.Fatal(err)
	}
	_ = r.ClearDraft(room.SeatLead)
	if _, err := r.Close(room.CloseOptions{Reason: "agreement reached"}); err != nil {
		t.Fatal(err)
	}
	var streamed strings.Builder
	tokens := 0
	rest := func(yield func(ev) bool) {
		for _, e := range got {
			if !yield(e) {
				return
			}
		}
		for e := range evs {
			if !yield(e) {
				return
			}
		}
	}
	for e := range rest {
		switch e.name {
		case "token_reset":
			t.Errorf("a token_reset: %s", e.data)
		case "turn_start":
			streamed.Reset()
		case "token":
			var d struct{ Text string }
			if err := json.Unmarshal([]byte(e.data), &d); err != nil {
				t.Fatal(err)
			}
			streamed.WriteString(d.Text)
			tokens++
		case "turn_end":
			var d struct {
				FullText string `json:"full_text"`
			}
			if err := json.Unmarshal([]byte(e.data), &d); err != nil {
				t.Fatal(err)
			}
			if d.FullText != body || streamed.String() != body {
				t.Errorf("the turn streamed %q and ended with %q, want both %q", streamed.String(), d.FullText, body)
			}
		case "done":
			if tokens == 0 {
				t.Error("no token streamed")
			}
			return
		}
	}
	t.Fatal("the stream ended without done")
}
