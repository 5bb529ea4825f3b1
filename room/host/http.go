package host

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// The limits of a host's HTTP server. A client that sends its headers or
// body slowly (slowloris) is cut off by ReadHeaderTimeout and ReadTimeout
// and holds only its own connection; WriteTimeout is above MaxWait, so a
// parked wait_for_message always gets its reply out. A keep-alive is
// closed after IdleTimeout without a request: longer than the idle
// timeouts of agents' HTTP clients (Node's 4 to 5 s), so that the client,
// not the host, usually closes it first, and short enough that idle
// connections do not pile up (connlimit.go bounds them too).
const (
	MaxBody           = 1 << 20
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 70 * time.Second
	IdleTimeout       = 10 * time.Second
	// ShutdownGrace is how long Shutdown lets calls in flight finish.
	ShutdownGrace = 15 * time.Second
)

// drainGrace is how long a stopping host waits, once the last reply is
// written, before it closes the sessions' event streams.
const drainGrace = 200 * time.Millisecond

// heartbeat is how often a session's standing event stream (its GET)
// carries a ping, so a peer that vanished is found by a failed write.
const heartbeat = 30 * time.Second

// EndpointPath is where a host serves MCP.
const EndpointPath = "/mcp"

// Handler is the host's HTTP handler: /mcp behind the checks every request
// passes, in order, none of which reads the body until the token is
// known good: the path; the Host and Origin headers (403, httpguard.go);
// the address's failed tokens, a slot reserved before the token is read
// (429, authguard.go); the bearer token (401); the token's rate (429);
// the session's grant (403) and, for a GET or DELETE, that the host
// issued the session (404); then the body's size (413) and the caps of
// sessions, parked waits and event streams (caps.go). Before any of
// them, a connection passed the listener's caps (connlimit.go, Serve),
// and every 429 or 503 answered closes its connection (closeRefusals).
func (h *Host) Handler() http.Handler {
	h.httpOnce.Do(h.buildHTTP)
	return h.handler
}

func (h *Host) buildHTTP() {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	h.httpSrv = &http.Server{
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       cmp.Or(h.opt.ConnIdleTimeout, IdleTimeout),
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	h.streamable = server.NewStreamableHTTPServer(h.mcp,
		server.WithEndpointPath(EndpointPath),
		server.WithSessionIdManager(h),
		// mcp-go's own sweep of a session's transport state comes after
		// the host's (Host.sweep), which logs why the seat went.
		server.WithSessionIdleTTL(2*h.opt.IdleTTL+2*time.Second),
		server.WithStreamableHTTPServer(h.httpSrv),
		server.WithStreamableHTTPLogger(logger),
		server.WithHeartbeatInterval(heartbeat),
		// A remote seat reaches the host by its address or name, not
		// localhost; the token, not the Host header, is what admits it.
		server.WithDisableLocalhostProtection(true),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			if a, ok := authFrom(r.Context()); ok {
				return context.WithValue(ctx, authKey{}, a)
			}
			return ctx
		}),
	)
	h.limits = newLimiters(h.opt.Rate, h.opt.Burst, tokenLimitCap)
	h.addrLimits = newLimiters(h.opt.Rate, h.opt.Burst, addrLimitCap)
	h.guard = newAuthGuard(authFailBurst, authFailRate, authFailCap, time.Now)
	maxConns, perAddr := connCaps(h.opt)
	h.connLimit = newConnLimiter(maxConns, perAddr, true, func(remote string) { h.guard.fail(clientKey(remote), h.guard.now()) })
	h.httpSrv.ConnContext = h.connLimit.connContext
	h.httpSrv.ConnState = h.connLimit.connState
	mux := http.NewServeMux()
	mux.Handle(EndpointPath, http.HandlerFunc(h.serveMCP))
	if h.opt.Web != nil {
		mux.Handle("/", http.HandlerFunc(h.serveWeb))
	}
	h.handler = closeRefusals(mux)
	h.httpSrv.Handler = h.handler
}

// refuseStopping notes that r reached the host and, when the host is
// stopping, refuses it (503): the first check of every request.
func (h *Host) refuseStopping(w http.ResponseWriter, r *http.Request) bool {
	reached(r)
	if !h.draining.Load() {
		return false
	}
	w.Header().Set("Retry-After", "5")
	refuseHTTP(w, r, http.StatusServiceUnavailable, "the host is stopping; retry in a moment or ask the room's host")
	return true
}

