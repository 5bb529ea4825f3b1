package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// listEvent is one "rooms" event of the index's stream.
type listEvent struct {
	ID    string
	Rooms []struct{ Name, State, Last string }
}

func (e listEvent) names() []string {
	var out []string
	for _, r := range e.Rooms {
		out = append(out, r.Name)
	}
	return out
}

// listStream is an open index stream.
type listStream struct {
	resp   *http.Response
	sc     *bufio.Scanner
	cancel context.CancelFunc
}

// openList opens /rooms.events with token (sending lastID as
// Last-Event-ID when set); a status other than 200 is returned with no
// stream.
func (h *host) openList(token, lastID string) (*listStream, int, string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.base+"/rooms.events", nil)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		h.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		var b strings.Builder
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			b.WriteString(sc.Text())
		}
		resp.Body.Close()
		cancel()
		return nil, resp.StatusCode, b.String()
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") || resp.Header.Get("Cache-Control") != "no-store" {
		h.t.Fatalf("the list's stream answers Content-Type %q, Cache-Control %q", ct, resp.Header.Get("Cache-Control"))
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	return &listStream{resp: resp, sc: sc, cancel: cancel}, http.StatusOK, ""
}

func (s *listStream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next reads to the next "rooms" event, counting the heartbeats on the
// way; ok is false when the stream ended first or until (asked at each
// heartbeat) says to stop.
func (s *listStream) next(t *testing.T, until func(beats int) bool) (e listEvent, beats int, ok bool) {
	t.Helper()
	var id, name, data string
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case line == "":
			if name == "" {
				continue
			}
			if name != "rooms" {
				t.Fatalf("an event %q on the list's stream", name)
			}
			if err := json.Unmarshal([]byte(data), &e); err != nil {
				t.Fatalf("a rooms event's data %q: %v", data, err)
			}
			e.ID = id
			return e, beats, true
		case strings.HasPrefix(line, ":"):
			if beats++; until != nil && until(beats) {
				return e, beats, false
			}
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "event: "):
			name = line[7:]
		case strings.HasPrefix(line, "data: "):
			data = line[6:]
		case strings.HasPrefix(line, "retry: "):
		default:
			t.Fatalf("a line that is no part of the event stream format: %q", line)
		}
	}
	return e, beats, false
}

// TestIndexStreamGrants: the index's list stream is the API stream's
// twin in who may open it: no token gets 401 with a sentence, a room's
// observer token sees its room only (never the room the starter adds, and
// its room again when a message moves it on), the starter every room; a
// client coming back with the list it holds (Last-Event-ID) gets nothing
// but heartbeats until the list changes; and its streams count against
// the host's budget per token (429 past it, with a sentence).
func TestIndexStreamGrants(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--room", "plans", "--topic", "Plan the cache")
	defer h.stop()
	obs := h.observerToken()

	code, body := h.do(http.MethodGet, "/rooms.events", "", "", nil)
	if code != http.StatusUnauthorized {
		t.Fatalf("the list's stream without a token: %d %s, want 401", code, body)
	}
	if msg := errorSentence(t, "no token", body); !strings.Contains(msg, "token") {
		t.Fatalf("the refusal %q does not say a token is needed", msg)
	}

	starter, _, _ := h.openList(h.starter, "")
	defer starter.close()
	observer, _, _ := h.openList(obs, "")
	defer observer.close()
	e, _, ok := starter.next(t, nil)
	if !ok || strings.Join(e.names(), ",") != "plans" {
		t.Fatalf("the starter's first list: %v %v, want plans", ok, e.names())
	}
	e, _, ok = observer.next(t, nil)
	if !ok || strings.Join(e.names(), ",") != "plans" || e.ID == "" {
		t.Fatalf("the observer's first list: %v %+v, want plans, with an ID", ok, e)
	}
	held := e

	id := h.create(contractBody)
	for {
		e, _, ok = starter.next(t, nil)
		if !ok {
			t.Fatal("the starter's stream ended before it listed the new debate")
		}
		if len(e.Rooms) == 2 {
			break
		}
	}
	if e.Rooms[0].Name != id {
		t.Fatalf("the starter's list after a start: %v, want %s first", e.names(), id)
	}

	// The observer hears of its room's change (closed here: the list
	// dates to the second, and a message may land in the second the room
	// was made), and of nothing else.
	plans, err := room.Open(cwd, "plans")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := plans.PostMessage(room.Post{Seat: room.SeatLead, Text: "The cache plan, first draft."}); err != nil {
		t.Fatal(err)
	}
	if _, err := plans.Close(room.CloseOptions{Reason: "agreed"}); err != nil {
		t.Fatal(err)
	}
	for {
		e, _, ok = observer.next(t, nil)
		if !ok {
			t.Fatal("the observer's stream ended before its room's close")
		}
		if strings.Join(e.names(), ",") != "plans" {
			t.Fatalf("the observer was shown %v; its token opens plans only", e.names())
		}
		if e.Rooms[0].State == "finished" {
			break
		}
	}

	// Back with the list it holds: heartbeats only. With an older one:
	// the list at once.
	again, _, _ := h.openList(obs, e.ID)
	_, beats, ok := again.next(t, func(beats int) bool { return beats == 3 })
	again.close()
	if ok || beats != 3 {
		t.Fatalf("a client holding the list got an event (%v) before 3 heartbeats (%d)", ok, beats)
	}
	again, _, _ = h.openList(obs, held.ID)
	got, _, ok := again.next(t, nil)
	again.close()
	if !ok || got.ID != e.ID {
		t.Fatalf("a client holding an older list got %+v, want the list %s", got, e.ID)
	}

	// The host's stream budget: the observer's token holds one stream
	// already; it gets more until the host's cap per token, then 429.
	var open []*listStream
	defer func() {
		for _, s := range open {
			s.close()
		}
	}()
	for n := 1; ; n++ {
		s, code, body := h.openList(obs, "")
		if code == http.StatusOK {
			open = append(open, s)
			if n > 100 {
				t.Fatal("100 streams of one room's token and no 429: the list's stream is not counted")
			}
			continue
		}
		if code != http.StatusTooManyRequests || !strings.Contains(errorSentence(t, "past the cap", body), "streams open") {
			t.Fatalf("stream %d of one token: %d %s, want 429 saying the streams are open", n+1, code, body)
		}
		break
	}
	if n := len(open) + 1; n != 32 {
		t.Errorf("one token held %d list streams before its 429, want the host's cap, 32", n)
	}
}
