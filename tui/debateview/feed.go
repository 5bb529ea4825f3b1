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
	"github.com/roundtable-dev/roundtable/tui/internal/follow"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// A debate room read from the store, whatever its state: one that another
// process runs (a headless `roundtable debate`, another terminal's screen)
// is drawn as it changes, each persona's turn in progress streaming into
// its column from the persona's draft; a finished one is the same room,
// closed (the replay). A room followed comes through the room's feed
// (debate.FollowStore on room.Feed, which also says when its run dies);
// a room read once (a replay) through debate.RoomReader. Both give the
// debate's events to the one apply step (events.go).

// Snapshot is a debate room as read from the store at one moment (a
// replay, read once): its state (messages, notes, closure), the drafts of
// the turns being written, and whether the process that ran it ended
// without closing it.
type Snapshot struct {
	State     room.State
	Drafts    []room.Draft
	Abandoned bool
}

// RoomFeed is a debate room opened for the screen (OpenRoom): the room,
// what it held when opened and, while it is open, the room's feed that
// tells of its changes.
type RoomFeed struct {
	Room  *room.Room
	first []debate.Event // the room when opened, as the debate's events
	state room.State     // the room when opened
	watch *roomWatch
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
	reader *debate.RoomReader // a room read once (replay): its contents as the debate's events
	models map[string]bool    // the model labels seen
	labels []string           // in the order first seen

	watch     *roomWatch // nil when the room is not watched (closed)
	abandoned bool       // the process running the debate ended without closing it
	link      RemoteLink // the room is a mirror of a host's (remote.go); nil otherwise
}

func newFeedState(cfg room.Config) *feedState {
	return &feedState{reader: debate.NewRoomReader(cfg), models: map[string]bool{}}
}

// roomWatch follows the screen's room through the room's feed
// (debate.FollowStore, on room.Feed), as every reader of a room does: its
// changes as the debate's events, and who holds its run. It runs until
// its context ends.
type roomWatch struct {
	ctx    context.Context
	cancel context.CancelFunc
	r      *room.Room // the watch's own handle on the room
	f      *debate.StoreEvents
	link   RemoteLink // a mirror's link to its host, whose news it waits for too; nil: a local room
}

// abandoned reports whether the debate's run ended without closing its
// room, as the feed last read who holds it; never on a mirror, whose run
// is on its host.
func (w *roomWatch) abandoned() bool { return w.link == nil && w.f.RunGone() }

// OpenRoom reads a debate room for the screen and, while it is open,
// starts watching it (until ctx ends or the screen's Close). It reads from
// disk: call it in a tea.Cmd.
func OpenRoom(ctx context.Context, r *room.Room) (RoomFeed, error) {
	return openRoom(ctx, r, nil)
}

// openRoom is OpenRoom; with link, r is a mirror of a room a host serves
// (OpenRemote): no run of it is here to check. The room is followed
// through a handle of its own, so the screen's handle (exports, R) never
// reads through a stopped watch.
func openRoom(parent context.Context, r *room.Room, link RemoteLink) (RoomFeed, error) {
	own, err := room.Open(r.Cwd(), r.Config().Room)
	if err != nil {
		return RoomFeed{}, err
	}
	ctx, cancel := context.WithCancel(parent)
	f, first, err := debate.FollowStore(ctx, own)
	if err != nil {
		cancel()
		return RoomFeed{}, err
	}
	w := &roomWatch{ctx: ctx, cancel: cancel, r: own, f: f, link: link}
	st := f.State()
	if st.Closed != nil {
		cancel()
		w = nil
	}
	return RoomFeed{Room: r, first: first, state: st, watch: w, link: link}, nil
}

// feedMsg is the room's next change, as the debate's events.
type feedMsg struct {
	id        int64
	watch     *roomWatch
	events    []debate.Event
	closed    *room.State // the room, when these events closed it
	abandoned bool        // who holds its run, as read with them
	err       error
	link      *linkStatus // the link's new status, on a mirror (remote.go)
}

// feedCmd waits for the room's next change (its feed reads who holds the
// run as it goes: a run killed shows only as its lock freed) and returns
// its events. On a mirror it wakes for the link's news too.
func feedCmd(id int64, w *roomWatch) tea.Cmd {
	var link *linkStatus // the link's news, when it woke the wait
	next := func(ctx context.Context) ([]debate.Event, error) {
		if w.link == nil {
			return w.f.Next(ctx)
		}
		c, cancel := context.WithCancel(ctx)
		defer cancel()
		news := make(chan *linkStatus, 1)
		go func() {
			select {
			case <-w.link.Wake():
				news <- newLinkStatus(w.link)
				cancel()
			case <-c.Done():
			}
		}()
		evs, err := w.f.Next(c)
		select {
		case link = <-news:
			err = nil // woken by the link, not failed
		default:
		}
		return evs, err
	}
	return follow.Cmd(w.ctx, next, func(evs []debate.Event, err error) tea.Msg {
		msg := feedMsg{id: id, watch: w, events: evs, abandoned: w.abandoned(), link: link, err: err}
		if err == nil && w.f.Ended() {
			st := w.f.State()
			msg.closed = &st
		}
		return msg
	})
}

