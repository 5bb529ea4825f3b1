package debateview

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// A debate room read from the store, whatever its state: one that another
// process runs (a headless `roundtable debate`, another terminal's screen)
// is drawn as it changes, each persona's turn in progress streaming into
// its column from the persona's draft; a finished one is the same room,
// closed (the replay). applyRoom is the one step that turns what the store
// holds into the columns.

// Snapshot is a debate room as read from the store at one moment: its
// state (messages, notes, closure), the drafts of the turns being written,
// and whether the process that ran it ended without closing it.
type Snapshot struct {
	State     room.State
	Drafts    []room.Draft
	Abandoned bool
}

// RoomFeed is a debate room opened for the screen (OpenRoom): the room,
// what it held when opened and, while it is open, the watch that tells
// of its changes.
type RoomFeed struct {
	Room  *room.Room
	First Snapshot
	watch *roomWatch
	next  next       // the change after First was read
	link  RemoteLink // a mirror of a room a host serves (OpenRemote); nil otherwise
}

// Close stops the feed's watch; the screen built from it does so itself
// (Model.Close). It may be called more than once.
func (f RoomFeed) Close() {
	if f.watch != nil {
		f.watch.cancel()
	}
}

// feedState is what the screen took in from its room so far.
type feedState struct {
	applied int                  // messages taken in
	notes   int                  // notes taken in
	models  map[string]bool      // the agents seen in messages
	labels  []string             // in the order first seen
	lastAt  map[string]time.Time // each seat's latest message
	live    map[string]*turn     // each seat's turn in progress, from its draft
	draftAt map[string]time.Time // the start of the draft that turn shows

	watch     *roomWatch // nil when the room is not watched (closed)
	next      next       // what to wait on for the change after the last read
	abandoned bool       // the process running the debate ended without closing it
	link      RemoteLink // the room is a mirror of a host's (remote.go); nil otherwise
}

func newFeedState() *feedState {
	return &feedState{
		models: map[string]bool{}, lastAt: map[string]time.Time{},
		live: map[string]*turn{}, draftAt: map[string]time.Time{},
	}
}

// roomWatch wakes the screen when its room changes: the room's Notifier,
// for messages, notes and closure (Changed) and for drafts
// (DraftsChanged). It runs until its context ends.
type roomWatch struct {
	ctx    context.Context
	cancel context.CancelFunc
	r      *room.Room // the watch's own handle on the room
	n      *room.Notifier
	link   RemoteLink // a mirror's link to its host, whose news it waits for too; nil: a local room
}

// runPoll is how often a watched room's run lock is read: a process
// killed writes nothing, so only its lock, freed by the kernel, tells that
// it is gone.
const runPoll = 2 * time.Second

// startRoomWatch watches the room r names through a handle of its own, so
// the screen's handle (exports, R) never reads through a stopped watch.
func startRoomWatch(parent context.Context, r *room.Room) (*roomWatch, error) {
	own, err := room.Open(r.Cwd(), r.Config().Room)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(parent)
	return &roomWatch{ctx: ctx, cancel: cancel, r: own, n: room.Watch(ctx, own)}, nil
}

// next is what to wait on for the change after now: take it before
// reading, so no change in between is missed.
type next struct{ n, d <-chan struct{} }

func (w *roomWatch) next() next { return next{w.n.Changed(), w.n.DraftsChanged()} }

// read is the room now. The run lock is read only when asked (withRun),
// since drafts change many times a second: feedCmd reads it every runPoll.
func read(r *room.Room, withRun bool) (Snapshot, error) {
	st, err := r.State()
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{State: st}
	if st.Closed == nil {
		s.Drafts, _ = r.Drafts() // a draft that cannot be read is not shown
		if withRun {
			s.Abandoned = debate.Abandoned(r)
		}
	}
	return s, nil
}

// OpenRoom reads a debate room for the screen and, while it is open,
// starts watching it (until ctx ends or the screen's Close). It reads from
// disk: call it in a tea.Cmd.
func OpenRoom(ctx context.Context, r *room.Room) (RoomFeed, error) {
	return openRoom(ctx, r, nil)
}

