package watch

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/follow"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// session holds what a screen runs in the background: the context its
// commands stop on, the room's Notifier and the folder watches. It is
// shared by every copy of a Model and closed once.
type session struct {
	ctx    context.Context
	cancel context.CancelFunc

	// bodyWidth and bodyHeight are the current size of the message area,
	// and md the current Markdown renderer, so background reads can render
	// new messages as Update will want them.
	bodyWidth  atomic.Int64
	bodyHeight atomic.Int64
	// colWidth is a council's column text width, 0 for a room of two
	// seats: new messages are rendered at it too.
	colWidth atomic.Int64
	md       atomic.Pointer[mdrender.Renderer]

	mu       sync.Mutex
	closed   bool
	notifier *room.Notifier
	feed     *room.Feed     // the room's changes, on notifier; read by one feedCmd at a time
	appear   *room.DirWatch // waiting for the room to appear
	log      *room.DirWatch // server.log
	// holders is closed (and replaced) when the feed reads that who
	// holds a seat changed: the seats are read again then.
	holders chan struct{}

	drafts map[string]room.Draft // the drafts as the feed last gave them (feedCmd's own)
}

func newSession(parent context.Context) *session {
	ctx, cancel := context.WithCancel(parent)
	return &session{ctx: ctx, cancel: cancel, holders: make(chan struct{}), drafts: map[string]room.Draft{}}
}

// holderNews fires when the feed next reads a change of who holds a seat.
func (s *session) holderNews() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holders
}

// holdersChanged wakes what waits on holderNews.
func (s *session) holdersChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.holders)
	s.holders = make(chan struct{})
}

// follow starts the room's feed on its Notifier (once): the one reader of
// the room's changes; nil once the session is closed.
func (s *session) follow(r *room.Room) (*room.Feed, error) {
	if s.attach(r) == nil {
		return nil, nil
	}
	s.mu.Lock()
	f := s.feed
	s.mu.Unlock()
	if f != nil {
		return f, nil
	}
	f, err := r.Feed(s.ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		f.Close()
		return nil, nil
	}
	s.feed = f
	return f, nil
}

// renderer is the screen's current Markdown renderer.
func (s *session) renderer() *mdrender.Renderer { return s.md.Load() }

// close stops every background reader and waits for them.
func (s *session) close() {
	s.cancel()
	s.mu.Lock()
	n, a, l := s.notifier, s.appear, s.log
	s.notifier, s.appear, s.log = nil, nil, nil
	s.closed = true
	s.mu.Unlock()
	if n != nil {
		n.Close()
	}
	if a != nil {
		a.Close()
	}
	if l != nil {
		l.Close()
	}
}

// appearWatch returns the watch for the room to appear, starting it once;
// nil once the session is closed.
func (s *session) appearWatch(cwd, name string) *room.DirWatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	if s.appear == nil {
		s.appear = room.WatchAppear(s.ctx, cwd, name)
	}
	return s.appear
}

// attach starts the room's Notifier (once) and stops the appear watch.
func (s *session) attach(r *room.Room) *room.Notifier {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	if s.notifier == nil {
		s.notifier = room.Watch(s.ctx, r)
	}
	n, a := s.notifier, s.appear
	s.appear = nil
	s.mu.Unlock()
	if a != nil {
		a.Close()
	}
	return n
}

// logWatch returns the watch on the room's server.log, starting it once.
func (s *session) logWatch(dir string) *room.DirWatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	if s.log == nil {
		s.log = room.WatchLog(s.ctx, dir)
	}
	return s.log
}

// wait blocks until ch fires (true) or the session ends (false).
func (s *session) wait(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// openCmd opens the room. A room that does not exist yet answers with a
// waitingMsg carrying the change to wait for.
func openCmd(id int64, s *session, cwd, name string, from phase) tea.Cmd {
	return func() tea.Msg {
		r, err := room.Open(cwd, name)
		if err != nil {
			// Start watching before looking again, so a room created in
			// between is not missed.
			w := s.appearWatch(cwd, name)
			if w == nil {
				return nil
			}
			next := w.Changed()
			if r, err = room.Open(cwd, name); err != nil {
				note := ""
				if !errors.Is(err, room.ErrNoRoom) {
					note = err.Error()
				}
				return waitingMsg{id: id, note: note, next: next}
			}
		}
		f, err := s.follow(r)
		if f == nil && err == nil {
			return nil
		}
		msg := openedMsg{id: id, r: r, err: err, from: from}
		if err == nil {
			snap := f.Snapshot()
			msg.st = snap.State
			prerender(s, snap.State.Messages)
			for _, d := range snap.Drafts {
				s.drafts[d.Seat] = d
			}
			msg.drafts = s.draftList(r)
			msg.runGone = f.RunGone()
		}
		return msg
	}
}

// waitAppearCmd waits for a change where the room should appear.
func waitAppearCmd(id int64, s *session, next <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		if !s.wait(next) {
			return nil
		}
		return retryMsg{id: id}
	}
}

