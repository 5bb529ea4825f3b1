package host

import (
	"container/list"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The host's connections are bounded (connLimiter, a wrapper of its
// listener): at most MaxConns in all and MaxConnsPerAddr from one
// address (clientKey), under the process's file limit. A connection over
// a cap is not left to wait in the kernel's backlog: it takes the place
// of the oldest connection that waits for a request (a new one that has
// not sent a whole request yet, or a keep-alive between requests) of its
// own address when that address is at its cap, else of any address; a
// connection that never carried a known token goes first, so a flood
// without a token displaces its own connections, not those of the
// user's agents. A connection that serves a request (a parked wait, an
// event stream) is never displaced: when every connection is busy, the
// new one is answered 503 with Retry-After and closed at once.
//
// A keep-alive waits ConnIdleTimeout for its next request (IdleTimeout
// unless Options say otherwise), a new connection ReadHeaderTimeout
// for its first; every 429 and 503 closes its connection
// (closeRefusals), so a refused client holds nothing of the host's.
const (
	// DefaultMaxConns is how many connections a host holds at once: above
	// its sessions' and web streams' caps together (MaxSessions +
	// MaxWebStreams) with room for their requests. It is lowered to
	// three quarters of the process's file limit when that is lower.
	DefaultMaxConns = 4096
	// DefaultMaxConnsPerAddr is how many of them one address may hold: a
	// quarter, so that one address cannot take them all, and enough for
	// a host behind a proxy, whose clients all come from the proxy's.
	DefaultMaxConnsPerAddr = DefaultMaxConns / 4
	// overCapRetry is the Retry-After, in seconds, of a connection
	// refused at the cap.
	overCapRetry = 5
)

// connLimiter counts the host's connections by address and chooses
// which to close at the caps.
type connLimiter struct {
	max, perAddr int
	plain        bool                // a refused connection is answered in plain HTTP
	failed       func(remote string) // a connection cut off before its request was heard

	ids atomic.Uint64 // the last connection id given

	mu    sync.Mutex
	total int
	addrs map[string]*addrConns
	// waiting holds the connections waiting for a request, oldest first:
	// those that never carried a known token, and the others.
	waiting, waitingKnown list.List
}

// addrConns is one address's connections.
type addrConns struct {
	n                     int
	waiting, waitingKnown list.List
}

// trackedConn is a connection the limiter counts.
type trackedConn struct {
	net.Conn
	l         *connLimiter
	key       string
	id        uint64 // unique in the host's life, never 0
	closeOnce sync.Once

	active  atomic.Bool // it sent a request, or part of one
	reached atomic.Bool // a request of it reached the host's checks
	known   atomic.Bool // a request of it carried a known token

	// Under l.mu.
	released bool
	a        *addrConns
	el, ael  *list.Element // its places in the waiting lists, when waiting
	inKnown  bool          // which lists
}

func newConnLimiter(maxConns, perAddr int, plain bool, failed func(string)) *connLimiter {
	return &connLimiter{max: maxConns, perAddr: min(perAddr, maxConns), plain: plain, failed: failed, addrs: map[string]*addrConns{}}
}

// connCaps is the caps of a host with opt on this process: opt's, or the
// defaults, under three quarters of the file limit (what remains is for
// rooms' files, logs and watches).
func connCaps(opt Options) (maxConns, perAddr int) {
	maxConns, perAddr = opt.MaxConns, opt.MaxConnsPerAddr
	if maxConns <= 0 {
		maxConns = DefaultMaxConns
	}
	if perAddr <= 0 {
		perAddr = max(1, maxConns/4)
	}
	if n := fileLimit(); n > 0 {
		maxConns = max(1, min(maxConns, n*3/4))
	}
	return maxConns, min(perAddr, maxConns)
}

// limitListener is a listener whose connections connLimiter admits.
type limitListener struct {
	net.Listener
	l *connLimiter
}

func (ll limitListener) Accept() (net.Conn, error) {
	for {
		c, err := ll.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if tc, victim := ll.l.admit(c); tc != nil {
			if victim != nil {
				_ = victim.Close()
			}
			return tc, nil
		}
		ll.l.refuse(c)
	}
}

// admit counts c, and at a cap names the connection it displaces
// (already uncounted; the caller closes it); tc is nil when c is refused.
func (l *connLimiter) admit(c net.Conn) (tc, victim *trackedConn) {
	key := clientKey(c.RemoteAddr().String())
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.addrs[key]
	switch {
	case a != nil && a.n >= l.perAddr:
		if victim = oldest(&a.waiting, &a.waitingKnown); victim == nil {
			return nil, nil
		}
	case l.total >= l.max:
		if victim = oldest(&l.waiting, &l.waitingKnown); victim == nil {
			return nil, nil
		}
	}
	if victim != nil {
		l.release(victim)
		a = l.addrs[key] // released with its address's last connection
	}
	if a == nil {
		a = &addrConns{}
		l.addrs[key] = a
	}
	a.n++
	l.total++
	tc = &trackedConn{Conn: c, l: l, key: key, a: a, id: l.ids.Add(1)}
	l.wait(tc)
	return tc, victim
}

// oldest is the connection waiting longest, one that never carried a
// known token first. With l.mu held.
func oldest(unknown, known *list.List) *trackedConn {
	if e := unknown.Front(); e != nil {
		return e.Value.(*trackedConn)
	}
	if e := known.Front(); e != nil {
		return e.Value.(*trackedConn)
	}
	return nil
}

// wait puts c at the back of the waiting lists. With l.mu held.
func (l *connLimiter) wait(c *trackedConn) {
	if c.released || c.el != nil {
		return
	}
	c.inKnown = c.known.Load()
	if c.inKnown {
		c.el, c.ael = l.waitingKnown.PushBack(c), c.a.waitingKnown.PushBack(c)
	} else {
		c.el, c.ael = l.waiting.PushBack(c), c.a.waiting.PushBack(c)
	}
}

// busy takes c off the waiting lists. With l.mu held.
func (l *connLimiter) busy(c *trackedConn) {
	if c.el == nil {
		return
	}
	if c.inKnown {
		l.waitingKnown.Remove(c.el)
		c.a.waitingKnown.Remove(c.ael)
	} else {
		l.waiting.Remove(c.el)
		c.a.waiting.Remove(c.ael)
	}
	c.el, c.ael = nil, nil
}

// release uncounts c. With l.mu held.
func (l *connLimiter) release(c *trackedConn) {
	if c.released {
		return
	}
	l.busy(c)
	c.released = true
	l.total--
	if c.a.n--; c.a.n <= 0 {
		delete(l.addrs, c.key)
	}
}

// Close closes the connection and uncounts it.
func (c *trackedConn) Close() error {
	err := error(nil)
	c.closeOnce.Do(func() {
		c.l.mu.Lock()
		c.l.release(c)
		c.l.mu.Unlock()
		err = c.Conn.Close()
	})
	return err
}

// CloseWrite is the TCP connection's: net/http half-closes a connection
// it answered without reading the whole body, so the client reads the
// answer rather than a reset.
func (c *trackedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// refuse answers a connection over the caps and closes it: a 503 saying
// why on plain HTTP (a TLS client would read it as garbage), written
// before the request is read, so that the close sends no reset.
func (l *connLimiter) refuse(c net.Conn) {
	if l.plain {
		msg := fmt.Sprintf("the host has the most connections it holds open (%d in all, %d from one address), each busy with a request; retry in %d s, or ask the room's host\n", l.max, l.perAddr, overCapRetry)
		_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
		_, _ = fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: %d\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", overCapRetry, len(msg), msg)
	}
	_ = c.Close()
}

// trackedOf is the limiter's connection under c (a TLS connection's
// too), or nil.
func trackedOf(c net.Conn) *trackedConn {
	for c != nil {
		switch x := c.(type) {
		case *trackedConn:
			return x
		case interface{ NetConn() net.Conn }:
			c = x.NetConn()
		default:
			return nil
		}
	}
	return nil
}

type trackedConnKey struct{}

// connContext is the http.Server's ConnContext: a request's context
// knows its connection.
func (l *connLimiter) connContext(ctx context.Context, c net.Conn) context.Context {
	if tc := trackedOf(c); tc != nil {
		return context.WithValue(ctx, trackedConnKey{}, tc)
	}
	return ctx
}

// connState is the http.Server's ConnState: a connection waits for a
// request while new or idle and is busy while it serves one. One that
// ends after sending part of a request that never reached the checks
// counts against its address like a wrong token (httpguard.go).
func (l *connLimiter) connState(c net.Conn, st http.ConnState) {
	tc := trackedOf(c)
	if tc == nil {
		return
	}
	switch st {
	case http.StateActive, http.StateHijacked:
		tc.active.Store(st == http.StateActive)
		l.mu.Lock()
		l.busy(tc)
		l.mu.Unlock()
	case http.StateIdle:
		l.mu.Lock()
		l.wait(tc)
		l.mu.Unlock()
	case http.StateClosed:
		if tc.active.Load() && !tc.reached.Load() && l.failed != nil {
			l.failed(c.RemoteAddr().String())
		}
	case http.StateNew:
	}
}

// reached marks r's connection as heard.
func reached(r *http.Request) {
	if tc, ok := r.Context().Value(trackedConnKey{}).(*trackedConn); ok {
		tc.reached.Store(true)
	}
}

// trusted marks r's connection as one that carried a known token: at
// the caps, it is displaced after those that did not.
func trusted(r *http.Request) {
	if tc, ok := r.Context().Value(trackedConnKey{}).(*trackedConn); ok {
		tc.known.Store(true)
	}
}

// closeRefusals makes every 429 and 503 of h close its connection and say
// when to retry: a client refused for its rate, or by a host that is
// stopping, holds no connection of the host's while it waits.
func closeRefusals(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&refusalCloser{ResponseWriter: w}, r)
	})
}

// refusalCloser is a ResponseWriter that adds Connection: close, and
// Retry-After when the handler gave none, to a 429 or 503.
type refusalCloser struct {
	http.ResponseWriter
	wrote bool
}

// defaultRetry is the Retry-After, in seconds, of a refusal that named
// none.
const defaultRetry = 1

func (w *refusalCloser) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
			hdr := w.Header()
			if hdr.Get("Retry-After") == "" {
				hdr.Set("Retry-After", strconv.Itoa(defaultRetry))
			}
			hdr.Set("Connection", "close")
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *refusalCloser) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush is the ResponseWriter's, for event streams.
func (w *refusalCloser) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.NewResponseController reach the connection's
// deadlines.
func (w *refusalCloser) Unwrap() http.ResponseWriter { return w.ResponseWriter }
