package host

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiters is a token bucket (golang.org/x/time/rate) per key, for keys a
// client chooses: its address (the auth guard, the web face's requests
// without a token) or its token. The table is bounded two ways:
//
//   - swept: a bucket that has refilled completely and holds no slot is
//     forgotten (sweep, from the host's sweeper, and at the cap), which
//     loses nothing, since a new bucket starts full;
//   - capped: past capacity keys, every key not tracked shares one
//     overflow bucket of the same size, so an attacker rotating addresses
//     buys one more burst in all, not one per address; at the cap the
//     table is searched for refilled buckets at most once every
//     limiterEvictEvery.
type limiters struct {
	limit    rate.Limit
	burst    int
	capacity int

	mu       sync.Mutex
	m        map[string]*bucket
	overflow *bucket   // shared by the keys not tracked when at capacity
	evicted  time.Time // the latest search at the cap
	latest   time.Time // the latest time heard (at)
}

// bucket is one key's limiter and the slots held of it.
type bucket struct {
	lim *rate.Limiter
	// held is how many requests reserved a slot and are not yet judged
	// (authguard.go): a slot is spent when its request fails, given
	// back when it succeeds.
	held int
}

// limiterEvictEvery is how often, at most, a full table is searched for
// refilled buckets: one pass is capacity map entries, not to be repeated
// for every request of an attack.
const limiterEvictEvery = time.Second

func newLimiters(perSecond float64, burst, capacity int) *limiters {
	return &limiters{
		limit: rate.Limit(perSecond), burst: burst, capacity: capacity,
		m:        map[string]*bucket{},
		overflow: &bucket{lim: rate.NewLimiter(rate.Limit(perSecond), burst)},
	}
}

// at is now as the buckets may hear it: never before a time already
// heard. Requests take their time before the lock, so under load they
// arrive out of order, and a rate.Limiter told an earlier time than its
// last credits the interval between them again: a guesser would earn
// tokens from the host's own contention. With l.mu held.
func (l *limiters) at(now time.Time) time.Time {
	if now.Before(l.latest) {
		return l.latest
	}
	l.latest = now
	return now
}

// get is key's bucket: its own, a new one when create is set and the
// table has room, else the overflow bucket when the table is full, else
// nil. With l.mu held.
func (l *limiters) get(key string, now time.Time, create bool) *bucket {
	if b := l.m[key]; b != nil {
		return b
	}
	if len(l.m) >= l.capacity && now.Sub(l.evicted) >= limiterEvictEvery {
		l.evict(now)
	}
	if len(l.m) >= l.capacity {
		return l.overflow
	}
	if !create {
		return nil
	}
	b := &bucket{lim: rate.NewLimiter(l.limit, l.burst)}
	l.m[key] = b
	return b
}

// free reports how long until b has a token beyond those held, 0 when it
// has one now. With l.mu held; b is left as it was.
func (l *limiters) free(b *bucket, now time.Time) time.Duration {
	n := b.held + 1
	if n > l.burst {
		// More slots held than the bucket holds: one comes back as soon
		// as a request is judged; say a refill's time.
		return time.Duration(float64(time.Second) / float64(l.limit))
	}
	r := b.lim.ReserveN(now, n)
	d := r.DelayFrom(now)
	r.CancelAt(now)
	return d
}

// take spends one token of key's bucket; when there is none it spends
// nothing and returns how long until there is one.
func (l *limiters) take(key string, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now = l.at(now)
	b := l.get(key, now, true)
	r := b.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d, false
	}
	return 0, true
}

// idle reports whether b may be forgotten: full, nothing held.
func (l *limiters) idle(b *bucket, now time.Time) bool {
	return b.held == 0 && b.lim.TokensAt(now) >= float64(l.burst)
}

// evict forgets the buckets that have refilled. With l.mu held.
func (l *limiters) evict(now time.Time) {
	l.evicted = now
	for k, b := range l.m {
		if l.idle(b, now) {
			delete(l.m, k)
		}
	}
}

// sweep is evict for the host's sweeper.
func (l *limiters) sweep(now time.Time) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.evict(now)
}

// The caps of the host's request limiters (http.go, web.go); the auth
// guard's is authFailCap.
const (
	// tokenLimitCap bounds the buckets of tokens: only a valid token gets
	// one, so it is the rooms' grants, far under this.
	tokenLimitCap = 1 << 16
	// addrLimitCap bounds the buckets of addresses sending requests
	// without a token to the web face (a page asking for sign-in, a
	// health check): a bucket is about 200 bytes, so under 1 MB. A
	// bucket refills in a second or two and is then forgotten, at the
	// cap's next search or the sweeper's.
	addrLimitCap = 4096
)
