package host

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestAuthGuardBurstRefill: an address may fail authFailBurst times at
// once, then waits for the refill, one failure a second.
func TestAuthGuardBurstRefill(t *testing.T) {
	g := newAuthGuard(authFailBurst, authFailRate, authFailCap, nil)
	t0 := time.Unix(1000, 0)
	for i := range authFailBurst {
		if _, ok := g.check("a", t0); !ok {
			t.Fatalf("failure %d refused within the burst", i+1)
		}
		g.fail("a", t0)
	}
	if wait, ok := g.check("a", t0); ok || wait != time.Second {
		t.Fatalf("after the burst: %v %v, want refused for 1s", ok, wait)
	}
	if wait, ok := g.check("a", t0.Add(400*time.Millisecond)); ok || wait != 600*time.Millisecond {
		t.Fatalf("0.4 s later: %v %v, want refused for 600ms", ok, wait)
	}
	if _, ok := g.check("b", t0); !ok {
		t.Fatal("another address was refused")
	}
	t1 := t0.Add(time.Second)
	if _, ok := g.check("a", t1); !ok {
		t.Fatal("refused after a second's refill")
	}
	g.fail("a", t1)
	if _, ok := g.check("a", t1); ok {
		t.Fatal("a second's refill allowed two failures")
	}
	// A bucket never holds more than the burst, however long the wait.
	t2 := t1.Add(time.Hour)
	for range authFailBurst {
		g.fail("a", t2)
	}
	if _, ok := g.check("a", t2); ok {
		t.Fatal("an hour's wait allowed more than the burst")
	}
}

// TestAuthGuardClockOutOfOrder: requests take their time before the
// guard's lock, so under load the guard hears them out of order. A time
// earlier than one already heard earns nothing: 800 wrong tokens whose
// times step back and forth 20 ms over half a second get the burst and
// the half second's refill, no more (the CI once saw 22 × 401 for 21).
func TestAuthGuardClockOutOfOrder(t *testing.T) {
	g := newAuthGuard(authFailBurst, authFailRate, authFailCap, nil)
	t0 := time.Unix(1000, 0)
	checked := 0
	for i := range 800 {
		now := t0.Add(time.Duration(i) * 500 * time.Millisecond / 800)
		if i%2 == 1 {
			now = now.Add(-20 * time.Millisecond) // heard after a later one
		}
		if slot, _, ok := g.reserve("a", now); ok {
			checked++
			g.settle(slot, true, now)
		}
	}
	if want := authFailBurst; checked > want {
		t.Fatalf("%d wrong tokens checked in half a second, want at most %d", checked, want)
	}
}

// TestAuthGuardEviction: a bucket is forgotten once it has refilled, not
// before.
func TestAuthGuardEviction(t *testing.T) {
	g := newAuthGuard(authFailBurst, authFailRate, authFailCap, nil)
	t0 := time.Unix(1000, 0)
	g.fail("once", t0)
	for range authFailBurst {
		g.fail("empty", t0)
	}
	g.sweep(t0.Add(900 * time.Millisecond))
	if n := g.tracked(); n != 2 {
		t.Fatalf("0.9 s on: %d tracked, want 2", n)
	}
	g.sweep(t0.Add(time.Second))
	if n := g.tracked(); n != 1 {
		t.Fatalf("1 s on: %d tracked, want 1 (the refilled bucket forgotten)", n)
	}
	g.sweep(t0.Add(authFailBurst*time.Second - time.Millisecond))
	if n := g.tracked(); n != 1 {
		t.Fatalf("just before the empty bucket refilled: %d tracked, want 1", n)
	}
	if _, ok := g.check("empty", t0.Add(authFailBurst*time.Second-time.Millisecond)); !ok {
		t.Fatal("a bucket refilled but one ms short was refused")
	}
	g.sweep(t0.Add(authFailBurst * time.Second))
	if n := g.tracked(); n != 0 {
		t.Fatalf("all refilled: %d tracked, want 0", n)
	}
}

