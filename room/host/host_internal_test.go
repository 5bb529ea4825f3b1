package host

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// tokenedRoom is a new room name of budget 3 in a temporary folder, its
// tokens issued, and the token set a host of it checks.
func tokenedRoom(t *testing.T, name string) (*room.Room, map[string]string, *room.TokenSet) {
	t.Helper()
	r, _, err := room.Create(t.TempDir(), name, room.CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	ts, err := room.NewTokenSet([]*room.Room{r})
	if err != nil {
		t.Fatal(err)
	}
	return r, toks, ts
}

// testHost is an in-process host of one room, on an httptest server.
func testHost(t *testing.T, opt Options) (*Host, *httptest.Server, map[string]string, *room.Room) {
	t.Helper()
	r, toks, ts := tokenedRoom(t, "inproc")
	opt.Rooms, opt.Tokens = []*room.Room{r}, ts
	ctx, cancel := context.WithCancel(context.Background())
	h, err := NewHost(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.Handler())
	go h.sweeper(ctx)
	t.Cleanup(func() {
		srv.Close()
		_ = h.Shutdown(context.Background())
		cancel()
	})
	return h, srv, toks, r
}

func post(t *testing.T, url, token, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+EndpointPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

// endSession ends an MCP session over HTTP (DELETE with its ID).
func endSession(t *testing.T, url, token, session string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, url+EndpointPath, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", session)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("DELETE session %s: %d", session, res.StatusCode)
	}
}

const initReq = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"t","version":"1"},"capabilities":{}}}`

// TestHostRateLimit: past its burst a token gets 429 with Retry-After;
// another token is not held back by it.
func TestHostRateLimit(t *testing.T) {
	_, srv, toks, _ := testHost(t, Options{Rate: 1, Burst: 3})
	var codes []int
	for range 5 {
		res := post(t, srv.URL, toks[room.GrantPeer], "", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		codes = append(codes, res.StatusCode)
		if res.StatusCode == http.StatusTooManyRequests && res.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	}
	if codes[0] == http.StatusTooManyRequests || codes[4] != http.StatusTooManyRequests {
		t.Fatalf("status codes %v: want the burst served, then 429", codes)
	}
	if res := post(t, srv.URL, toks[room.GrantLead], "", initReq); res.StatusCode != http.StatusOK {
		t.Fatalf("another token was limited too: %d", res.StatusCode)
	}
}

// TestHostIdleExpiry: a session that makes no request for the idle TTL is
// dropped, its disconnect logged, and its ID no longer accepted.
func TestHostIdleExpiry(t *testing.T) {
	h, srv, toks, r := testHost(t, Options{IdleTTL: time.Second})
	res := post(t, srv.URL, toks[room.GrantPeer], "", initReq)
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != http.StatusOK || sid == "" || h.SessionCount() != 1 {
		t.Fatalf("initialize: %d %q, %d sessions", res.StatusCode, sid, h.SessionCount())
	}
	deadline := time.Now().Add(10 * time.Second)
	for h.SessionCount() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle session was not dropped")
		}
		time.Sleep(100 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(r.Dir(), room.LogFile))
	if !strings.Contains(string(log), "disconnect seat=peer") || !strings.Contains(string(log), "why=expired") {
		t.Fatalf("no expiry logged:\n%s", log)
	}
	if res := post(t, srv.URL, toks[room.GrantPeer], sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); res.StatusCode != http.StatusNotFound {
		t.Fatalf("expired session: HTTP %d, want 404", res.StatusCode)
	}
}

// TestHostWrongPath: only /mcp is served.
func TestHostWrongPath(t *testing.T) {
	_, srv, toks, _ := testHost(t, Options{})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/other", strings.NewReader(initReq))
	req.Header.Set("Authorization", "Bearer "+toks[room.GrantLead])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Fatalf("/other: %d", res.StatusCode)
	}
}

func TestCheckSessionID(t *testing.T) {
	h := &Host{ids: map[string]time.Time{}}
	id := h.Generate()
	if err := checkSessionID(id); err != nil {
		t.Fatalf("a generated ID was refused: %v", err)
	}
	for _, bad := range []string{"", "rt-", "mcp-session-1", "rt-" + strings.Repeat("g", 32), "rt-" + strings.Repeat("A", 32), id + "0", " " + id[1:]} {
		if checkSessionID(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzCheckSessionID: any Mcp-Session-Id header is judged without a
// panic, and only the form the host issues passes.
func FuzzCheckSessionID(f *testing.F) {
	f.Add("rt-0123456789abcdef0123456789abcdef")
	f.Add("mcp-session-3f2a")
	f.Add("rt-\x00")
	f.Fuzz(func(t *testing.T, id string) {
		err := checkSessionID(id)
		if err == nil && (len(id) != 35 || !strings.HasPrefix(id, "rt-") || strings.Trim(id[3:], "0123456789abcdef") != "") {
			t.Fatalf("%q accepted", id)
		}
		h := &Host{ids: map[string]time.Time{}}
		if _, verr := h.Validate(id); verr == nil {
			t.Fatalf("%q validated though never issued", id)
		}
	})
}

func TestRateLimitsRefill(t *testing.T) {
	l := newLimiters(10, 2, 16)
	now := time.Unix(0, 0)
	for i := range 2 {
		if _, ok := l.take("k", now); !ok {
			t.Fatalf("take %d refused within the burst", i)
		}
	}
	wait, ok := l.take("k", now)
	if ok || wait != 100*time.Millisecond {
		t.Fatalf("third take: %v %v, want refused, 100ms", ok, wait)
	}
	if _, ok := l.take("k", now.Add(100*time.Millisecond)); !ok {
		t.Fatal("refill after 100 ms refused")
	}
}