// serveMCP checks a request and hands it to the MCP server.
func (h *Host) serveMCP(w http.ResponseWriter, r *http.Request) {
	if h.refuseStopping(w, r) {
		return
	}
	if why := h.gate.refusal(r); why != "" {
		refuseHTTP(w, r, http.StatusForbidden, why)
		return
	}
	grant, token, ok := h.identify(w, r)
	if !ok {
		return
	}
	if grant.Grant == GrantStarter {
		refuseHTTP(w, r, http.StatusForbidden, "the starter token starts and watches debates through the host's web API (/api/sessions); it holds no seat over MCP. Connect an agent with a room's seat token")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody) // whoever reads it next
	if wait, ok := h.limits.take(grantKey(grant), time.Now()); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
		refuseHTTP(w, r, http.StatusTooManyRequests, "too many requests with this token; wait and retry")
		return
	}
	id := r.Header.Get(server.HeaderKeySessionID)
	if id != "" {
		if g, ok := h.grantOfSession(id); ok && g != grant {
			if err := h.opt.Tokens.RoomGone(g.Room); err != nil {
				roomGone(w, r, err)
				return
			}
			refuseHTTP(w, r, http.StatusForbidden, "this session was started with another token; start a new session with this one")
			return
		}
	}
	if id != "" {
		h.touch(id) // any request says the client is there
	}
	ctx := context.WithValue(r.Context(), authKey{}, auth{grant: grant, remote: r.RemoteAddr})
	switch r.Method {
	case http.MethodGet, http.MethodDelete:
		h.serveSession(w, r.WithContext(ctx), id)
	case http.MethodPost:
		h.servePost(w, r.WithContext(ctx), grant, token)
	default:
		h.streamable.ServeHTTP(w, r.WithContext(ctx))
	}
}

// identify checks r's bearer token before anything of its body is read
// and returns its grant; when it is refused the answer is written. A
// request that continues a session with the session's own token skips the
// address's bucket; any other reserves a slot of it first (authguard.go).
//
// The order is that of the official Go SDK's auth.RequireBearerToken (the
// token verified before the MCP handler sees the request). That
// middleware is not used itself: the host needs the address's slot taken
// before the check and given back after it, the session-bound skip, and
// its own answers (a room gone, 401 sentences), and the SDK is otherwise
// only a test dependency.
func (h *Host) identify(w http.ResponseWriter, r *http.Request) (room.Grant, string, bool) {
	token, perr := parseBearer(r.Header.Get("Authorization"))
	return h.check(w, r, token, perr)
}

// check is identify's verdict on token (perr: why it could not be read):
// the host's starter token (web.go) or a room's.
func (h *Host) check(w http.ResponseWriter, r *http.Request, token string, perr error) (room.Grant, string, bool) {
	bound := perr == nil && h.sessionBound(r, token)
	var slot *bucket
	if !bound {
		var ok bool
		if slot, ok = h.authReserve(w, r); !ok {
			return room.Grant{}, "", false
		}
	}
	// The slot is spent unless the token proves to be one the host knows.
	failed := true
	defer func() { h.guard.settle(slot, failed, h.guard.now()) }()
	if perr != nil {
		unauthorized(w, r, perr.Error())
		return room.Grant{}, "", false
	}
	if h.isStarter(token) {
		failed = false
		return room.Grant{Grant: GrantStarter}, token, true
	}
	grant, err := h.opt.Tokens.Authorize(token)
	if errors.Is(err, room.ErrRoomGone) {
		// A token the host knows, for a room deleted or renamed since:
		// not a guess, so not counted against the address.
		failed = false
		r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
		roomGone(w, r, err)
		return room.Grant{}, "", false
	}
	if err != nil {
		if bound {
			// The session's own token, rotated since: a failure too.
			h.authFailed(r)
		}
		unauthorized(w, r, "the bearer token is not valid for any room on this host: it is wrong or was rotated; ask the room's host for the current one")
		return room.Grant{}, "", false
	}
	failed = false
	trusted(r)
	return grant, token, true
}

// serveSession answers a GET (the session's standing event stream) or a
// DELETE (the session's end): only for a session the host issued and
// that has not ended, and one stream a session.
func (h *Host) serveSession(w http.ResponseWriter, r *http.Request, id string) {
	modern := mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))
	switch {
	case modern:
		// mcp-go answers that this protocol has no sessions.
		h.streamable.ServeHTTP(w, r)
		return
	case id == "":
		refuseHTTP(w, r, http.StatusBadRequest, "a "+r.Method+" needs the Mcp-Session-Id header of a session this host started; initialize a session with a POST first")
		return
	case checkSessionID(id) != nil || !h.live(id):
		refuseHTTP(w, r, http.StatusNotFound, "session "+shortKey(id)+" is unknown or has ended; initialize a new session")
		return
	}
	if r.Method == http.MethodDelete {
		h.streamable.ServeHTTP(w, r)
		return
	}
	end, why := h.beginStream(id)
	if why != "" {
		refuseHTTP(w, r, http.StatusConflict, why)
		return
	}
	defer end()
	defer h.streaming(id)()
	// The stream lasts as long as the session, past WriteTimeout;
	// heartbeats find a dead peer, and it ends with its session.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	ctx, cancel := h.streamContext(r.Context(), id)
	defer cancel()
	h.streamable.ServeHTTP(w, r.WithContext(ctx))
}

