package host

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// servedHost is testHost's host served by Host.Serve on a loopback
// listener, as `roundtable host` serves it (its listener wrapper and
// server limits), with web as its web face. It returns the host and its
// address.
func servedHost(t *testing.T, opt Options, web http.Handler) (*Host, string, map[string]string) {
	t.Helper()
	r, toks, ts := tokenedRoom(t, "conns")
	opt.Rooms, opt.Tokens, opt.Web = []*room.Room{r}, ts, web
	ctx, cancel := context.WithCancel(context.Background())
	h, err := NewHost(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, l, "", "") }()
	t.Cleanup(func() {
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer scancel()
		_ = h.Shutdown(sctx)
		_ = h.httpSrv.Close()
		<-served
		cancel()
	})
	return h, l.Addr().String(), toks
}

// rawConn is one connection to addr from the loopback address local,
// speaking HTTP/1.1 by hand.
type rawConn struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func dialFrom(t *testing.T, local, addr string) *rawConn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{t: t, c: c, br: bufio.NewReader(c)}
}

// send writes a request (no body unless given) on the connection.
func (rc *rawConn) send(method, path string, header map[string]string, body string) {
	rc.t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n", method, path, len(body))
	for k, v := range header {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n" + body)
	_ = rc.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(rc.c, b.String()); err != nil {
		rc.t.Fatalf("send %s %s: %v", method, path, err)
	}
}

// answer reads the next response, whole.
func (rc *rawConn) answer() (*http.Response, string) {
	rc.t.Helper()
	_ = rc.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(rc.br, nil)
	if err != nil {
		rc.t.Fatalf("read a response: %v", err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

// closedWithin reports whether the host closes the connection within d
// (a read that ends in EOF or a reset, not a timeout).
func (rc *rawConn) closedWithin(d time.Duration) bool {
	_ = rc.c.SetReadDeadline(time.Now().Add(d))
	_, err := rc.br.ReadByte()
	var ne net.Error
	return err != nil && (!errors.As(err, &ne) || !ne.Timeout())
}

// TestHostIdleConnectionClosed: a keep-alive connection that makes no
// request for the host's idle timeout is closed by the host.
func TestHostIdleConnectionClosed(t *testing.T) {
	_, addr, _ := servedHost(t, Options{ConnIdleTimeout: 300 * time.Millisecond}, nil)
	rc := dialFrom(t, "127.0.0.1", addr)
	rc.send(http.MethodPost, EndpointPath, map[string]string{"Content-Type": "application/json"}, initReq)
	if res, body := rc.answer(); res.StatusCode != http.StatusUnauthorized || res.Close {
		t.Fatalf("a request without a token: %d (close %v) %s, want a 401 that keeps the connection", res.StatusCode, res.Close, body)
	}
	t0 := time.Now()
	if !rc.closedWithin(20 * time.Second) {
		t.Fatal("an idle keep-alive was still open 20 s on; the idle timeout is 300 ms")
	}
	t.Logf("closed %s after its answer", time.Since(t0).Round(time.Millisecond))
}

// TestHostRefusalsCloseConnection: every 429 (the address's failed
// tokens, a token's rate, a web request without a token past its
// address's rate) and every 503 (a host stopping) says when to retry
// and closes its connection.
func TestHostRefusalsCloseConnection(t *testing.T) {
	web := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "page\n") })
	h, addr, toks := servedHost(t, Options{Rate: 1, Burst: 2}, web)
	check := func(what string, rc *rawConn, wantCode int) {
		t.Helper()
		res, body := rc.answer()
		if res.StatusCode != wantCode {
			t.Fatalf("%s: %d %s, want %d", what, res.StatusCode, body, wantCode)
		}
		if ra := res.Header.Get("Retry-After"); ra == "" || strings.Trim(ra, "0123456789") != "" {
			t.Fatalf("%s: Retry-After %q, want whole seconds", what, ra)
		}
		if !res.Close {
			t.Fatalf("%s: the answer keeps the connection (no Connection: close)", what)
		}
		if !rc.closedWithin(10 * time.Second) {
			t.Fatalf("%s: the connection was still open 10 s after the answer", what)
		}
	}

	// Failed tokens: 20 are heard (401, on one connection), the 21st is
	// refused.
	rc := dialFrom(t, "127.0.0.2", addr)
	for i := range authFailBurst {
		rc.send(http.MethodPost, EndpointPath, map[string]string{"Authorization": "Bearer " + wrongTok(toks)}, initReq)
		if res, body := rc.answer(); res.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d %s, want 401", i+1, res.StatusCode, body)
		}
	}
	rc.send(http.MethodPost, EndpointPath, map[string]string{"Authorization": "Bearer " + wrongTok(toks)}, initReq)
	check("the address's failed tokens", rc, http.StatusTooManyRequests)

	// A token's rate: a burst of 2, then 429.
	rc = dialFrom(t, "127.0.0.3", addr)
	ping := initReq
	auth := map[string]string{"Authorization": "Bearer " + toks[room.GrantObserver], "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	for range 2 {
		rc.send(http.MethodPost, EndpointPath, auth, ping)
		if res, body := rc.answer(); res.StatusCode != http.StatusOK {
			t.Fatalf("a ping within the burst: %d %s", res.StatusCode, body)
		}
	}
	rc.send(http.MethodPost, EndpointPath, auth, ping)
	check("a token's rate", rc, http.StatusTooManyRequests)

	// The web face without a token: its address's rate.
	rc = dialFrom(t, "127.0.0.4", addr)
	for range 2 {
		rc.send(http.MethodGet, "/", nil, "")
		if res, body := rc.answer(); res.StatusCode != http.StatusOK {
			t.Fatalf("a page within the burst: %d %s", res.StatusCode, body)
		}
	}
	rc.send(http.MethodGet, "/", nil, "")
	check("a web request without a token", rc, http.StatusTooManyRequests)

	// A host stopping.
	h.draining.Store(true)
	rc = dialFrom(t, "127.0.0.5", addr)
	rc.send(http.MethodPost, EndpointPath, auth, ping)
	check("a host stopping", rc, http.StatusServiceUnavailable)
}

