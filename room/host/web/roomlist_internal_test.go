package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// hookHost is a host that says when its rooms change (Rooms.RoomsChanged).
type hookHost struct {
	mu    sync.Mutex
	rooms map[string]*room.Room
	ch    chan struct{}
}

func (h *hookHost) Rooms() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for n := range h.rooms {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func (h *hookHost) Room(name string) (*room.Room, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.rooms[name]
	return r, ok
}

func (h *hookHost) AddRoom(_ context.Context, r *room.Room) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rooms[r.Config().Room] = r
	close(h.ch)
	h.ch = make(chan struct{})
	return true, nil
}

func (h *hookHost) RoomsChanged() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ch
}

// TestRoomListFollowsTheHostsWord: a host that says when its rooms change
// is followed through that alone (this face has no folder to watch: no
// starter, no room at first); a room some client sees is followed once
// for them all, a room no client sees is not followed, and a moment
// (Keep) after the last client left nothing is.
func TestRoomListFollowsTheHostsWord(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	host := &hookHost{rooms: map[string]*room.Room{}, ch: make(chan struct{})}
	s := New(ctx, Options{Engine: listOnlyEngine(), Host: host, Heartbeat: 50 * time.Millisecond, Keep: 20 * time.Millisecond})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := room.Grant{Grant: webauth.GrantStarter}
		if name := r.URL.Query().Get("observer"); name != "" {
			g = room.Grant{Room: name, Grant: room.GrantObserver}
		}
		s.ServeHTTP(w, r.WithContext(webauth.WithGrant(r.Context(), g)))
	}))
	defer ts.Close()
	defer cancel() // the clients first: ts.Close waits for their streams
	lists := func(query string) (<-chan []string, func()) {
		ctx, cancel := context.WithCancel(ctx)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+indexStreamPath+query, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("open the list's stream: %v %v", err, resp)
		}
		out := make(chan []string, 16)
		go func() {
			defer close(out)
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				data, ok := strings.CutPrefix(sc.Text(), "data: ")
				if !ok {
					continue
				}
				var got struct{ Rooms []struct{ Name string } }
				_ = json.Unmarshal([]byte(data), &got)
				var names []string
				for _, r := range got.Rooms {
					names = append(names, r.Name)
				}
				out <- names
			}
		}()
		return out, func() { cancel(); resp.Body.Close() }
	}
	want := func(c <-chan []string, names string) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case got := <-c:
				if strings.Join(got, ",") == names {
					return
				}
			case <-deadline:
				t.Fatalf("no list %q in 30 s", names)
			}
		}
	}
	followed := func() string {
		s.list.recMu.Lock()
		defer s.list.recMu.Unlock()
		var out []string
		for n := range s.list.follows {
			out = append(out, n)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	cwd := t.TempDir()
	add := func(name string) {
		t.Helper()
		r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "Room " + name, Budget: 3})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = host.AddRoom(ctx, r)
	}

	obs, stopObs := lists("?observer=alpha")
	want(obs, "")
	add("alpha")
	want(obs, "alpha")
	add("beta")
	if got := followed(); got != "alpha" {
		t.Fatalf("with an observer of alpha only, the list follows %q", got)
	}
	all, stopAll := lists("")
	want(all, "beta,alpha")
	if got := followed(); got != "alpha,beta" {
		t.Fatalf("with the starter's client too, the list follows %q", got)
	}
	stopAll()
	stopObs()
	for deadline := time.Now().Add(10 * time.Second); followed() != ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("10 s after the last client left the list still follows %q", followed())
		}
	}
}

// listOnlyEngine is an engine for a face whose test reads the room list
// only: following a room, checking a panel or naming a room says so.
func listOnlyEngine() Engine {
	unused := errors.New("the room list's test follows no room and starts no debate")
	return Engine{
		Follow:           func(context.Context, *room.Room) (Follower, []Event, error) { return nil, nil, unused },
		ValidatePersonas: func([]Persona) ([]Persona, error) { return nil, unused },
		RoomName:         func(string, time.Time) string { return "unused" },
	}
}