// NewFromRoom shows a debate room read from the store: live while another
// process runs it, as a replay once it is closed. rerun, when not nil, is
// the same debate ready to run again (r), as for NewReplay.
func NewFromRoom(opts Options, f RoomFeed, rerun *Launch) Model {
	m := newRoomModel(opts, f.Room, rerun)
	m.feed.watch, m.feed.link = f.watch, f.link
	if f.watch != nil {
		m.autoFocus = true
		m.animating = true // Init starts the tick
		for _, c := range m.cols {
			c.scroll.follow = true
		}
		m.setWatchingStatus()
	}
	var abandoned bool
	if f.watch != nil {
		abandoned = f.watch.abandoned()
	}
	m.applyEvents(f.first)
	m.afterEvents(f.state, f.state.Closed != nil, abandoned)
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
	m.feed = newFeedState(cfg)
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
	m.showLink(msg.link)
	if msg.err != nil {
		m.setError("Cannot read room " + m.roomName() + ": " + mdrender.Inline(msg.err.Error()) + ". The screen reads it again at its next change.")
		return m.waitFeed()
	}
	m.applyEvents(msg.events)
	var st room.State
	if msg.closed != nil {
		st = *msg.closed
	}
	m.afterEvents(st, msg.closed != nil, msg.abandoned)
	cmds := []tea.Cmd{m.growNow(false), m.animate()}
	if m.watching() {
		cmds = append(cmds, m.waitFeed())
	}
	return tea.Batch(cmds...)
}

// waitFeed waits for the room's next change.
func (m *Model) waitFeed() tea.Cmd {
	return feedCmd(m.id, m.feed.watch)
}

// applyRoom takes a look at the room into the screen: what it holds
// beyond the last look, as the debate's events (debate.RoomReader), goes
// through the one apply step every debate screen uses (apply, events.go);
// the closure ends the watch and says how the debate ended. A closed room
// read once is the replay.
func (m *Model) applyRoom(s Snapshot) {
	m.applyEvents(m.feed.reader.Read(s.State, s.Drafts))
	m.afterEvents(s.State, s.State.Closed != nil, s.Abandoned)
}

// applyEvents takes the room's events into the screen through the one
// apply step (events.go).
func (m *Model) applyEvents(evs []debate.Event) {
	f := m.feed
	for _, ev := range evs {
		if ev.IsTerminal() || ev.Type == debate.EventBudget {
			continue // closeFeed says how it ended, from closed.json
		}
		if ev.Model != "" && !f.models[ev.Model] {
			f.models[ev.Model] = true
			f.labels = append(f.labels, ev.Model)
		}
		m.apply(ev)
	}
	m.provider = strings.Join(f.labels, ", ")
}

// afterEvents ends the watch once the room closed (st, the room then),
// or says whether its run was abandoned.
func (m *Model) afterEvents(st room.State, closed, abandoned bool) {
	f := m.feed
	if closed || !m.watching() {
		m.closeFeed(st)
		return
	}
	if abandoned != f.abandoned {
		f.abandoned = abandoned
		m.ended = time.Time{}
		if abandoned {
			m.ended = m.now   // the clock stops with the run
			m.note.paused = 0 // nobody is left to go on
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

// closeFeed ends the watch on a room found closed (or read once, as a
// replay): turns left in progress go (their message, if any, is in),
// and the status says how the debate ended.
func (m *Model) closeFeed(st room.State) {
	for _, c := range m.cols {
		if t := c.current(); t != nil && t.streaming {
			c.turns = slices.DeleteFunc(c.turns, func(x *turn) bool { return x == t })
		}
		c.grow, c.speaking, c.thinking, c.retry, c.activity = nil, false, false, nil, ""
		c.gen++
	}
	m.verdict.waiting, m.verdict.retry, m.verdict.activity, m.verdict.grow = false, nil, "", nil
	m.note.paused = 0 // a closed room waits for nobody
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
		m.failedIn(st.Closed)
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
	if m.verdict.ranking() {
		return frame + s.Muted.Render("the panel is ranking") + where
	}
	if m.verdict.waiting {
		return frame + m.verdict.seat.Name.Render("Moderator") + s.Muted.Render(" is weighing the debate") + where
	}
	return frame + s.Muted.Render("waiting") + where
}

// failedIn shows a failure that closed the room in the column it happened
// in (closed.json's seat: a persona's, or the moderator's verdict pane),
// whole, as a run in this screen shows it (errIn): the status line has
// room for only the start of a provider's reason.
func (m *Model) failedIn(c *room.Closed) {
	if why, ok := strings.CutPrefix(c.Reason, debate.ReasonFailed); ok && c.Seat != "" {
		m.errIn(c.Seat, mdrender.Inline(why))
	}
}