// wrongTok is a well-formed token of no room.
func wrongTok(toks map[string]string) string {
	return room.TokenPrefix + strings.Repeat("A", len(toks[room.GrantPeer])-len(room.TokenPrefix))
}

// TestHostConnectionCaps: at its caps the host takes a new connection in
// place of one waiting for a request, and refuses it (503, closed) when
// every connection is busy; the per-address cap holds one address to its
// share while another still gets in.
func TestHostConnectionCaps(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 16)
	web := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			entered <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		_, _ = io.WriteString(w, "ok\n")
	})
	h, addr, _ := servedHost(t, Options{MaxConns: 4, MaxConnsPerAddr: 3, Rate: 1000, Burst: 1000}, web)
	hold := func(local string) *rawConn {
		t.Helper()
		rc := dialFrom(t, local, addr)
		rc.send(http.MethodGet, "/hold", nil, "")
		select {
		case <-entered:
		case <-time.After(10 * time.Second):
			t.Fatalf("a held request from %s did not reach the handler", local)
		}
		return rc
	}
	served := func(what string, rc *rawConn) {
		t.Helper()
		rc.send(http.MethodGet, "/", nil, "")
		if res, body := rc.answer(); res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s, want 200", what, res.StatusCode, body)
		}
	}
	refused := func(what string, rc *rawConn) {
		t.Helper()
		res, body := rc.answer()
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !res.Close ||
			!strings.Contains(body, "most connections") {
			t.Fatalf("%s: %d %v %s, want 503 with Retry-After, closing", what, res.StatusCode, res.Header, body)
		}
		if !rc.closedWithin(10 * time.Second) {
			t.Fatalf("%s: still open after the 503", what)
		}
	}

	// One address: three busy connections fill its share; a fourth from
	// it is refused though the host has room, and another address gets
	// in.
	var held []*rawConn
	for range 3 {
		held = append(held, hold("127.0.0.2"))
	}
	refused("a fourth busy address's connection", dialFrom(t, "127.0.0.2", addr))
	waiting := dialFrom(t, "127.0.0.3", addr)
	served("another address", waiting)

	// The host is full (3 busy, 1 idle keep-alive): a new connection
	// takes the idle one's place.
	waitingConns(t, h, 1)
	newcomer := dialFrom(t, "127.0.0.4", addr)
	if !waiting.closedWithin(10 * time.Second) {
		t.Fatal("at the cap, the idle keep-alive was not closed for a new connection")
	}
	served("the newcomer in the idle one's place", newcomer)
	if total, _ := h.connLimit.counts(""); total != 4 {
		t.Fatalf("%d connections counted, want 4", total)
	}

	// All four busy: a new connection is refused at once.
	newcomer.send(http.MethodGet, "/hold", nil, "")
	<-entered
	refused("a connection when every one is busy", dialFrom(t, "127.0.0.5", addr))

	// Once requests end, connections are taken again.
	close(release)
	for _, rc := range append(held, newcomer) {
		if res, body := rc.answer(); res.StatusCode != http.StatusOK {
			t.Fatalf("a held request: %d %s", res.StatusCode, body)
		}
	}
	waitingConns(t, h, 4)
	for _, local := range []string{"127.0.0.5", "127.0.0.6"} {
		served("after the held requests ended, "+local, dialFrom(t, local, addr))
	}
}

