package host

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/mcpserver"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// A Host serves the seats of many rooms over MCP's streamable HTTP. Each
// room has one service, shared by every session of the room: its *room.Room
// and its *room.Notifier. Each MCP session has its own seat
// (mcpserver.RemoteSeat: what the session has been shown, what it posted,
// the notes handed to it), created
// when the session's first request arrives and dropped when the session
// ends or idles out. The seat a session holds is the grant of its bearer
// token, verified before a request reaches the MCP server (http.go).
//
// The tools, replies, refusals and server.log lines are the stdio seat's:
// room/mcpserver answers them (remote.go). A host adds the observer, a
// read-only grant that may read and wait but never post, write the spec
// or close, and its observe_room tool (mcpserver's host_observe.go).
type Host struct {
	opt      Options
	services map[string]*service // by room name; rooms are added under mu (AddRoom)
	// roomsChanged is closed (and replaced, under mu) when a room is added.
	roomsChanged chan struct{}
	mcp          *server.MCPServer
	stop         chan struct{} // closed by Shutdown: parked waits return idle
	stopOnce     sync.Once
	draining     atomic.Bool  // set by Shutdown: new requests are refused
	posts        atomic.Int64 // POST requests being answered (http.go)

	httpOnce   sync.Once // builds what follows (http.go)
	httpSrv    *http.Server
	streamable *server.StreamableHTTPServer
	handler    http.Handler
	limits     *limiters    // requests per token (http.go)
	addrLimits *limiters    // requests without a token per client address (web.go)
	guard      *authGuard   // failed tokens per client address (authguard.go)
	gate       *gate        // Origin and Host rules (httpguard.go)
	connLimit  *connLimiter // open connections, in all and per address (connlimit.go)
	caps       *caps        // sessions, waits and streams held (caps.go)
	webStreams webStreams   // the web face's open streams (web.go)

	browser browserSessions // signed-in browsers (browsersessions.go)

	mu    sync.Mutex
	seats map[string]*hostSeat // by session key (sessionKey)
	ids   map[string]time.Time // session IDs issued and not ended, when issued
	// locks are the seat locks the host holds while at least one session
	// plays that seat: each session's room.SeatHold takes a share.
	locks room.SharedLocks
}

// Options configure a Host.
type Options struct {
	Rooms   []*room.Room
	Tokens  *room.TokenSet
	Version string
	// IdleTTL is how long a session may make no request before it is
	// dropped (its disconnect logged); 0: DefaultIdleTTL.
	IdleTTL time.Duration
	// Rate and Burst limit each token's requests per second; 0: the defaults.
	Rate  float64
	Burst int
	// AllowOrigins are the web origins (scheme://host[:port]) whose
	// pages may use the host; requests with any other Origin get 403.
	AllowOrigins []string
	// PublicURL is the URL clients reach the host at; its host name is
	// allowed as a Host header on a loopback listen (httpguard.go).
	PublicURL string
	// Web, when set, serves every path but /mcp, behind the host's checks
	// (web.go); GrantOf tells it who the request is.
	Web http.Handler
	// StarterSHA256 is the hash of the host's starter token
	// (NewStarterToken); zero: the host has none.
	StarterSHA256 [sha256.Size]byte
	// MaxConns and MaxConnsPerAddr cap the connections the host holds,
	// in all and from one address (connlimit.go); 0: DefaultMaxConns and
	// a quarter of MaxConns.
	MaxConns, MaxConnsPerAddr int
	// ConnIdleTimeout is how long a keep-alive connection may wait for
	// its next request; 0: IdleTimeout.
	ConnIdleTimeout time.Duration
	// SeatQuiet is how long a seat's session may go without a request, a
	// call in flight or its event stream open before its seat is shown
	// free (its client went away without ending the session: opencode
	// does); the session lives on until IdleTTL and takes the seat again
	// with its next request. 0: DefaultSeatQuiet.
	SeatQuiet time.Duration
}

// Defaults of Options.
const (
	DefaultIdleTTL = 10 * time.Minute
	// DefaultSeatQuiet frees a vanished client's seat within ~40 s: its
	// longest call, a parked wait, is in flight for at most 55 s.
	DefaultSeatQuiet = 30 * time.Second
	DefaultRate      = 50
	DefaultBurst     = 100
)

// service is what every session of one room shares.
type service struct {
	room     *room.Room
	notifier *room.Notifier
}

