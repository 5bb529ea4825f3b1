package host

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
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
	// is about 200 bytes: under 1 MB). Only addresses with a failure, or
	// a request being checked, and a bucket not yet refilled are tracked;
	// a full bucket is forgotten (the sweeper, or at the cap), which loses
	// nothing, since a new one starts full. At the cap, every address not
	// tracked shares one overflow bucket of the same size: rotating
	// addresses then buys an attacker one more burst in all, not one per
	// address, and a new address's first requests may be refused 429
	// while such an attack lasts (seated sessions keep working); within
	// authFailBurst seconds of its end the buckets have refilled, are
	// forgotten, and every address has its own again.
	authFailCap = 4096
)

// authGuard is a token bucket of failed authentications per client key,
// on limiters (limiters.go): the table capped at authFailCap and swept.
type authGuard struct {
	*limiters
	now func() time.Time // the clock of the Host's requests
}

func newAuthGuard(burst int, perSecond float64, capacity int, now func() time.Time) *authGuard {
	return &authGuard{limiters: newLimiters(perSecond, burst, capacity), now: now}
}

// reserve holds a slot of key's bucket for a request whose token is not
// yet checked; when none is free it holds nothing and returns how long
// until one is. The request's verdict settles the slot it returns.
func (g *authGuard) reserve(key string, now time.Time) (*bucket, time.Duration, bool) {
	if g == nil {
		return nil, 0, true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	now = g.at(now)
	b := g.get(key, now, true)
	if d := g.free(b, now); d > 0 {
		return nil, d, false
	}
	b.held++
	return b, 0, true
}

// settle ends a reserved slot: spent when its request failed, given back
// when its token proved valid.
func (g *authGuard) settle(b *bucket, failed bool, now time.Time) {
	if g == nil || b == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	b.held--
	if failed {
		b.lim.AllowN(g.at(now), 1) // an empty bucket stays empty
	}
}

// fail spends one failure from key's bucket, for a failure that held no
// slot.
func (g *authGuard) fail(key string, now time.Time) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	now = g.at(now)
	g.get(key, now, true).lim.AllowN(now, 1)
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
func (h *Host) authReserve(w http.ResponseWriter, r *http.Request) (*bucket, bool) {
	key := clientKey(r.RemoteAddr)
	slot, wait, ok := h.guard.reserve(key, h.guard.now())
	if ok {
		return slot, true
	}
	secs := max(1, int(math.Ceil(wait.Seconds())))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	refuseHTTP(w, r, http.StatusTooManyRequests, fmt.Sprintf(
		"too many requests from your address (%s) came with a wrong or missing bearer token; wait %d s, then retry with the room's current token from its host",
		key, secs))
	return nil, false
}

// authFailed counts a failed token of r against its address, for a
// request that reserved no slot.
func (h *Host) authFailed(r *http.Request) {
	h.guard.fail(clientKey(r.RemoteAddr), h.guard.now())
}