// waitingConns waits until n of h's connections wait for a request (a
// connection is idle only once its answer is out).
func waitingConns(t *testing.T, h *Host, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l := h.connLimit
		l.mu.Lock()
		got := l.waiting.Len() + l.waitingKnown.Len()
		l.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections wait for a request, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestHostConnectionCapsKnownTokenLast: a flood of connections without a
// token from the user's own address displaces its own connections, not
// the keep-alive of an agent that showed a valid token.
func TestHostConnectionCapsKnownTokenLast(t *testing.T) {
	_, addr, toks := servedHost(t, Options{MaxConns: 8, MaxConnsPerAddr: 8}, nil)
	agent := dialFrom(t, "127.0.0.1", addr)
	auth := map[string]string{"Authorization": "Bearer " + toks[room.GrantObserver], "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	agent.send(http.MethodPost, EndpointPath, auth, initReq)
	if res, body := agent.answer(); res.StatusCode != http.StatusOK {
		t.Fatalf("the agent's initialize: %d %s", res.StatusCode, body)
	}
	var flood []*rawConn
	for range 40 {
		flood = append(flood, dialFrom(t, "127.0.0.1", addr))
	}
	// The newest flood connection is open: the host answers it.
	last := flood[len(flood)-1]
	last.send(http.MethodPost, EndpointPath, nil, initReq)
	if res, _ := last.answer(); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the newest connection: %d, want 401", res.StatusCode)
	}
	if !flood[0].closedWithin(10 * time.Second) {
		t.Fatal("the oldest flood connection was not displaced")
	}
	agent.send(http.MethodPost, EndpointPath, auth, initReq)
	if res, body := agent.answer(); res.StatusCode != http.StatusOK {
		t.Fatalf("the agent's keep-alive after the flood: %d %s", res.StatusCode, body)
	}
}

// TestWebAddressLimitsBounded: requests without a token from 20,000
// addresses leave at most addrLimitCap buckets, and once their window
// has passed the sweep forgets them all.
func TestWebAddressLimitsBounded(t *testing.T) {
	web := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	h, _, _, _ := testHost(t, Options{Web: web})
	handler := h.Handler()
	const n = 20_000
	for i := range n {
		req := httptest.NewRequest(http.MethodGet, "/health", nil)
		req.RemoteAddr = fmt.Sprintf("10.%d.%d.%d:4000", i>>16, (i>>8)&255, i&255)
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, req)
		if w.Code != http.StatusNoContent && w.Code != http.StatusTooManyRequests {
			t.Fatalf("request %d: %d %s", i, w.Code, w.Body)
		}
	}
	if got := h.addrLimits.tracked(); got > addrLimitCap {
		t.Fatalf("%d addresses tracked after %d, over the cap %d", got, n, addrLimitCap)
	}
	h.sweepLimits(time.Now().Add(time.Minute))
	if got := h.addrLimits.tracked(); got != 0 {
		t.Fatalf("a minute on: %d addresses tracked, want 0", got)
	}
}

