package web

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"sync"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/page"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// The index's room list is pushed, never polled: GET /rooms.events is an
// event stream whose "rooms" events each carry the whole list the
// visitor may watch (page.IndexListJSON), latest activity first, sent
// on connect and again whenever it changes. Its ID names the list, so an
// EventSource that reconnects (Last-Event-ID) holding the list gets
// nothing until the list changes. Like the API's stream it needs a grant
// (401), draws on the host's stream budget (webauth.BeginStream, 429), and
// shows the starter every room and a room's token its room only.
//
// One roomList serves every index client of the host. While any is
// connected it follows each room some client may see with one room.Feed
// (the store's one reader, on the Notifier the host already keeps for the
// room: no watch of its own), however many clients see it; a room nobody's
// index shows is not followed, and a minute (Options.Keep) after the last
// client left nothing runs. It learns of the rooms the host adds from the
// host itself (Rooms.RoomsChanged).

// indexStreamPath is the index's room list as an event stream.
const indexStreamPath = "/rooms.events"

// roomList is the index's list, shared by every index client of a host.
type roomList struct {
	s    *Server
	base context.Context // bounds every follow and the loop
	keep time.Duration

	recMu   sync.Mutex            // one reconcile at a time
	follows map[string]*roomTrail // under recMu

	mu       sync.Mutex
	starters int            // clients that see every room
	rooms    map[string]int // the room each other client sees: clients
	clients  int
	gen      int // bumped at each join and leave: a loop stop is for the last leave only
	stop     context.CancelFunc
	done     chan struct{}
	names    []string            // the host's rooms, as last read
	rows     map[string]trailRow // each followed room as the index shows it
	version  uint64              // bumped at each change of names or rows
	wake     chan struct{}       // closed (and replaced) at each change
	cache    listCache           // every room's list
}

// listCache is the list of every room as an event's data and ID, at
// version v.
type listCache struct {
	v    uint64
	data []byte
	id   string
}

// trailRow is a followed room's row and the follow that wrote it.
type trailRow struct {
	t   *roomTrail
	row page.IndexRoom
}

// roomTrail is one room followed for the list.
type roomTrail struct {
	cancel context.CancelFunc
}

func newRoomList(s *Server, base context.Context, keep time.Duration) *roomList {
	return &roomList{
		s: s, base: base, keep: keep,
		follows: map[string]*roomTrail{}, rooms: map[string]int{}, rows: map[string]trailRow{}, wake: make(chan struct{}),
	}
}

// join counts a client with grant g, and makes sure the rooms it sees are
// followed before it looks.
func (l *roomList) join(g room.Grant) {
	l.mu.Lock()
	l.clients++
	l.gen++
	if g.Grant == webauth.GrantStarter {
		l.starters++
	} else {
		l.rooms[g.Room]++
	}
	if l.stop == nil {
		ctx, cancel := context.WithCancel(l.base)
		l.stop, l.done = cancel, make(chan struct{})
		go l.loop(ctx, l.done)
	}
	l.mu.Unlock()
	l.reconcile()
}

// leave ends a client's hold; keep later, the rooms nobody's client sees
// any more are no longer followed, and with no client left (none came
// since), the loop stops too.
func (l *roomList) leave(g room.Grant) {
	l.mu.Lock()
	l.clients--
	l.gen++
	if g.Grant == webauth.GrantStarter {
		l.starters--
	} else if l.rooms[g.Room]--; l.rooms[g.Room] <= 0 {
		delete(l.rooms, g.Room)
	}
	gen := l.gen
	l.mu.Unlock()
	time.AfterFunc(l.keep, func() {
		l.mu.Lock()
		var stop context.CancelFunc
		var done chan struct{}
		if l.gen == gen && l.clients == 0 && l.stop != nil {
			stop, done = l.stop, l.done
			l.stop, l.done = nil, nil
		}
		l.mu.Unlock()
		if stop != nil {
			stop()
			<-done
		}
		l.reconcile()
	})
}