// openRoom is OpenRoom; with link, r is a mirror of a room a host serves
// (OpenRemote): no run of it is here to check.
func openRoom(ctx context.Context, r *room.Room, link RemoteLink) (RoomFeed, error) {
	w, err := startRoomWatch(ctx, r)
	if err != nil {
		return RoomFeed{}, err
	}
	w.link = link
	nx := w.next()
	first, err := read(w.r, link == nil)
	if err != nil {
		w.cancel()
		return RoomFeed{}, err
	}
	if first.State.Closed != nil {
		w.cancel()
		w = nil
	}
	return RoomFeed{Room: r, First: first, watch: w, next: nx, link: link}, nil
}

// feedMsg is the room after a change.
type feedMsg struct {
	id    int64
	watch *roomWatch
	snap  Snapshot
	err   error
	next  next        // taken before the read
	link  *linkStatus // the link's new status, on a mirror (remote.go)
}

// feedCmd waits for the room to change after the last read (nx, taken
// before it), or, every runPoll, for its run to end or come back, then
// reads it. On a mirror (w.link) there is no run to poll: it waits for the
// link's news instead.
func feedCmd(id int64, w *roomWatch, nx next, abandoned bool) tea.Cmd {
	return func() tea.Msg {
		var poll <-chan time.Time
		var linkNews <-chan struct{}
		if w.link != nil {
			linkNews = w.link.Wake()
		} else {
			t := time.NewTicker(runPoll)
			defer t.Stop()
			poll = t.C
		}
		for {
			withRun := false
			var ls *linkStatus
			select {
			case <-w.ctx.Done():
				return nil
			case <-nx.n:
			case <-nx.d:
			case <-linkNews:
				ls = newLinkStatus(w.link)
			case <-poll:
				if debate.Abandoned(w.r) == abandoned {
					continue
				}
				withRun = true
			}
			after := w.next()
			snap, err := read(w.r, withRun)
			if !withRun {
				snap.Abandoned = abandoned
			}
			return feedMsg{id: id, watch: w, snap: snap, err: err, next: after, link: ls}
		}
	}
}

// NewFromRoom shows a debate room read from the store: live while another
// process runs it, as a replay once it is closed. rerun, when not nil, is
// the same debate ready to run again (r), as for NewReplay.
func NewFromRoom(opts Options, f RoomFeed, rerun *Launch) Model {
	m := newRoomModel(opts, f.Room, rerun)
	m.feed.watch, m.feed.next, m.feed.link = f.watch, f.next, f.link
	if f.watch != nil {
		m.autoFocus = true
		m.animating = true // Init starts the tick
		for _, c := range m.cols {
			c.scroll.follow = true
		}
		m.setWatchingStatus()
	}
	m.applyRoom(f.First)
	m.syncKeys()
	return m
}

// newRoomModel is the screen on a debate room before anything of it is
// taken in: its topic, rounds and panel from the room's config.
func newRoomModel(opts Options, r *room.Room, rerun *Launch) Model {
	m := newModel(opts)
	m.launch = rerun
	cfg := r.Config()
	m.room = r
	m.topic = cfg.Topic
	m.rounds = cfg.Rounds
	if m.rounds == 0 {
		m.rounds = cfg.Budget
	}
	m.setPanel(cfg.Agents)
	m.phase = phaseReplay
	m.autoFocus = false
	m.feed = newFeedState()
	if t, err := parseTime(cfg.CreatedAt); err == nil {
		m.started = t
	}
	return m
}

// watching reports whether the screen follows a room another process
// runs: open, and watched.
func (m *Model) watching() bool { return m.feed != nil && m.feed.watch != nil }

// followingRun reports whether the screen follows a debate another
// process is running now: its spinner and clock move.
func (m *Model) followingRun() bool { return m.watching() && !m.feed.abandoned }

// Close stops the screen's watch on its room, if any: call it when the
// screen is left. It does not wait.
func (m *Model) Close() {
	if m.watching() {
		m.feed.watch.cancel()
		m.feed.watch = nil
	}
}

// onFeed takes the room after a change and waits for the next one.
func (m *Model) onFeed(msg feedMsg) tea.Cmd {
	if !m.watching() || msg.watch != m.feed.watch {
		return nil
	}
	m.feed.next = msg.next
	m.showLink(msg.link)
	if msg.err != nil {
		m.setError("Cannot read room " + m.roomName() + ": " + mdrender.Inline(msg.err.Error()) + ". The screen reads it again at its next change.")
		return m.waitFeed()
	}
	m.applyRoom(msg.snap)
	cmds := []tea.Cmd{m.growNow(false), m.animate()}
	if m.watching() {
		cmds = append(cmds, m.waitFeed())
	}
	return tea.Batch(cmds...)
}

