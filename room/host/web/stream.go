package web

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// Every stream of one room is served from one log: a hub follows the room
// (Engine.Follow) once, however many clients watch it, and keeps
// every event it translated, so a client that comes late, or comes back
// with Last-Event-ID, reads the very events the others read, from where
// it stands. A client only holds its place in the log: a slow one holds
// back nobody, and a hundred cost the debate nothing but the writes.

// hub is the log of one room's stream.
type hub struct {
	names names // the room's agents and seats, as its IDs number them
	v     *view // the view after the last event, whose ID it gives

	mu     sync.Mutex
	events []event
	wake   chan struct{} // closed (and replaced) when events grow or the hub ends
	ended  bool          // the terminal event is in, or the room could not be read
	subs   int           // clients reading
	cancel context.CancelFunc
	gen    int // bumped at each release, to tell a stale drop apart
}

func newHub(ns names) *hub { return &hub{names: ns, v: newView(), wake: make(chan struct{})} }

// push adds events, each with its ID, and wakes the readers.
func (h *hub) push(evs []event, end bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ended {
		return
	}
	for i := range evs {
		h.v.apply(&evs[i])
		evs[i].id = h.v.encode(h.names)
	}
	h.events = append(h.events, evs...)
	if end || (len(evs) > 0 && evs[len(evs)-1].terminal()) {
		h.ended = true
	}
	close(h.wake)
	h.wake = make(chan struct{})
}

// look returns the events from i on, the channel that says there are more,
// and whether the log is complete.
func (h *hub) look(i int) ([]event, <-chan struct{}, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.events[min(i, len(h.events)):], h.wake, h.ended
}

// roomNames numbers the agents and seats of a room with cfg (moderator:
// the verdict's speaker when the room names none) for its IDs.
func roomNames(cfg room.Config, moderator string) names {
	list := append([]string{""}, cfg.Seats()...)
	if cfg.Moderator != nil && cfg.Moderator.Name != "" {
		list = append(list, cfg.Moderator.Name)
	}
	return newNames(append(list, moderator))
}

// startEvent is the room's session_start, from its room.json alone, so a
// stream starts before the room's messages are read.
func startEvent(cfg room.Config) Event {
	var agents []string
	for _, s := range cfg.Seats() {
		if s != room.SeatModerator {
			agents = append(agents, s)
		}
	}
	rounds := cfg.Rounds
	if rounds == 0 {
		rounds = cfg.Budget
	}
	return Event{Type: evSessionStart, Topic: cfg.Topic, Agents: agents, Rounds: rounds}
}

// follow fills h from r until the room's final event, ctx ends, or the
// room cannot be read (an error event says so).
func follow(ctx context.Context, eng *Engine, h *hub, r *room.Room) {
	cfg := r.Config()
	tr := newTranslator(!cfg.IsDebate(), eng.Moderator, func() closedData { return closedOf(r) })
	h.push(tr.add(nil, startEvent(cfg)), false)
	fail := func(err error) {
		if ctx.Err() != nil {
			h.push(nil, true)
			return
		}
		msg := fmt.Sprintf("the host could not read room %q: %v; reload to try again", cfg.Room, err)
		h.push(tr.add(nil, Event{Type: evError, Text: msg}), true)
	}
	st, first, err := eng.Follow(ctx, r)
	if err != nil {
		fail(err)
		return
	}
	defer st.Close()
	if len(first) > 0 && first[0].Type == evSessionStart {
		first = first[1:] // sent already, from room.json
	}
	seen := map[string]room.Holder{}
	h.push(tr.holders(translate(tr, first), st.Holders(), seen, cfg.IsDebate()), st.Ended())
	for !st.Ended() {
		evs, err := st.Next(ctx)
		if err != nil {
			fail(err)
			return
		}
		h.push(tr.holders(translate(tr, evs), st.Holders(), seen, cfg.IsDebate()), st.Ended())
	}
}

func translate(tr *translator, evs []Event) []event {
	var out []event
	for _, e := range evs {
		out = tr.add(out, e)
	}
	return out
}

// closedOf is an MCP room's close, read when its stream ends.
func closedOf(r *room.Room) closedData {
	st, err := r.State()
	if err != nil || st.Closed == nil {
		return closedData{Reason: "closed"}
	}
	c := st.Closed
	spec := c.SpecPath
	if spec == "" {
		spec = r.Config().Spec
	}
	return closedData{Reason: c.Reason, Spec: spec, Detail: c.Detail}
}

// hubs are the hubs of the rooms being watched. A hub whose last client
// left is kept for keep (a client that reconnects finds its log), then
// dropped and its follow stopped.
type hubs struct {
	mu   sync.Mutex
	m    map[string]*hub
	keep time.Duration
	ctx  context.Context // bounds every follow
	eng  *Engine
}