// loop follows the host's set of rooms while the list has clients.
func (l *roomList) loop(ctx context.Context, done chan struct{}) {
	defer close(done)
	host := l.s.opt.Host
	if host == nil { // no request reaches a face without its host
		<-ctx.Done()
		return
	}
	for {
		changed := host.RoomsChanged()
		l.reconcile()
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}

// reconcile reads the host's rooms, follows each some client sees, and
// stops following the others.
func (l *roomList) reconcile() {
	l.recMu.Lock()
	defer l.recMu.Unlock()
	host := l.s.opt.Host
	if host == nil {
		return
	}
	names := host.Rooms()
	l.mu.Lock()
	all := l.starters > 0
	wanted := make(map[string]bool, len(names))
	for _, n := range names {
		if all || l.rooms[n] > 0 {
			wanted[n] = true
		}
	}
	l.mu.Unlock()
	changed := false
	for name, t := range l.follows {
		if !wanted[name] {
			t.cancel()
			delete(l.follows, name)
			l.mu.Lock()
			delete(l.rows, name)
			l.mu.Unlock()
			changed = true
		}
	}
	for _, name := range names {
		if !wanted[name] || l.follows[name] != nil {
			continue
		}
		rm, ok := host.Room(name)
		if !ok {
			continue
		}
		if t := l.follow(rm); t != nil {
			l.follows[name] = t
			changed = true
		}
	}
	l.mu.Lock()
	if changed || !equalNames(names, l.names) {
		l.names = names
		l.changedLocked()
	}
	l.mu.Unlock()
}

func equalNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// changedLocked wakes the clients; l.mu is held.
func (l *roomList) changedLocked() {
	l.version++
	close(l.wake)
	l.wake = make(chan struct{})
}

// follow starts following rm: its row now, from the feed's snapshot, then
// again at each message and at its close. nil when rm cannot be read (it
// is listed as the host serves it, unfollowed, until the next reconcile).
func (l *roomList) follow(rm *room.Room) *roomTrail {
	ctx, cancel := context.WithCancel(l.base)
	f, err := rm.Feed(ctx)
	if err != nil {
		cancel()
		return nil
	}
	t := &roomTrail{cancel: cancel}
	snap := f.Snapshot()
	row := indexRow(snap.Config, snap.State)
	name := snap.Config.Room
	l.mu.Lock()
	l.rows[name] = trailRow{t: t, row: row}
	l.mu.Unlock()
	go func() {
		defer f.Close()
		for {
			evs, err := f.NextBatch(ctx)
			if err != nil {
				return // ctx ended, or the room cannot be read: its last row stays
			}
			next := row
			for _, e := range evs {
				switch e.Kind {
				case room.FeedMessage:
					next.Last = laterOf(next.Last, e.Message.Time())
				case room.FeedClosed:
					next.State = "live"
					if e.Closed != nil {
						next.State = "finished"
						if at, err := time.Parse(time.RFC3339Nano, e.Closed.At); err == nil {
							next.Last = laterOf(next.Last, at)
						}
					}
				case room.FeedPaused: // a closed room is never paused
					next.State = "live"
					if e.Paused != nil {
						next.State = "paused"
					}
				case room.FeedNote, room.FeedDraft, room.FeedHolder:
					// no part of the list
				}
			}
			if sameRow(next, row) {
				continue
			}
			row = next
			l.mu.Lock()
			if cur, ok := l.rows[name]; ok && cur.t == t {
				l.rows[name] = trailRow{t: t, row: row}
				l.changedLocked()
			}
			l.mu.Unlock()
		}
	}()
	return t
}

// sameRow reports whether the index shows a and b alike.
func sameRow(a, b page.IndexRoom) bool {
	return a.Name == b.Name && a.Topic == b.Topic && a.Mode == b.Mode && a.State == b.State && a.Last.Equal(b.Last)
}

func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// indexRow is a room as the index lists it, from its config and state.
func indexRow(cfg room.Config, st room.State) page.IndexRoom {
	in := page.IndexRoom{Name: cfg.Room, Topic: cfg.Topic, Mode: "MCP room", State: "live"}
	if cfg.IsDebate() {
		in.Mode = "persona debate"
	}
	in.Last, _ = time.Parse(time.RFC3339Nano, cfg.CreatedAt)
	if n := len(st.Messages); n > 0 {
		in.Last = laterOf(in.Last, st.Messages[n-1].Time())
	}
	switch {
	case st.Closed != nil:
		in.State = "finished"
		if t, err := time.Parse(time.RFC3339Nano, st.Closed.At); err == nil {
			in.Last = laterOf(in.Last, t)
		}
	case st.Paused != nil:
		in.State = "paused"
	}
	return in
}

// view is the list g sees now as an event's data and ID, and the channel
// closed at the next change.
func (l *roomList) view(g room.Grant) (data []byte, id string, wake <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	wake = l.wake
	if g.Grant == webauth.GrantStarter {
		if l.cache.data == nil || l.cache.v != l.version {
			rows := make([]page.IndexRoom, 0, len(l.names))
			for _, n := range l.names {
				if r, ok := l.rows[n]; ok {
					rows = append(rows, r.row)
				}
			}
			page.SortRooms(rows)
			l.cache.v, l.cache.data = l.version, page.IndexListJSON(rows)
			l.cache.id = listID(l.cache.data)
		}
		return l.cache.data, l.cache.id, wake
	}
	var rows []page.IndexRoom
	for _, n := range l.names {
		if r, ok := l.rows[n]; ok && mayWatch(g, n) {
			rows = append(rows, r.row)
		}
	}
	data = page.IndexListJSON(rows)
	return data, listID(data), wake
}

// listID names a list (the event's ID).
func listID(data []byte) string {
	sum := sha256.Sum256(data)
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// serveIndexStream streams the room list the request's grant may watch.
func (s *Server) serveIndexStream(w http.ResponseWriter, r *http.Request) {
	g, ok := grant(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	end, why := webauth.BeginStream(ctx)
	if why != "" {
		writeError(w, http.StatusTooManyRequests, why)
		return
	}
	defer end()
	s.list.join(g)
	defer s.list.leave(g)
	bw, flush := openEventStream(w) // as long as the page
	if !flush() {
		return
	}
	last := r.Header.Get("Last-Event-ID")
	beat := time.NewTicker(s.heartbeat)
	defer beat.Stop()
	for {
		data, id, wake := s.list.view(g)
		if id != last {
			last = id
			b := bw.AvailableBuffer()
			b = append(b, "id: "...)
			b = append(b, id...)
			b = append(b, "\nevent: rooms\ndata: "...)
			b = append(b, data...)
			b = append(b, "\n\n"...)
			_, _ = bw.Write(b)
			if !flush() {
				return
			}
		}
		if !awaitWake(ctx, wake, beat.C, bw, flush) {
			return
		}
	}
}