// hostSeat is one session's seat.
type hostSeat struct {
	seat     *mcpserver.RemoteSeat
	grant    room.Grant
	key      string
	remote   string
	last     atomic.Int64 // unix nanos of the latest request
	inflight atomic.Int32 // tool calls running (a parked wait is one)
	// hold is the seat this session plays (nil for an observer): its
	// connect line and a share of the host's lock of the seat, unless
	// another process (an agent's stdio server) holds that lock.
	hold *room.SeatHold
	// conns are the last connections (connLimiter ids) this session's
	// requests came on, under Host.mu: two sessions that shared one are
	// of one process (a TCP connection is one process's), so of one
	// agent, which plays one seat (linkedSeat).
	conns [maxSessionConns]uint64
	nconn int
}

// maxSessionConns is how many of its connections a session remembers.
const maxSessionConns = 8

// sawConn notes that hs had a request on connection id (0: unknown).
// With Host.mu held.
func (hs *hostSeat) sawConn(id uint64) {
	if id == 0 || hs.sharedConn(id) {
		return
	}
	hs.conns[hs.nconn%maxSessionConns] = id
	hs.nconn++
}

// sharedConn reports whether hs had a request on connection id. With
// Host.mu held.
func (hs *hostSeat) sharedConn(id uint64) bool {
	for _, c := range hs.conns[:min(hs.nconn, maxSessionConns)] {
		if c == id {
			return true
		}
	}
	return false
}

// linkedSeat is the seat another session of hs's room plays whose
// requests came on a connection of hs's: hs's agent plays it already.
// With Host.mu held.
func (h *Host) linkedSeat(hs *hostSeat) *hostSeat {
	for _, o := range h.seats {
		if o == hs || o.grant.Room != hs.grant.Room || o.grant.Grant == hs.grant.Grant ||
			o.grant.Grant == room.GrantObserver || o.hold == nil || o.hold.Released() {
			continue
		}
		for _, c := range hs.conns[:min(hs.nconn, maxSessionConns)] {
			if o.sharedConn(c) {
				return o
			}
		}
	}
	return nil
}

// agentCLI reports whether hs's client named itself a coding agent's CLI
// (a script may drive several seats from one process, as the original's
// did).
func agentCLI(hs *hostSeat) bool {
	_, ok := seatcmd.ClientFor(hs.seat.Agent())
	return ok
}

// connID is the id of the connection ctx's request came on, 0 when
// unknown.
func connID(ctx context.Context) uint64 {
	if tc, ok := ctx.Value(trackedConnKey{}).(*trackedConn); ok {
		return tc.id
	}
	return 0
}

// NewHost builds a host for rooms; ctx bounds the rooms' notifiers.
func NewHost(ctx context.Context, opt Options) (*Host, error) {
	if opt.Tokens == nil {
		return nil, errors.New("a host needs the rooms' tokens")
	}
	if opt.IdleTTL <= 0 {
		opt.IdleTTL = DefaultIdleTTL
	}
	if opt.SeatQuiet <= 0 {
		opt.SeatQuiet = DefaultSeatQuiet
	}
	if opt.Rate <= 0 {
		opt.Rate = DefaultRate
	}
	if opt.Burst <= 0 {
		opt.Burst = DefaultBurst
	}
	g, err := newGate(opt.AllowOrigins, opt.PublicURL)
	if err != nil {
		return nil, err
	}
	h := &Host{
		gate:         g,
		caps:         newCaps(),
		opt:          opt,
		services:     map[string]*service{},
		roomsChanged: make(chan struct{}),
		stop:         make(chan struct{}),
		seats:        map[string]*hostSeat{},
		ids:          map[string]time.Time{},
	}
	for _, r := range opt.Rooms {
		name := r.Config().Room
		if _, dup := h.services[name]; dup {
			continue
		}
		h.services[name] = &service{room: r, notifier: room.Watch(ctx, r)}
	}
	h.mcp = mcpserver.NewHostServer(opt.Version, sessions{h})
	return h, nil
}