// waitFeed waits for the room's next change.
func (m *Model) waitFeed() tea.Cmd {
	return feedCmd(m.id, m.feed.watch, m.feed.next, m.feed.abandoned)
}

// applyRoom takes a snapshot of the room into the screen: the messages and
// notes not taken in yet, in order; each open seat's draft as its turn in
// progress; the closure, which ends the watch and says how the debate
// ended. A closed room read once is the replay.
func (m *Model) applyRoom(s Snapshot) {
	f := m.feed
	st := s.State
	msgs := st.Messages
	if f.applied > len(msgs) {
		f.applied = len(msgs) // never happens: messages are only added
	}
	notes := noteQueue{notes: st.Notes, next: min(f.notes, len(st.Notes))}
	for _, msg := range msgs[f.applied:] {
		notes.upTo(m, msg.Seq)
		if msg.Agent != "" && !f.models[msg.Agent] {
			f.models[msg.Agent] = true
			f.labels = append(f.labels, msg.Agent)
		}
		if t := msg.Time(); t.After(f.lastAt[msg.Seat]) {
			f.lastAt[msg.Seat] = t
		}
		if u := debate.UsageOf(msg); u != (debate.Usage{}) {
			m.countTurn(msg.Seat, u)
			m.usage.Add(u)
		}
		m.round = max(m.round, msg.Round)
		if msg.Seat == room.SeatModerator {
			m.verdict.text = msg.Text
			m.verdict.waiting = false
			m.verdict.w = 0
			m.verdict.scroll = newScroller()
			m.verdict.scroll.follow = false // read from its start
			m.verdict.gen++
			if m.autoFocus {
				m.focus = len(m.cols)
			}
			continue
		}
		m.takeTurn(msg)
	}
	f.applied = len(msgs)
	notes.rest(m)
	f.notes = notes.next
	m.provider = strings.Join(f.labels, ", ")
	if st.Closed != nil || !m.watching() {
		m.closeFeed(st, s.Drafts)
		return
	}
	m.takeDrafts(s.Drafts)
	if s.Abandoned != f.abandoned {
		f.abandoned = s.Abandoned
		m.ended = time.Time{}
		if s.Abandoned {
			m.ended = m.now // the clock stops with the run
			m.setError("The process running this debate ended without closing its room: esc, then open the room again to close it as failed; R there resumes it.")
		} else {
			m.setWatchingStatus() // a process runs it again (--resume)
		}
	}
}

// setWatchingStatus says that another process runs the debate.
func (m *Model) setWatchingStatus() {
	if m.remote() {
		m.setRemoteStatus()
		return
	}
	m.setStatus(fmt.Sprintf("Watching room %s: its debate runs in another process, which saves it as it goes. esc goes back; the debate goes on.", m.roomName()))
}

// takeTurn takes a persona's finished turn: the turn its draft showed
// becomes the message, or a new turn is added.
func (m *Model) takeTurn(msg room.Message) {
	c := m.column(msg.Seat)
	incomplete := msg.Kind == debate.KindIncomplete
	t := m.feed.live[msg.Seat]
	if t == nil {
		c.turns = append(c.turns, &turn{round: msg.Round, text: msg.Text, incomplete: incomplete})
		c.gen++
		return
	}
	delete(m.feed.live, msg.Seat)
	delete(m.feed.draftAt, msg.Seat)
	if c.grow != nil {
		c.grow.Flush()
		t.body = fitLines(c.grow.View(), c.w)
		t.w = c.w
	}
	t.round, t.text, t.streaming, t.incomplete, t.exact, t.head = msg.Round, msg.Text, false, incomplete, false, ""
	c.grow, c.speaking, c.thinking = nil, false, false
	c.gen++
}