// TestLimitersCapSweep: a limiter table never holds more than its cap;
// past it, new keys share one bucket; a bucket is forgotten once it has
// refilled, and not before.
func TestLimitersCapSweep(t *testing.T) {
	l := newLimiters(1, 2, 3)
	t0 := time.Unix(1000, 0)
	for i := range 10 {
		l.take(fmt.Sprintf("k%d", i), t0)
	}
	if n := l.tracked(); n != 3 {
		t.Fatalf("%d tracked, want the cap 3", n)
	}
	// k3..k9 shared the overflow bucket: it is empty.
	if _, ok := l.take("k42", t0); ok {
		t.Fatal("a key past the cap had a bucket of its own")
	}
	l.sweep(t0.Add(999 * time.Millisecond))
	if n := l.tracked(); n != 3 {
		t.Fatalf("before the refill: %d tracked, want 3", n)
	}
	l.sweep(t0.Add(time.Second))
	if n := l.tracked(); n != 0 {
		t.Fatalf("refilled: %d tracked, want 0", n)
	}
}

// TestWebStreamsLeaveStarterRoom: room tokens at their cap fill only what
// the host gives room tokens; the starter token's pages still open
// theirs, and no token holds more than MaxWebStreamsPerToken.
func TestWebStreamsLeaveStarterRoom(t *testing.T) {
	h := &Host{}
	as := func(g room.Grant) context.Context {
		return webauth.With(context.Background(), webauth.Door{Grant: g, OK: true, Streams: h.beginWebStream})
	}
	var ends []func()
	defer func() {
		for _, end := range ends {
			end()
		}
	}()
	open := func(g room.Grant) string {
		end, why := webauth.BeginStream(as(g))
		if why == "" {
			ends = append(ends, end)
		}
		return why
	}
	one := room.Grant{Room: "r0", Grant: room.GrantObserver}
	for i := range MaxWebStreamsPerToken {
		if why := open(one); why != "" {
			t.Fatalf("stream %d of one token refused: %s", i+1, why)
		}
	}
	if why := open(one); !strings.Contains(why, "streams open") {
		t.Fatalf("a token past its cap: %q, want refused", why)
	}
	// Room tokens, each at its cap, until the host refuses them.
	opened := MaxWebStreamsPerToken
	for i := 1; ; i++ {
		g := room.Grant{Room: fmt.Sprintf("r%d", i), Grant: room.GrantObserver}
		refused := false
		for range MaxWebStreamsPerToken {
			if why := open(g); why != "" {
				refused = true
				break
			}
			opened++
		}
		if refused {
			break
		}
	}
	if want := MaxWebStreams - MaxWebStreamsPerToken; opened != want {
		t.Fatalf("room tokens opened %d streams, want %d", opened, want)
	}
	starter := room.Grant{Grant: GrantStarter}
	for i := range MaxWebStreamsPerToken {
		if why := open(starter); why != "" {
			t.Fatalf("the starter's stream %d, with room tokens at the host's cap: %s", i+1, why)
		}
	}
	if why := open(starter); why == "" {
		t.Fatal("the starter opened more than its cap")
	}
}

// counts is how many connections are open, in all and from key.
func (l *connLimiter) counts(key string) (total, fromKey int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.addrs[key]; a != nil {
		fromKey = a.n
	}
	return l.total, fromKey
}