// TestAuthGuardCap: past the cap the table does not grow; the addresses
// not tracked share one overflow bucket, so rotating addresses buys one
// burst in all; refilled buckets are forgotten at the cap, at most once a
// second, and then new addresses get their own again.
func TestAuthGuardCap(t *testing.T) {
	const capacity = 4
	g := newAuthGuard(authFailBurst, authFailRate, capacity, nil)
	// The guard's clock never goes back (limiters.at), so the times
	// only move on.
	t0 := time.Unix(1000, 0)
	g.fail("refills", t0) // full again 1 s on
	tA := t0.Add(800 * time.Millisecond)
	g.fail("refills-later", tA) // two failures: full 2 s on, at 2.8 s
	g.fail("refills-later", tA)
	for _, k := range []string{"a", "b"} {
		for range authFailBurst {
			g.fail(k, tA)
		}
	}
	// A rotating attacker: every failure from a new address.
	refusedAt := -1
	for i := range 3 * authFailBurst {
		k := fmt.Sprintf("rot-%d", i)
		if _, ok := g.check(k, tA); !ok {
			refusedAt = i
			break
		}
		g.fail(k, tA)
	}
	if refusedAt != authFailBurst {
		t.Fatalf("rotating addresses at the cap: refused at failure %d, want %d", refusedAt, authFailBurst)
	}
	if n := g.tracked(); n != capacity {
		t.Fatalf("%d tracked, want the cap %d", n, capacity)
	}
	if _, ok := g.check("a", tA); ok {
		t.Fatal("a tracked, blocked address was let through at the cap")
	}
	// At 1.9 s, a second after the search at the cap, "refills" is full
	// and is forgotten at the cap; "refills-later", "a" and "b" are not
	// (19.1, 1.1 and 1.1 of 20).
	t1 := t0.Add(1900 * time.Millisecond)
	if _, ok := g.check("new", t1); !ok {
		t.Fatal("a new address was refused though the table had room after eviction")
	}
	g.fail("new", t1)
	if n := g.tracked(); n != capacity {
		t.Fatalf("after eviction and a new failure: %d tracked, want %d", n, capacity)
	}
	if _, ok := g.check("a", t1); !ok {
		t.Fatal("1.1 s after its burst, a's refilled failure was refused")
	}
	// Eviction at the cap runs at most once a second: 0.95 s later
	// "refills-later" is full, but it is not looked for yet.
	t2 := t1.Add(950 * time.Millisecond)
	g.fail("late", t2)
	if g.m["refills-later"] == nil || g.m["late"] != nil {
		t.Fatal("0.95 s after a pass, the table was searched again")
	}
	t3 := t1.Add(limiterEvictEvery)
	g.fail("later", t3)
	if g.m["refills-later"] != nil || g.m["later"] == nil {
		t.Fatal("a second after the last pass, a refilled bucket was not forgotten for a new address")
	}
	// Everything refilled: a pass empties the table.
	g.sweep(t0.Add(time.Minute))
	if n := g.tracked(); n != 0 {
		t.Fatalf("a minute on: %d tracked, want 0", n)
	}
}

func TestClientKey(t *testing.T) {
	for remote, want := range map[string]string{
		"192.0.2.7:5123":            "192.0.2.7",
		"[::ffff:192.0.2.7]:5123":   "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:80": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ff::1]:81":   "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:80":      "2001:db8:1:3::/64",
		"[fe80::1%eth0]:80":         "fe80::/64",
		"@":                         "@", // a unix socket's peer
		"":                          "",
	} {
		if got := clientKey(remote); got != want {
			t.Errorf("clientKey(%q) = %q, want %q", remote, got, want)
		}
	}
}

// fakeClock is a settable clock for a Host's guard.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }

// readSpy is a request body that records whether it was read.
type readSpy struct {
	r    *strings.Reader
	read bool
}

func (s *readSpy) Read(p []byte) (int, error) {
	s.read = true
	return s.r.Read(p)
}

