package mcpserver

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"
)

// A wrong bearer token is the host's most expensive request: before
// refusing it the host re-checks every room's tokens.json, in case one was
// just rotated (about 270 µs at 100 rooms, BENCHMARKS.md). The auth guard
// limits how many such checks one client address may cause: every request
// whose token is not yet known good reserves one from its address's bucket
// when it starts, before its body or token is read, and gets it back only
// when its token turns out valid. A request whose Authorization header is
// missing, malformed or names no room keeps it spent, and so does one that
// fails or is cut off before its token is checked (a connection that sends
// part of a request and never completes it, httpguard.go). Since the slot
// is taken at the start, 200 simultaneous wrong tokens are 20 checks and
// 180 refusals (429), not 200 checks.
//
// One request skips the bucket: one that continues a session seated on
// this host with the very token that session started with (a SHA-256
// compared in constant time, caps.go), so agents seated before another
// client at their address started failing keep working. A session ID
// with any other token counts like any request: the ID alone opens
// nothing. A success neither spends from nor refills the bucket.
const (
	// authFailBurst is how many failures an address may make at once:
	// room for an agent set up with a stale or mistyped token to retry a
	// few times and show its user the 401's message, while a guesser gets
	// at most 20 full checks (about 5 ms of a core at 100 rooms) at once.
	authFailBurst = 20
	// authFailRate is how many failures a second an address earns back:
	// one a second keeps a guesser at one address under 0.03 % of a core
	// at 100 rooms, and a client whose token was fixed waits at most 1 s.
	authFailRate = 1.0
	// authFailCap is how many addresses are tracked at once, so that an
	// attacker rotating addresses cannot grow the host's memory (a bucket
	// is about 100 bytes: 1 MB at most). Only addresses with a failure
	// and a bucket not yet refilled are tracked; a full bucket is
	// forgotten (the sweeper, or at the cap), which loses nothing, since a
	// new one starts full. At the cap, every address not tracked shares
	// one overflow bucket of the same size: rotating addresses then buys
	// an attacker one more burst in all, not one per address, and a new
	// address's first requests may be refused 429 while such an attack
	// lasts (seated sessions keep working); within authFailBurst seconds
	// of its end the buckets have refilled, are forgotten, and every
	// address has its own again.
	authFailCap = 10_000
	// authEvictEvery is how often, at most, a full table is searched for
	// refilled buckets: one pass is 10,000 map entries, not to be repeated
	// for every request of an attack.
	authEvictEvery = time.Second
)

// authGuard is a token bucket of failed authentications per client key.
type authGuard struct {
	burst, rate float64
	capacity    int
	now         func() time.Time // the clock of the Host's requests

	mu       sync.Mutex
	b        map[string]*bucket
	overflow bucket    // shared by the keys not tracked when at capacity
	evicted  time.Time // the latest eviction pass
}

func newAuthGuard(burst int, rate float64, capacity int, now func() time.Time) *authGuard {
	return &authGuard{
		burst: float64(burst), rate: rate, capacity: capacity, now: now,
		b:        map[string]*bucket{},
		overflow: bucket{tokens: float64(burst)},
	}
}

// refill brings b up to now.
func (g *authGuard) refill(b *bucket, now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(g.burst, b.tokens+d.Seconds()*g.rate)
	}
	b.at = now
}

// full reports whether b has refilled completely by now.
func (g *authGuard) full(b *bucket, now time.Time) bool {
	return b.tokens+max(0, now.Sub(b.at).Seconds())*g.rate >= g.burst
}

// bucketOf is key's bucket, or nil when key is not tracked and the table
// has room for it; the overflow bucket when it has none. With g.mu held.
func (g *authGuard) bucketOf(key string, now time.Time) *bucket {
	if b := g.b[key]; b != nil {
		return b
	}
	if len(g.b) >= g.capacity && now.Sub(g.evicted) >= authEvictEvery {
		g.evict(now)
	}
	if len(g.b) >= g.capacity {
		return &g.overflow
	}
	return nil
}

// check reports whether key may be heard at now; when not, how long until
// it may.
func (g *authGuard) check(key string, now time.Time) (time.Duration, bool) {
	if g == nil {
		return 0, true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.bucketOf(key, now)
	if b == nil {
		return 0, true
	}
	g.refill(b, now)
	if b.tokens >= 1 {
		return 0, true
	}
	return time.Duration((1 - b.tokens) / g.rate * float64(time.Second)), false
}

// reserve spends one from key's bucket for a request whose token is not
// yet checked; when the bucket is empty it spends nothing and returns how
// long until it has one. refund gives the slot back once the token proved
// valid.
func (g *authGuard) reserve(key string, now time.Time) (time.Duration, bool) {
	if g == nil {
		return 0, true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.bucketOf(key, now)
	if b == nil {
		b = &bucket{tokens: g.burst, at: now}
		g.b[key] = b
	}
	g.refill(b, now)
	if b.tokens < 1 {
		return time.Duration((1 - b.tokens) / g.rate * float64(time.Second)), false
	}
	b.tokens--
	return 0, true
}

// refund gives back the slot a request reserved.
func (g *authGuard) refund(key string, now time.Time) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.bucketOf(key, now)
	if b == nil {
		return // forgotten meanwhile: a new bucket starts full
	}
	g.refill(b, now)
	b.tokens = min(g.burst, b.tokens+1)
}

// fail spends one failure from key's bucket.
func (g *authGuard) fail(key string, now time.Time) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	b := g.bucketOf(key, now)
	if b == nil {
		b = &bucket{tokens: g.burst, at: now}
		g.b[key] = b
	}
	g.refill(b, now)
	b.tokens = max(0, b.tokens-1)
}

// evict forgets the buckets that have refilled completely. With g.mu held.
func (g *authGuard) evict(now time.Time) {
	g.evicted = now
	for k, b := range g.b {
		if g.full(b, now) {
			delete(g.b, k)
		}
	}
}

// sweep is evict for the host's sweeper.
func (g *authGuard) sweep(now time.Time) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.evict(now)
}

// tracked is how many keys have a bucket.
func (g *authGuard) tracked() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.b)
}

// clientKey is the guard's key of a request from remote (r.RemoteAddr,
// the TCP peer; a header such as X-Forwarded-For is the client's to write
// and is not trusted): its IP, or for IPv6 its /64, a block one client
// usually holds whole and could otherwise rotate through.
func clientKey(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		if p, err := ip.WithZone("").Prefix(64); err == nil {
			return p.String()
		}
	}
	return ip.String()
}

// authReserve reserves a slot of r's address for a request whose token is
// not yet checked (reserve). When the address has none left it answers
// 429 and returns false; it reads neither the body nor the token.
func (h *Host) authReserve(w http.ResponseWriter, r *http.Request) bool {
	key := clientKey(r.RemoteAddr)
	wait, ok := h.guard.reserve(key, h.guard.now())
	if ok {
		return true
	}
	secs := max(1, int(math.Ceil(wait.Seconds())))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	refuseHTTP(w, r, http.StatusTooManyRequests, fmt.Sprintf(
		"too many requests from your address (%s) came with a wrong or missing bearer token; wait %d s, then retry with the room's current token from its host",
		key, secs))
	return false
}

// authRefund gives r's reserved slot back: its token was valid.
func (h *Host) authRefund(r *http.Request) {
	h.guard.refund(clientKey(r.RemoteAddr), h.guard.now())
}

// authFailed counts a failed token of r against its address, for a
// request that reserved no slot.
func (h *Host) authFailed(r *http.Request) {
	h.guard.fail(clientKey(r.RemoteAddr), h.guard.now())
}