// acquire is the hub of r, started if there is none; release it.
func (hs *hubs) acquire(r *room.Room) *hub {
	name := r.Config().Room
	hs.mu.Lock()
	defer hs.mu.Unlock()
	h := hs.m[name]
	if h == nil {
		h = newHub(roomNames(r.Config(), hs.eng.Moderator))
		ctx, cancel := context.WithCancel(hs.ctx)
		h.cancel = cancel
		hs.m[name] = h
		go follow(ctx, hs.eng, h, r)
	}
	h.mu.Lock()
	h.subs++
	h.mu.Unlock()
	return h
}

// release ends a client's hold of h.
func (hs *hubs) release(name string, h *hub) {
	h.mu.Lock()
	h.subs--
	h.gen++
	idle, gen := h.subs == 0, h.gen
	h.mu.Unlock()
	if !idle {
		return
	}
	time.AfterFunc(hs.keep, func() {
		hs.mu.Lock()
		defer hs.mu.Unlock()
		h.mu.Lock()
		stale := h.subs == 0 && h.gen == gen
		h.mu.Unlock()
		if stale && hs.m[name] == h {
			delete(hs.m, name)
			h.cancel()
		}
	})
}

// openEventStream answers 200 as an event stream that lasts past the
// host's WriteTimeout (a failed write ends it), with the reconnection
// delay first; flush sends what was written, false once the client is gone.
func openEventStream(w http.ResponseWriter) (bw *bufio.Writer, flush func() bool) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream; charset=utf-8")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no")
	hdr.Set("X-Content-Type-Options", "nosniff")
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	w.WriteHeader(http.StatusOK)
	bw = bufio.NewWriterSize(w, 32<<10)
	fmt.Fprintf(bw, "retry: %d\n\n", retryMS)
	return bw, func() bool { return bw.Flush() == nil && rc.Flush() == nil }
}

// serveStream writes room r's events as Server-Sent Events: from the
// start, or after the event whose ID the client sends in Last-Event-ID,
// until the final event (done or error), with a comment line every
// heartbeat in between.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request, rm *room.Room) {
	ctx := r.Context()
	end, why := webauth.BeginStream(ctx)
	if why != "" {
		writeError(w, http.StatusTooManyRequests, why)
		return
	}
	defer end()
	// Last-Event-ID, which an EventSource sends when it reconnects, or
	// ?after=, where a page drawn with the room so far starts (an
	// EventSource cannot send a header the first time).
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("after")
	}
	name := rm.Config().Room
	h := s.hubs.acquire(rm)
	defer s.hubs.release(name, h)
	v, resumed := parseView(last, h.names)

	// A client resuming after the final event has it all: 204 tells an
	// EventSource to stop reconnecting.
	if resumed {
		if evs, _, ended := h.look(0); ended && !lacksAny(v, evs) {
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	bw, flush := openEventStream(w)
	if !flush() {
		return
	}
	beat := time.NewTicker(s.heartbeat)
	defer beat.Stop()
	var rs *resumer
	if resumed {
		rs = &resumer{v: v, ns: h.names}
	}
	for i := 0; ; {
		evs, wake, ended := h.look(i)
		i += len(evs)
		if rs != nil {
			evs = rs.next(evs)
		}
		for k := range evs {
			e := &evs[k]
			writeEvent(bw, e, e.id)
			if e.terminal() {
				flush()
				return
			}
		}
		if len(evs) > 0 {
			if !flush() {
				return
			}
		}
		if ended {
			return
		}
		if !awaitWake(ctx, wake, beat.C, bw, flush) {
			return
		}
	}
}

// awaitWake waits for wake, writing a heartbeat comment at each beat; false
// once ctx ends or the client is gone.
func awaitWake(ctx context.Context, wake <-chan struct{}, beat <-chan time.Time, bw *bufio.Writer, flush func() bool) bool {
	for {
		select {
		case <-wake:
			return true
		case <-beat:
			fmt.Fprint(bw, ": heartbeat\n\n")
			if !flush() {
				return false
			}
		case <-ctx.Done():
			return false
		}
	}
}

// retryMS is the reconnection delay a stream asks of its client.
const retryMS = 2000

// lacksAny reports whether a client with view v lacks anything of evs.
func lacksAny(v *view, evs []event) bool {
	rs := resumer{v: v.clone()}
	return len(rs.next(evs)) > 0
}

// writeEvent writes e, with ID id, in the event stream format. Its data
// is one line of JSON (marshal escapes every line break).
func writeEvent(w *bufio.Writer, e *event, id string) {
	b := w.AvailableBuffer()
	b = append(b, "id: "...)
	b = append(b, id...)
	b = append(b, "\nevent: "...)
	b = append(b, e.name...)
	b = append(b, "\ndata: "...)
	b = append(b, e.data...)
	b = append(b, "\n\n"...)
	_, _ = w.Write(b) // a failed write shows at the flush
}