// takeDrafts shows each seat's draft as its turn in progress. A draft
// older than its seat's latest message is left over from that message; a
// turn whose draft went away stays until its message comes.
func (m *Model) takeDrafts(drafts []room.Draft) {
	f := m.feed
	weighing := false
	for _, d := range drafts {
		if last, ok := f.lastAt[d.Seat]; ok && !d.StartedAt.IsZero() && !last.Before(d.StartedAt) {
			continue
		}
		if d.Seat == room.SeatModerator {
			weighing = true
			continue
		}
		c := m.column(d.Seat)
		t := f.live[d.Seat]
		if t == nil || !f.draftAt[d.Seat].Equal(d.StartedAt) {
			if t != nil { // the turn began again (a retry): its new draft replaces it
				c.turns = slices.DeleteFunc(c.turns, func(x *turn) bool { return x == t })
			}
			t = &turn{round: m.nextRound(c), streaming: true}
			c.turns = append(c.turns, t)
			c.grow = m.md.NewGrowing(max(c.w, mdrender.MinWidth))
			f.live[d.Seat], f.draftAt[d.Seat] = t, d.StartedAt
			if m.autoFocus {
				m.focus = m.byName[d.Seat]
			}
		}
		if c.grow == nil {
			c.grow = m.md.NewGrowing(max(c.w, mdrender.MinWidth))
		}
		if old := c.grow.Text(); strings.HasPrefix(d.Text, old) {
			c.grow.Append(d.Text[len(old):])
		} else {
			c.grow = m.md.NewGrowing(max(c.w, mdrender.MinWidth))
			c.grow.Append(d.Text)
		}
		c.speaking, c.thinking = true, strings.TrimSpace(d.Text) == ""
		c.gen++
	}
	if weighing != m.verdict.waiting && m.verdict.text == "" {
		m.verdict.waiting = weighing
		m.verdict.gen++
		if weighing && m.autoFocus {
			m.focus = len(m.cols)
		}
	}
}

// nextRound is the round of the turn c's persona begins now: the one
// after its last turn (each persona speaks once a round).
func (m *Model) nextRound(c *column) int {
	for i := len(c.turns) - 1; i >= 0; i-- {
		if !c.turns[i].note {
			return c.turns[i].round + 1
		}
	}
	return 1
}

// closeFeed ends the watch on a room found closed (or read once, as a
// replay): turns left in progress go (their message, if any, is in),
// and the status says how the debate ended.
func (m *Model) closeFeed(st room.State, _ []room.Draft) {
	f := m.feed
	for seat, t := range f.live {
		c := m.column(seat)
		c.turns = slices.DeleteFunc(c.turns, func(x *turn) bool { return x == t })
		c.grow, c.speaking, c.thinking = nil, false, false
		c.gen++
	}
	clear(f.live)
	clear(f.draftAt)
	m.verdict.waiting = false
	wasLive := m.watching()
	m.Close()
	m.ended = m.started
	if n := len(st.Messages); n > 0 {
		if t := st.Messages[n-1].Time(); !t.IsZero() {
			m.ended = t
		}
	}
	if !wasLive {
		for _, c := range m.cols {
			c.scroll.follow = false
		}
		m.verdict.scroll.follow = false
	}
	cfg := m.room.Config()
	switch {
	case st.Closed == nil:
		m.closed = "still open"
		m.setStatus("This debate has not ended: it is shown as it was when opened.")
	case debate.IsComplete(st.Closed.Reason):
		m.closed = "complete"
		m.setStatus("A finished debate, read from room " + mdrender.Inline(cfg.Room) + ". e exports it.")
		if budget, ok := strings.CutPrefix(st.Closed.Reason, debate.ReasonBudget); ok {
			m.acct.budget = mdrender.Inline(budget)
			m.setStatus("A finished debate, stopped early because " + m.acct.budget + ". e exports it.")
		}
	default:
		m.closed = mdrender.Inline(st.Closed.Reason)
		m.setStatus("This debate ended early: " + m.closed + ".")
	}
	if m.verdict.text != "" {
		m.focus = len(m.cols)
	}
	if len(st.Skipped) > 0 {
		m.setError("Some message files could not be read and are left out; see " + mdrender.Inline(m.room.MessagesDir()) + ".")
	}
	m.offerRetry()
}

// elsewhereLabel is the header's state while another process runs the
// debate: who speaks, and where it runs.
func (m *Model) elsewhereLabel() string {
	s := &m.styles
	if m.feed.abandoned {
		return s.Error.Render("✗ its process ended: not running")
	}
	where := s.Muted.Render(m.whereLabel())
	frame := s.Spinner.Render(spin.Frames[m.frame])
	for _, c := range m.cols {
		if c.speaking {
			return frame + c.seat.Name.Render(c.label) + s.Muted.Render(" is speaking") + where
		}
	}
	if m.verdict.waiting {
		return frame + m.verdict.seat.Name.Render("Moderator") + s.Muted.Render(" is weighing the debate") + where
	}
	return frame + s.Muted.Render("waiting") + where
}