// servePost reads a POST's body, now that its token is known good, checks
// the caps of a new session or a parked wait, and serves it.
func (h *Host) servePost(w http.ResponseWriter, r *http.Request, grant room.Grant, token string) {
	if r.ContentLength > MaxBody {
		refuseHTTP(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is %d bytes, over the %d-byte limit; send a smaller request", r.ContentLength, MaxBody))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		refuseHTTP(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the request body is over the %d-byte limit; send a smaller request", MaxBody))
		return
	case err != nil:
		refuseHTTP(w, r, http.StatusBadRequest, "the request body could not be read: "+err.Error())
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var head rpcHead
	_ = json.Unmarshal(body, &head) // not JSON-RPC: mcp-go says so
	switch {
	case head.Method == "initialize" && r.Header.Get(server.HeaderKeySessionID) == "":
		done, why := h.beginSession(grant, token)
		if why != "" {
			w.Header().Set("Retry-After", "60")
			refuseHTTP(w, r, http.StatusTooManyRequests, why)
			return
		}
		defer func() { done(w.Header().Get(server.HeaderKeySessionID)) }()
	case head.Method == "tools/call" && head.Params.Name == "wait_for_message":
		end, why := h.beginWait(grant)
		if why != "" {
			toolRefusal(w, head.ID, why)
			return
		}
		defer end()
	}
	// Counted until the reply is written: Shutdown waits for it.
	h.posts.Add(1)
	defer h.posts.Add(-1)
	h.streamable.ServeHTTP(w, r)
}

// webAPIPrefix starts the paths of the web face's JSON API, whose
// refusals are JSON: {"error": "<sentence>"}.
const webAPIPrefix = "/api/"

func jsonError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	b, _ := json.Marshal(map[string]string{"error": msg})
	_, _ = w.Write(append(b, '\n'))
}

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg+"\n")
}

func unauthorized(w http.ResponseWriter, r *http.Request, msg string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="roundtable", error="invalid_token"`)
	refuseHTTP(w, r, http.StatusUnauthorized, msg)
}

// Serve serves the host on l until Shutdown; it returns nil after a
// Shutdown. TLS is used when certFile and keyFile are given.
func (h *Host) Serve(ctx context.Context, l net.Listener, certFile, keyFile string) error {
	h.Handler()
	h.gate.listening(l.Addr())
	go h.sweeper(ctx)
	h.connLimit.plain = certFile == "" && keyFile == ""
	l = limitListener{Listener: l, l: h.connLimit}
	var err error
	if certFile != "" || keyFile != "" {
		err = h.httpSrv.ServeTLS(l, certFile, keyFile)
	} else {
		err = h.httpSrv.Serve(l)
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops the host gracefully: it stops accepting, parked waits
// return idle at once, calls in flight (a post) finish, and every seat's
// disconnect is logged. ctx bounds the wait for calls in flight.
func (h *Host) Shutdown(ctx context.Context) error {
	h.Handler()
	// New requests are turned away, parked waits return idle, and calls
	// in flight finish before the sessions' event streams are closed, so
	// their clients get the replies.
	h.draining.Store(true)
	h.stopOnce.Do(func() { close(h.stop) })
	tick := time.NewTicker(5 * time.Millisecond)
	for h.posts.Load() > 0 && ctx.Err() == nil {
		select {
		case <-tick.C:
		case <-ctx.Done():
		}
	}
	tick.Stop()
	// The replies just written reach their clients before the streams
	// close: a client may take a closed stream for a lost session.
	select {
	case <-time.After(drainGrace):
	case <-ctx.Done():
	}
	err := h.streamable.Shutdown(ctx)
	h.mu.Lock()
	keys := make([]string, 0, len(h.seats))
	for k := range h.seats {
		keys = append(keys, k)
	}
	h.mu.Unlock()
	for _, k := range keys {
		h.drop(k, "shutdown")
	}
	for _, svc := range h.stopServices() {
		svc.notifier.Close()
	}
	return err
}