// Rooms names the rooms the host serves, sorted.
func (h *Host) Rooms() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.services))
	for name := range h.services {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// authKey is the context key of a request's verified grant (http.go).
type authKey struct{}

// auth is who a request is: its token's grant and where it came from.
type auth struct {
	grant  room.Grant
	remote string
}

func authFrom(ctx context.Context) (auth, bool) {
	a, ok := ctx.Value(authKey{}).(auth)
	return a, ok
}

// sessionKey is the key of the seat serving ctx's request: the MCP session
// ID, or, for a request of a protocol version without sessions (2026-07-28
// and later), the grant: such clients share one seat per token.
func sessionKey(ctx context.Context, a auth) string {
	if cs := server.ClientSessionFromContext(ctx); cs != nil && cs.SessionID() != "" {
		return cs.SessionID()
	}
	return "grant:" + a.grant.Room + "/" + a.grant.Grant
}

// seatOf returns the seat of ctx's request, or nil when it has none yet.
func (h *Host) seatOf(ctx context.Context) *hostSeat {
	a, ok := authFrom(ctx)
	if !ok {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seats[sessionKey(ctx, a)]
}

// seatFor returns the seat of ctx's request, creating it (and logging its
// connect) on the session's first request. agent labels the seat.
func (h *Host) seatFor(ctx context.Context, agent string, take bool) (*hostSeat, error) {
	a, ok := authFrom(ctx)
	if !ok {
		return nil, errors.New("the request carries no verified token; send Authorization: Bearer <token>")
	}
	key := sessionKey(ctx, a)
	h.mu.Lock()
	defer h.mu.Unlock()
	if hs := h.seats[key]; hs != nil {
		hs.sawConn(connID(ctx))
		if take && hs.grant.Grant != room.GrantObserver && (hs.hold == nil || hs.hold.Released()) {
			// An agent CLI's first call, or a session back after going
			// quiet: the seat, if no one else plays it, and if this
			// agent plays no other seat of the room.
			if o := h.linkedSeat(hs); o != nil && agentCLI(hs) && agentCLI(o) {
				mine := seatcmd.Seat{Room: hs.grant.Room, Seat: hs.grant.Grant}.ServerName()
				theirs := seatcmd.Seat{Room: hs.grant.Room, Seat: o.grant.Grant}.ServerName()
				_ = hs.seat.Room().Log(EventSeatRefused, room.F("refused", hs.grant.Grant), room.F("plays", o.grant.Grant),
					room.F("session", shortKey(hs.key)), room.F("why", "same-agent"))
				return nil, fmt.Errorf("this agent already plays the %s seat of room %q (the %s tools), and one agent plays one seat: leave the %s tools alone; the %s seat is for an agent started in another terminal", o.grant.Grant, hs.grant.Room, theirs, mine, hs.grant.Grant)
			}
			if err := hs.seat.Room().SeatHeld(hs.grant.Grant); err != nil {
				return nil, fmt.Errorf("seat %s of room %q cannot start: %w", hs.grant.Grant, hs.grant.Room, err)
			}
			if err := h.connect(hs); err != nil {
				return nil, err
			}
		}
		return hs, nil
	}
	svc := h.services[a.grant.Room]
	if svc == nil {
		return nil, fmt.Errorf("room %q is not served by this host; ask its host for a token of a room it serves", a.grant.Room)
	}
	if a.grant.Grant != room.GrantObserver && svc.room.Config().IsDebate() {
		// A seat's token in a debate's tokens.json (written by hand, or
		// by another program): the debate plays its seats itself.
		return nil, room.WatchOnlyError(a.grant.Room, a.grant.Grant)
	}
	if a.grant.Grant != room.GrantObserver {
		if err := svc.room.Config().CheckSeat(a.grant.Grant); err != nil {
			// A grant tokens.json holds by hand for a seat the room has not.
			return nil, fmt.Errorf("seat %s of room %q cannot start: %w", a.grant.Grant, a.grant.Room, err)
		}
		if err := svc.room.SeatHeld(a.grant.Grant); err != nil {
			// Who holds it, without its pid on the host.
			var taken *room.SeatTakenError
			if errors.As(err, &taken) {
				c := *taken
				c.PID = 0
				err = &c
			}
			return nil, fmt.Errorf("seat %s of room %q cannot start: %w", a.grant.Grant, a.grant.Room, err)
		}
	}
	rs := mcpserver.NewRemoteSeat(mcpserver.RemoteOptions{
		Room: svc.room, Notifier: svc.notifier, Stop: h.stop,
		Seat: a.grant.Grant, Agent: agent, Version: h.opt.Version,
	})
	hs := &hostSeat{seat: rs, grant: a.grant, key: key, remote: a.remote}
	hs.sawConn(connID(ctx))
	hs.last.Store(time.Now().UnixNano())
	// A coding agent's CLI takes its seat with its first tool call, not
	// at initialize, and no session takes one by listing the tools (a
	// client of MCP 2026-07-28 has no initialize): an agent started where
	// two seats' entries are registered opens a session for each, and
	// plays only the seat whose tools it calls (the other session's seat
	// stays free for its own agent).
	if a.grant.Grant == room.GrantObserver || take && !seatcmd.TakesSeatOnCall(agent) {
		if err := h.connect(hs); err != nil {
			return nil, err
		}
	}
	h.seats[key] = hs
	return hs, nil
}

// shortKey is a session key short enough for a log line.
func shortKey(key string) string {
	if len(key) > 20 {
		return key[len(key)-12:]
	}
	return key
}

// connect logs hs's connect line; a seat's session holds its seat
// (room.SeatHold) with a share of the host's lock of it.
func (h *Host) connect(hs *hostSeat) error {
	s := hs.seat
	if hs.grant.Grant == room.GrantObserver {
		_ = s.Room().Log(EventObserverConnect, room.F("grant", room.GrantObserver), room.F("agent", s.Agent()),
			room.F("transport", "http"), room.F("remote", hs.remote), room.F("session", shortKey(hs.key)))
		return nil
	}
	hold, err := s.Room().HoldSeat(s.Seat(), room.HoldOptions{
		Agent: s.Agent(),
		Fields: []room.Field{
			room.F("waits", room.WaitsLogged), room.F("transport", "http"), room.F("remote", hs.remote),
			room.F("session", shortKey(hs.key)),
		},
		MarkLock: true, Lenient: true, Shared: &h.locks,
	})
	if err != nil {
		return fmt.Errorf("seat %s of room %q cannot start: %w", s.Seat(), hs.grant.Room, err)
	}
	hs.hold = hold
	return nil
}

// The server.log events of a host's observers. They carry no seat field,
// so `roundtable seats` and watch do not take an observer for a seat.
const (
	EventObserverConnect    = "observer_connect"
	EventObserverDisconnect = "observer_disconnect"
)

// EventSeatRefused is the server.log line of a session refused its seat
// because its agent plays another seat of the room (fields refused: the
// seat, plays, session, why=same-agent); it has no seat field, so seat
// readers skip it.
const EventSeatRefused = "seat_refused"

// drop ends the seat of key (a session that ended or expired, or the whole
// host shutting down) and logs its disconnect with why.
func (h *Host) drop(key, why string) {
	h.mu.Lock()
	hs := h.seats[key]
	delete(h.seats, key)
	delete(h.ids, key)
	h.mu.Unlock()
	if hs == nil {
		return
	}
	if hs.grant.Grant == room.GrantObserver {
		_ = hs.seat.Room().Log(EventObserverDisconnect, room.F("grant", room.GrantObserver), room.F("transport", "http"),
			room.F("remote", hs.remote), room.F("session", shortKey(hs.key)), room.F("why", why))
		return
	}
	// The disconnect line first, then the session's share of the lock.
	_ = hs.hold.Release(room.F("transport", "http"), room.F("remote", hs.remote),
		room.F("session", shortKey(hs.key)), room.F("why", why))
}

// sweep drops the seats idle longer than the TTL with no call running.
func (h *Host) sweep(now time.Time) {
	h.mu.Lock()
	var gone []string
	for key, hs := range h.seats {
		if hs.inflight.Load() == 0 && now.Sub(time.Unix(0, hs.last.Load())) > h.opt.IdleTTL {
			gone = append(gone, key)
		}
	}
	// An ID whose session never got a seat (its initialize failed).
	for id, at := range h.ids {
		if h.seats[id] == nil && now.Sub(at) > h.opt.IdleTTL {
			delete(h.ids, id)
		}
	}
	h.mu.Unlock()
	h.sweepLimits(now)
	for _, key := range gone {
		h.drop(key, "expired")
	}
}

// freeQuiet shows the seats of sessions quiet for SeatQuiet free: no
// request, no call in flight, no event stream open. Their disconnect line
// says why; the session takes its seat again with its next request.
func (h *Host) freeQuiet(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, hs := range h.seats {
		if hs.hold == nil || hs.hold.Released() || hs.inflight.Load() > 0 ||
			now.Sub(time.Unix(0, hs.last.Load())) <= h.opt.SeatQuiet {
			continue
		}
		_ = hs.hold.Release(room.F("transport", "http"), room.F("remote", hs.remote),
			room.F("session", shortKey(hs.key)), room.F("why", "quiet"))
	}
}

// touch notes a request of session id: it is not quiet.
func (h *Host) touch(id string) {
	h.mu.Lock()
	hs := h.seats[id]
	h.mu.Unlock()
	if hs != nil {
		hs.last.Store(time.Now().UnixNano())
	}
}

// streaming counts session id's open event stream as a call in flight
// until the returned func: a client that holds its stream is there.
func (h *Host) streaming(id string) func() {
	h.mu.Lock()
	hs := h.seats[id]
	h.mu.Unlock()
	if hs == nil {
		return func() {}
	}
	hs.inflight.Add(1)
	return func() {
		hs.last.Store(time.Now().UnixNano())
		hs.inflight.Add(-1)
	}
}

// sweepLimits forgets the per-address and per-token buckets that have
// refilled (limiters.go).
func (h *Host) sweepLimits(now time.Time) {
	if h.guard != nil {
		h.guard.sweep(now)
	}
	h.limits.sweep(now)
	h.addrLimits.sweep(now)
}

// limitSweep is how often the sweeper forgets refilled buckets: a
// bucket's window (its burst's refill) is 2 s for requests and 20 s for
// wrong tokens, so idle addresses are forgotten within a window and this.
const limitSweep = 10 * time.Second

// sweeper runs sweep until ctx ends, and sweepLimits more often.
func (h *Host) sweeper(ctx context.Context) {
	t := time.NewTicker(max(h.opt.IdleTTL/4, time.Second))
	defer t.Stop()
	lt := time.NewTicker(limitSweep)
	defer lt.Stop()
	qt := time.NewTicker(max(h.opt.SeatQuiet/3, 10*time.Millisecond))
	defer qt.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			h.sweep(now)
		case now := <-lt.C:
			h.sweepLimits(now)
		case now := <-qt.C:
			h.freeQuiet(now)
		}
	}
}

