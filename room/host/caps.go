package host

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// What one token, and the whole host, may hold at once. A session costs
// the host about 22 kB and a parked wait or an event stream a connection
// and a few goroutines, so without caps one observer token could hold
// thousands of each at the token's request rate.
const (
	// MaxSessionsPerToken is how many MCP sessions one token may hold: far
	// more than the agents of one seat, and about 1.4 MB of the host.
	MaxSessionsPerToken = 64
	// MaxSessions is how many MCP sessions the whole host holds: about
	// 22 MB.
	MaxSessions = 1024
	// MaxWaitsPerToken is how many wait_for_message calls one token may
	// have parked at once.
	MaxWaitsPerToken = 32
	// streamCheck is how often, at most, an open event stream (a
	// session's GET) checks that its session still lives: a session that
	// ended or idled out (no request for the host's IdleTTL) has its
	// stream closed.
	streamCheck = 5 * time.Second
)

// caps counts what each token and session holds.
type caps struct {
	mu       sync.Mutex
	sessions map[string]sessionRec // by session ID, the sessions this host issued
	pending  map[string]int        // initializes being answered, by grant key
	nPending int
	waits    map[string]int // parked waits, by grant key
	streams  map[string]int // open event streams, by session ID
}

// sessionRec is who started a session: its grant and its token's hash.
type sessionRec struct {
	grant string
	sum   [sha256.Size]byte
}

func newCaps() *caps {
	return &caps{sessions: map[string]sessionRec{}, pending: map[string]int{}, waits: map[string]int{}, streams: map[string]int{}}
}

// minutes says d in whole minutes when it is some, as a sentence would.
func minutes(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}

func grantKey(g room.Grant) string { return g.Room + "/" + g.Grant }

// live reports whether the session id was issued and has not ended.
func (h *Host) live(id string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.ids[id]
	return ok
}

// sessionBound reports whether r continues a live session with the token
// that session started with (the skip of authguard.go).
func (h *Host) sessionBound(r *http.Request, token string) bool {
	id := r.Header.Get(server.HeaderKeySessionID)
	if id == "" || checkSessionID(id) != nil {
		return false
	}
	h.caps.mu.Lock()
	rec, ok := h.caps.sessions[id]
	h.caps.mu.Unlock()
	if !ok || !h.live(id) {
		return false
	}
	sum := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(sum[:], rec.sum[:]) == 1
}

// prune forgets the sessions that ended. With c.mu held.
func (h *Host) prune() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id := range h.caps.sessions {
		if _, ok := h.ids[id]; !ok {
			delete(h.caps.sessions, id)
		}
	}
	for id := range h.caps.streams {
		if _, ok := h.ids[id]; !ok && h.caps.streams[id] == 0 {
			delete(h.caps.streams, id)
		}
	}
}

// beginSession reserves room for a new session of grant g (an
// initialize). It returns why not, or a func to call with the response's
// session ID once the request is answered.
func (h *Host) beginSession(g room.Grant, token string) (func(id string), string) {
	c := h.caps
	key := grantKey(g)
	c.mu.Lock()
	defer c.mu.Unlock()
	h.prune()
	n := c.pending[key]
	for _, rec := range c.sessions {
		if rec.grant == key {
			n++
		}
	}
	if n >= MaxSessionsPerToken {
		return nil, fmt.Sprintf("this token already holds %d sessions, the most one token may (its agents' sessions end when they exit or after %s without a request); close the agents you no longer use, or wait, then retry", MaxSessionsPerToken, minutes(h.opt.IdleTTL))
	}
	if len(c.sessions)+c.nPending >= MaxSessions {
		return nil, fmt.Sprintf("the host holds %d sessions, the most it serves at once; retry once some have ended (after %s without a request), or ask the room's host", MaxSessions, minutes(h.opt.IdleTTL))
	}
	c.pending[key]++
	c.nPending++
	sum := sha256.Sum256([]byte(token))
	return func(id string) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.pending[key]--
		if c.pending[key] == 0 {
			delete(c.pending, key)
		}
		c.nPending--
		if id != "" && h.live(id) {
			c.sessions[id] = sessionRec{grant: key, sum: sum}
		}
	}, ""
}

// beginWait counts a parked wait of grant g; it returns why not, or the
// func that ends it.
func (h *Host) beginWait(g room.Grant) (func(), string) {
	c := h.caps
	key := grantKey(g)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.waits[key] >= MaxWaitsPerToken {
		return nil, fmt.Sprintf("this token already has %d wait_for_message calls waiting, the most one token may; let one of them return (each returns by its timeout_seconds) before starting another", MaxWaitsPerToken)
	}
	c.waits[key]++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.waits[key]--; c.waits[key] <= 0 {
			delete(c.waits, key)
		}
	}, ""
}

// beginStream counts an event stream (a GET) of session id; it returns
// why not, or the func that ends it.
func (h *Host) beginStream(id string) (func(), string) {
	c := h.caps
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.streams[id] >= 1 {
		return nil, "this session already has its event stream (GET) open, and a session has one; close that one first, or start a new session"
	}
	c.streams[id]++
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.streams[id]--; c.streams[id] <= 0 {
			delete(c.streams, id)
		}
	}, ""
}

// streamContext is ctx, ended as well once session id ends or idles out.
func (h *Host) streamContext(ctx context.Context, id string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	every := min(streamCheck, max(h.opt.IdleTTL/4, 10*time.Millisecond))
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if !h.live(id) {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}

// rpcHead is what the caps read of a POST's JSON-RPC message.
type rpcHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

// toolRefusal writes a tool call's refusal as its JSON-RPC result, the
// way the tools refuse (isError), so the agent reads the sentence.
func toolRefusal(w http.ResponseWriter, id json.RawMessage, msg string) {
	reply, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"result": map[string]any{
			"content": []any{map[string]any{"type": "text", "text": msg}},
			"isError": true,
		},
	})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(reply)
}