// TestHostAuthGuard: through Host.Handler(), 21 wrong tokens from one
// address get 401 twenty times, then 429 with Retry-After, none with its
// body read; another address is not affected; X-Forwarded-For is not
// trusted. A right token from the blocked address: a session seated
// before goes on working with its own token, but its session ID with a
// wrong token is refused like any; a new session is refused until the
// bucket has refilled by one (the rule in authguard.go); a success does
// not refill.
func TestHostAuthGuard(t *testing.T) {
	h, _, toks, _ := testHost(t, Options{})
	clock := &fakeClock{t: time.Now()}
	h.guard.now = clock.Now
	handler := h.Handler()
	const blocked, other = "198.51.100.7:40000", "203.0.113.9:40001"
	do := func(remote, auth, session, body string) (*httptest.ResponseRecorder, *readSpy) {
		t.Helper()
		spy := &readSpy{r: strings.NewReader(body)}
		req := httptest.NewRequest(http.MethodPost, EndpointPath, spy)
		req.RemoteAddr = remote
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		// Each failure claims another origin: the header is not trusted.
		req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.0.0.%d", time.Now().Nanosecond()%250))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, req)
		return w, spy
	}
	wrong := "Bearer " + room.TokenPrefix + strings.Repeat("A", len(toks[room.GrantPeer])-len(room.TokenPrefix))
	peer := "Bearer " + toks[room.GrantPeer]

	// A seat that connected from the address before the failures.
	w, _ := do(blocked, peer, "", initReq)
	sid := w.Header().Get("Mcp-Session-Id")
	if w.Code != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %s", w.Code, w.Body)
	}

	// Missing, malformed and wrong tokens all count.
	auths := []string{"", "Basic abc", "Bearer x y"}
	var codes []int
	for i := range authFailBurst + 1 {
		auth := wrong
		if i < len(auths) {
			auth = auths[i]
		}
		w, spy := do(blocked, auth, "", initReq)
		codes = append(codes, w.Code)
		if i < authFailBurst && (w.Code != http.StatusUnauthorized || spy.read) {
			t.Fatalf("failure %d: %d (body read %v) %s, want 401 without reading the body", i+1, w.Code, spy.read, w.Body)
		}
		if i == authFailBurst {
			if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
				t.Fatalf("failure %d: %d Retry-After %q %s, want 429 with Retry-After 1", i+1, w.Code, w.Header().Get("Retry-After"), w.Body)
			}
			if spy.read {
				t.Fatal("the refused request's body was read")
			}
			msg := w.Body.String()
			if !strings.Contains(msg, "wrong or missing bearer token") || !strings.Contains(msg, "wait 1 s") ||
				!strings.Contains(msg, "198.51.100.7") || strings.Count(strings.TrimSpace(msg), "\n") != 0 {
				t.Fatalf("429 message: %q", msg)
			}
		}
	}
	t.Logf("codes: %v", codes)

	// Another address: its own bucket.
	if w, _ := do(other, wrong, "", initReq); w.Code != http.StatusUnauthorized {
		t.Fatalf("another address, wrong token: %d %s", w.Code, w.Body)
	}
	if w, _ := do(other, "Bearer "+toks[room.GrantLead], "", initReq); w.Code != http.StatusOK {
		t.Fatalf("another address, right token: %d %s", w.Code, w.Body)
	}

	// The blocked address: a new session is refused, right token or not.
	if w, _ := do(blocked, "Bearer "+toks[room.GrantLead], "", initReq); w.Code != http.StatusTooManyRequests {
		t.Fatalf("blocked address, new session with a right token: %d %s, want 429", w.Code, w.Body)
	}
	// The session seated before goes on, its token verified as ever.
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for range 3 {
		if w, _ := do(blocked, peer, sid, list); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "wait_for_message") {
			t.Fatalf("blocked address, seated session: %d %s", w.Code, w.Body)
		}
	}
	if w, _ := do(blocked, wrong, sid, list); w.Code != http.StatusTooManyRequests {
		t.Fatalf("blocked address, seated session's ID with a wrong token: %d %s, want 429", w.Code, w.Body)
	}
	if w, _ := do(blocked, "Bearer "+toks[room.GrantLead], sid, list); w.Code != http.StatusTooManyRequests {
		t.Fatalf("blocked address, seated session's ID with another seat's token: %d %s, want 429", w.Code, w.Body)
	}
	if w, _ := do(blocked, wrong, "rt-00000000000000000000000000000000", list); w.Code != http.StatusTooManyRequests {
		t.Fatalf("blocked address, a made-up session: %d %s, want 429", w.Code, w.Body)
	}
	// The successes did not refill the bucket.
	if w, _ := do(blocked, "Bearer "+toks[room.GrantLead], "", initReq); w.Code != http.StatusTooManyRequests {
		t.Fatalf("after successes, new session: %d, want 429 still", w.Code)
	}

	// A second on, one failure's worth has refilled: the right token gets
	// in, and after it one wrong token is heard, the next refused.
	clock.t = clock.t.Add(time.Second)
	if w, _ := do(blocked, "Bearer "+toks[room.GrantLead], "", initReq); w.Code != http.StatusOK {
		t.Fatalf("a second on, right token: %d %s", w.Code, w.Body)
	}
	if w, _ := do(blocked, wrong, "", initReq); w.Code != http.StatusUnauthorized {
		t.Fatalf("a second on, wrong token: %d, want 401", w.Code)
	}
	if w, _ := do(blocked, wrong, "", initReq); w.Code != http.StatusTooManyRequests {
		t.Fatalf("a second on, second wrong token: %d, want 429", w.Code)
	}
}

// TestAuthGuardRotatingAttacker: with the host's constants, failures from
// 50,000 addresses at once leave at most authFailCap tracked, and past the
// cap the attacker gets one burst in all before being refused.
func TestAuthGuardRotatingAttacker(t *testing.T) {
	g := newAuthGuard(authFailBurst, authFailRate, authFailCap, nil)
	t0 := time.Unix(1000, 0)
	heard := 0
	for i := range 50_000 {
		k := fmt.Sprintf("10.%d.%d.%d", i>>16, (i>>8)&255, i&255)
		if _, ok := g.check(k, t0); ok {
			heard++
			g.fail(k, t0)
		}
	}
	if n := g.tracked(); n != authFailCap {
		t.Fatalf("%d tracked, want the cap %d", n, authFailCap)
	}
	if want := authFailCap + authFailBurst; heard != want {
		t.Fatalf("%d failures heard, want %d (one per tracked address, then one burst shared)", heard, want)
	}
	// Once the attack stops, the buckets refill and are forgotten.
	g.sweep(t0.Add(time.Second))
	if n := g.tracked(); n != 0 {
		t.Fatalf("a second after one failure each: %d tracked, want 0", n)
	}
}

// tracked is how many keys have a bucket of their own.
func (l *limiters) tracked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.m)
}

// check reports whether key may be heard at now (a slot free beyond those
// held); when not, how long until it may. It spends nothing.
func (g *authGuard) check(key string, now time.Time) (time.Duration, bool) {
	if g == nil {
		return 0, true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	now = g.at(now)
	b := g.get(key, now, false)
	if b == nil {
		return 0, true
	}
	d := g.free(b, now)
	return d, d == 0
}