// SessionCount is how many sessions hold a seat or observe.
func (h *Host) SessionCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.seats)
}

// The host is its own session ID manager: IDs are random, and only IDs it
// issued and that have not ended are valid, so a session that ended or
// expired is told so (404) and its client starts a new one.

// Generate issues a session ID.
func (h *Host) Generate() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := "rt-" + hex.EncodeToString(b[:])
	h.mu.Lock()
	h.ids[id] = time.Now()
	h.mu.Unlock()
	return id
}

// Validate accepts the IDs issued and not ended.
func (h *Host) Validate(id string) (bool, error) {
	if err := checkSessionID(id); err != nil {
		return false, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.ids[id]; !ok {
		return false, fmt.Errorf("session %s is unknown or has ended; initialize a new session", id)
	}
	return false, nil
}

// Terminate ends a session: its client deleted it, or it idled out.
func (h *Host) Terminate(id string) (bool, error) {
	why := "ended"
	select {
	case <-h.stop:
		why = "shutdown"
	default:
	}
	h.drop(id, why)
	return false, nil
}

// checkSessionID checks an Mcp-Session-Id header's form: "rt-" and 32
// lowercase hex digits. Fuzzed.
func checkSessionID(id string) error {
	const prefix = "rt-"
	if len(id) != len(prefix)+32 || id[:len(prefix)] != prefix {
		return errors.New("the Mcp-Session-Id header is not a session ID this host issued")
	}
	for _, c := range id[len(prefix):] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return errors.New("the Mcp-Session-Id header is not a session ID this host issued")
		}
	}
	return nil
}

