package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// postBody is post with the reply's body.
func postBody(t *testing.T, url, token, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+EndpointPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestHostAddRoomWhileServing: rooms added while requests of a start-up
// room are answered (under -race) are served at once, with a seat for
// their tokens, and the start-up room is never refused meanwhile; a room
// of a served name is not added twice; a stopping host adds none.
func TestHostAddRoomWhileServing(t *testing.T) {
	h, srv, toks, _ := testHost(t, Options{Rate: 1e6, Burst: 1e6})
	ctx := context.Background()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				res := post(t, srv.URL, toks[room.GrantObserver], "", initReq)
				if res.StatusCode != http.StatusOK {
					errs <- fmt.Sprintf("a start-up room's initialize got %d while rooms were added", res.StatusCode)
					return
				}
				// End the session, as a client that is done does, so the
				// loop stays within the token's session cap (caps.go).
				endSession(t, srv.URL, toks[room.GrantObserver], res.Header.Get("Mcp-Session-Id"))
			}
		}()
	}
	cwd := t.TempDir()
	for i := range 5 {
		name := fmt.Sprintf("later-%d", i)
		r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "t", Budget: 3})
		if err != nil {
			t.Fatal(err)
		}
		added, err := h.AddRoom(ctx, r)
		if !added || err != nil {
			t.Fatalf("AddRoom(%s) = %v, %v", name, added, err)
		}
		lt, err := r.IssueTokens()
		if err != nil {
			t.Fatal(err)
		}
		if code, body := postBody(t, srv.URL, lt[room.GrantLead], initReq); code != http.StatusOK || !strings.Contains(body, `"serverInfo"`) {
			t.Fatalf("initialize with %s's lead token: %d %s", name, code, body)
		}
		if !h.Serves(name) {
			t.Fatalf("Serves(%s) is false after AddRoom", name)
		}
		if again, err := h.AddRoom(ctx, r); again || err != nil {
			t.Fatalf("AddRoom(%s) again = %v, %v; want false, nil", name, again, err)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if got := h.Rooms(); len(got) != 6 {
		t.Fatalf("Rooms() = %v; want inproc and 5 added", got)
	}

	if err := h.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	r, _, err := room.Create(cwd, "too-late", room.CreateOptions{Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if added, err := h.AddRoom(ctx, r); added || !errors.Is(err, ErrHostStopping) {
		t.Fatalf("AddRoom after Shutdown = %v, %v; want ErrHostStopping", added, err)
	}
}

// TestHostGoneRoomIsAClearError: a request with the token of a room
// deleted while the host served it is refused saying what happened and
// what to do: a JSON-RPC request with a JSON-RPC error (clients show its
// message), anything else with 410 Gone; the host keeps serving its other
// rooms.
func TestHostGoneRoomIsAClearError(t *testing.T) {
	h, srv, toks, _ := testHost(t, Options{})
	r, _, err := room.Create(t.TempDir(), "ephemeral", room.CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.AddRoom(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	et, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := postBody(t, srv.URL, et[room.GrantPeer], initReq); code != http.StatusOK {
		t.Fatalf("initialize before the room was deleted: %d", code)
	}
	if err := os.RemoveAll(r.Dir()); err != nil {
		t.Fatal(err)
	}
	const gone = `room \"ephemeral\" was deleted or renamed while this host served it`
	code, body := postBody(t, srv.URL, et[room.GrantPeer], initReq)
	if code != http.StatusOK || !strings.Contains(body, `"id":1`) || !strings.Contains(body, `"error":{"code":-32010`) ||
		!strings.Contains(body, gone) || !strings.Contains(body, "ask the room's host") || strings.Contains(body, room.ErrRoomGone.Error()) {
		t.Fatalf("initialize with a deleted room's token: %d %s; want a JSON-RPC error saying what happened and what to do", code, body)
	}
	// A notification has no reply to carry an error: 410 Gone.
	code, body = postBody(t, srv.URL, et[room.GrantPeer], `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if code != http.StatusGone || !strings.Contains(body, strings.ReplaceAll(gone, `\"`, `"`)) {
		t.Fatalf("a notification with a deleted room's token: %d %q; want 410 saying the room is gone", code, body)
	}
	if code, _ := postBody(t, srv.URL, toks[room.GrantLead], initReq); code != http.StatusOK {
		t.Fatalf("the other room after one was deleted: %d", code)
	}
}