// feedCmd waits for the room's next changes (room.Feed, the one reader of
// a room), then reads what they touched: its state, when a message, note,
// pause or the close came; its drafts, when one changed; whether its
// debate's process is gone, when who holds its run changed. The reads and
// the Glamour renders happen here, off the Update loop.
func feedCmd(id int64, s *session, r *room.Room) tea.Cmd {
	var f *room.Feed
	next := func(ctx context.Context) ([]room.FeedEvent, error) {
		s.mu.Lock()
		f = s.feed
		s.mu.Unlock()
		if f == nil {
			return nil, nil
		}
		return f.NextBatch(ctx)
	}
	return follow.Cmd(s.ctx, next, func(batch []room.FeedEvent, err error) tea.Msg {
		if f == nil {
			return nil
		}
		msg := feedMsg{id: id}
		if err != nil {
			msg.state = &stateMsg{id: id, err: err}
			return msg
		}
		var drafts, holders bool
		for _, fe := range batch {
			switch fe.Kind {
			case room.FeedMessage, room.FeedNote, room.FeedClosed, room.FeedPaused:
				msg.state = &stateMsg{id: id}
			case room.FeedDraft:
				drafts = true
				if fe.DraftGone {
					delete(s.drafts, fe.Draft.Seat)
				} else {
					s.drafts[fe.Draft.Seat] = fe.Draft
				}
			case room.FeedHolder:
				holders = true
			}
		}
		if msg.state != nil {
			msg.state.st = f.State()
			prerender(s, msg.state.st.Messages)
		}
		if drafts {
			msg.drafts = &draftsMsg{id: id, drafts: s.draftList(r)}
		}
		if holders {
			s.holdersChanged()
			if r.Config().IsDebate() {
				msg.run = &runMsg{id: id, gone: f.RunGone()}
			}
		}
		return msg
	})
}

// draftList is the drafts the feed last gave, in seat order, rendered at
// the screen's widths so Update finds them in the cache.
func (s *session) draftList(r *room.Room) []room.Draft {
	var ds []room.Draft
	for _, seat := range r.Config().Seats() {
		if d, ok := s.drafts[seat]; ok {
			ds = append(ds, d)
		}
	}
	md := s.renderer()
	if width := int(s.bodyWidth.Load()); md != nil && width > 0 {
		for _, d := range ds {
			md.Render(d.Text, width)
		}
	}
	if width := int(s.colWidth.Load()); md != nil && width > 0 {
		for _, d := range ds { // as a council's column draws it
			_, text := draftKind(d.Text)
			md.Render(text, width)
		}
	}
	return ds
}

// prerenderMax bounds how many messages one background read renders ahead.
const prerenderMax = 64

// prerender renders the newest messages at the current body width, newest
// first, until they fill the screen or one is already cached, so that Update
// finds them in the cache.
func prerender(s *session, msgs []room.Message) {
	h := int(s.bodyHeight.Load())
	prerenderAt(s, msgs, int(s.bodyWidth.Load()), h)
	if cw := int(s.colWidth.Load()); cw > 0 {
		prerenderAt(s, msgs, cw, h)
	}
}

// prerenderAt renders the newest messages at width w until they fill h
// lines.
func prerenderAt(s *session, msgs []room.Message, w, h int) {
	md := s.renderer()
	if md == nil || w <= 0 {
		return
	}
	lines := 0
	for i := len(msgs) - 1; i >= 0 && i >= len(msgs)-prerenderMax && lines < h; i-- {
		m := &msgs[i]
		if isVerdict(m) {
			continue // rendered at the panel's width, in Update
		}
		if out, ok := md.Cached(m.Text, w); ok {
			lines += countLines(out)
			continue
		}
		lines += countLines(md.Render(m.Text, w))
	}
}

// seatsCmd waits until server.log differs from sig, then reads the seats.
func seatsCmd(id int64, s *session, dir, sig string) tea.Cmd {
	return seatsWatchCmd(id, s, dir, sig, nil)
}

// seatsWatchCmd is seatsCmd for a screen showing seats: while one of them
// is held through its lock (a person, a roundtable seat), it also wakes
// when the room's feed reads that a holder changed (a holder killed
// writes nothing: the feed reads the locks again while one is live) and
// answers as soon as one of them has gone (room.ReadSeats decides from
// the lock), server.log unchanged.
func seatsWatchCmd(id int64, s *session, dir, sig string, seats []room.SeatInfo) tea.Cmd {
	held := map[string]int{} // seat: the pid its connect line names
	for _, st := range seats {
		if st.State != room.StateDisconnected && st.State != room.StateAbsent && st.Locked {
			held[st.Seat] = st.PID
		}
	}
	return func() tea.Msg {
		w := s.logWatch(dir)
		if w == nil {
			return nil
		}
		for {
			next := w.Changed()
			now := room.StatSig(filepath.Join(dir, room.LogFile))
			if now != sig {
				seats, err := room.ReadSeats(dir)
				return seatsMsg{id: id, seats: seats, err: err, sig: now}
			}
			if len(held) == 0 {
				if !s.wait(next) {
					return nil
				}
				continue
			}
			select {
			case <-next:
			case <-s.ctx.Done():
				return nil
			case <-s.holderNews():
				// Two small reads and a signal 0 a seat; server.log is
				// read only once a holder has gone.
				for seat, pid := range held {
					if h := room.SeatHolder(dir, seat); h.Known && (!h.Live || (pid > 0 && h.PID != pid)) {
						seats, err := room.ReadSeats(dir)
						return seatsMsg{id: id, seats: seats, err: err, sig: now}
					}
				}
			}
		}
	}
}

// tickCmd sends a tickMsg after d, unless the session ends first.
func tickCmd(id int64, gen int, s *session, d time.Duration) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case now := <-t.C:
			return tickMsg{id: id, gen: gen, now: now}
		case <-s.ctx.Done():
			return nil
		}
	}
}

// specCmd reads the spec file the room names, spec, through the store
// (Room.ReadSpec, which refuses links, FIFOs and files over 4 MiB) and
// renders it at width. path is the request's key.
func specCmd(id int64, md *mdrender.Renderer, r *room.Room, spec, path string, width int) tea.Cmd {
	return func() tea.Msg {
		data, err := r.ReadSpec(spec)
		if err != nil {
			return specMsg{id: id, path: path, width: width, err: err}
		}
		return specMsg{id: id, path: path, width: width, rendered: md.Render(string(data), width)}
	}
}