// grantOfSession returns the grant a session was started with, if the
// session has a seat.
func (h *Host) grantOfSession(id string) (room.Grant, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if hs := h.seats[id]; hs != nil {
		return hs.grant, true
	}
	return room.Grant{}, false
}

// sessions is the host as its MCP server asks it (mcpserver.Sessions):
// the seat of a request's session, and when the session was last busy.
type sessions struct{ h *Host }

func (ss sessions) SeatFor(ctx context.Context, agent string, take bool) (*mcpserver.RemoteSeat, func(), error) {
	hs, err := ss.h.seatFor(ctx, agent, take)
	if err != nil {
		return nil, nil, err
	}
	hs.inflight.Add(1)
	return hs.seat, func() {
		hs.last.Store(time.Now().UnixNano())
		hs.inflight.Add(-1)
	}, nil
}

func (ss sessions) SeatOf(ctx context.Context) *mcpserver.RemoteSeat {
	if hs := ss.h.seatOf(ctx); hs != nil {
		return hs.seat
	}
	return nil
}

// CheckTLSFiles loads the certificate and key a host is to serve https
// with, so that a missing or mismatched file is said before the host
// says it serves.
func CheckTLSFiles(certFile, keyFile string) error {
	if _, err := tls.LoadX509KeyPair(certFile, keyFile); err != nil {
		return fmt.Errorf("load the TLS certificate %s and key %s: %w; give the PEM files of a certificate and its private key (for a test: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj /CN=localhost -keyout key.pem -out cert.pem)", certFile, keyFile, err)
	}
	return nil
}
