package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/burst"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/internal/transfer"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
	"github.com/roundtable-dev/roundtable/tui/theme"
)

// Options configure a watch screen.
type Options struct {
	// Cwd is the folder holding .roundtable/; empty: the working directory.
	Cwd string
	// Room is the room's name.
	Room string
	// ExportDir is where e and E write transcripts; empty: the working
	// directory.
	ExportDir string
	// Dark selects the dark styles until the terminal reports its
	// background (the screen asks at start).
	Dark bool
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Location is the time zone message times are shown in; nil:
	// time.Local.
	Location *time.Location
	// Embedded makes q send DoneMsg instead of quitting the program, for a
	// parent screen that shows this one.
	Embedded bool
	// Context bounds the screen's background work; nil:
	// context.Background(). Close ends it too.
	Context context.Context
	// Seats is the app's seat processes, whose state the seat lines show
	// (a seat started but not connected yet, one that failed); nil: none.
	Seats *seatproc.Group
	// Person is a seat taken before the screen starts (TakeSeat, for
	// watch --take): the screen plays it, and Close gives it up.
	Person *room.Person
	// Remote, for a room mirrored from a host (RunRemote): the screen is
	// read-only and shows the link's state (remote.go).
	Remote *RemoteLink
}

// phase is what the screen is showing.
type phase int

const (
	phaseOpening phase = iota // the first look at the room
	phaseWaiting              // no room yet: waiting for the first seat
	phaseLive                 // the room is open on screen
)

// maxTickWait is the longest the clock sleeps when nothing on screen moves.
const maxTickWait = time.Hour

var nextID atomic.Int64

// Model is the watch screen: a room's header, its messages as they land,
// and its end. Update returns the concrete Model, so a parent screen can
// embed it; Program wraps it for a program of its own.
type Model struct {
	id     int64
	opts   Options
	cwd    string
	sess   *session
	keys   KeyMap
	styles theme.Styles
	help   help.Model

	width, height int
	now           time.Time
	tickGen       int       // the pending tick; 0: none yet
	tickDue       time.Time // when it fires, on the screen's clock

	phase    phase
	waitNote string
	room     *room.Room
	cfg      room.Config
	st       room.State
	seats    []room.SeatInfo
	procs    map[string]seatproc.Status // the app's seat processes, by seat
	logSig   string
	err      string // a failure to read the room, shown until a read works
	loaded   bool   // a state has been read
	runGone  bool   // a debate room open with no process running it (runWatchCmd)

	list     *msgList
	status   string
	statusOK bool

	showSpec bool
	spec     viewport.Model
	specPath string
	specErr  string

	cols councilCols // a council's seats side by side (columns.go)
	find *finder     // search.go
	// take is a seat a person plays from this screen (take.go).
	take  takeState
	steer noteBox // the steering note composer (note.go)

	// Rendered each Update, joined by View.
	header, body, footer []string
}

// New checks the options and returns a screen ready to Init. A bad room
// name wraps room.ErrBadName; a cwd that is not a folder is an error too.
func New(opts Options) (Model, error) {
	if err := room.ValidateName(opts.Room); err != nil {
		return Model{}, err
	}
	cwd, err := resolveDir(opts.Cwd, "--cwd")
	if err != nil {
		return Model{}, err
	}
	if opts.ExportDir, err = resolveDir(opts.ExportDir, "the export folder"); err != nil {
		return Model{}, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	sess := newSession(opts.Context)
	m := Model{
		id:   nextID.Add(1),
		opts: opts,
		cwd:  cwd,
		sess: sess,
		keys: DefaultKeyMap(),
		help: help.New(),
		now:  opts.Now(),
		list: newList(sess, opts.Location),
		spec: viewport.New(),
		take: newTakeState(opts.Dark),
	}
	m.adoptSeat(opts.Person)
	m.spec.KeyMap = viewport.KeyMap{} // the screen's KeyMap drives it
	m.steer = newNoteBox(opts.Dark)
	m.setStyles(opts.Dark)
	m.syncKeys()
	m.layout()
	return m, nil
}

// resolveDir makes dir absolute and checks that it is a folder; what names
// it in the error.
func resolveDir(dir, what string) (string, error) {
	abs, err := room.ResolveDir(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	return abs, nil
}

// Close stops the screen's background work (the room's Notifier, the
// folder watches, pending reads) and waits for it. Call it once the program
// has ended or the parent leaves the screen.
func (m Model) Close() {
	m.releaseSeat()
	m.sess.close()
}

// Init opens the room and asks the terminal for its background colour.
func (m Model) Init() tea.Cmd {
	return tea.Batch(openCmd(m.id, m.sess, m.cwd, m.opts.Room, phaseOpening), tea.RequestBackgroundColor, m.remoteInit())
}

func (m *Model) setStyles(dark bool) {
	m.styles = theme.DefaultStyles(dark)
	m.help.Styles = m.styles.Help
	m.sess.md.Store(mdrender.New(dark))
	m.list.setStyles(m.styles)
}

// Update handles a message and returns the updated screen. A burst.Msg
// (keys read together, a paste without bracketed paste) is handled a
// message at a time and laid out once.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	cmd := m.apply(msg)
	return m, cmd
}

// apply is Update in place: the program (run.go) keeps one Model and
// applies each message to it, rather than copying its ~60 KB of styles
// and composers in and out on every message.
func (m *Model) apply(msg tea.Msg) tea.Cmd {
	if run, ok := msg.(burst.Msg); ok {
		cmds := make([]tea.Cmd, 0, len(run))
		for _, one := range run {
			cmds = append(cmds, m.update(one))
		}
		m.layout()
		return tea.Batch(cmds...)
	}
	cmd := m.update(msg)
	if _, ok := msg.(tickMsg); ok && m.header != nil {
		// The clock moves only the header (elapsed time, the seats'
		// "ago"): the body and footer stay as they were laid out unless
		// the header's height changed.
		if h := m.headerLines(); len(h) == len(m.header) {
			m.header = h
			return cmd
		}
	}
	m.layout()
	return cmd
}

// update handles one message; Update lays the screen out after it.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	handled, noteCmd := m.noteUpdate(msg) // the steering note's composer (note.go)
	if handled {
		m.syncKeys()
		return noteCmd
	}
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		cmd = m.resize(msg.Width, msg.Height)
	case tea.BackgroundColorMsg:
		if msg.IsDark() != m.styles.Dark {
			m.setStyles(msg.IsDark())
			m.list.invalidate()
			cmd = m.reloadSpec()
		}
	case tea.KeyPressMsg:
		var ok bool
		if cmd, ok = m.takeKey(msg); !ok {
			cmd = m.handleKey(msg)
		}
	case tea.MouseWheelMsg:
		m.handleWheel(msg)
	case openedMsg:
		if msg.id == m.id {
			cmd = m.opened(msg)
		}
	case waitingMsg:
		if msg.id == m.id {
			m.phase = phaseWaiting
			m.waitNote = msg.note
			cmd = waitAppearCmd(m.id, m.sess, msg.next)
		}
	case retryMsg:
		if msg.id == m.id {
			cmd = openCmd(m.id, m.sess, m.cwd, m.opts.Room, phaseWaiting)
		}
	case feedMsg:
		if msg.id == m.id {
			cmd = tea.Batch(m.onFeed(msg), feedCmd(m.id, m.sess, m.room))
		}
	case stateMsg:
		if msg.id == m.id {
			m.onState(msg)
		}
	case seatsMsg:
		if msg.id == m.id {
			m.logSig = msg.sig
			if msg.err == nil {
				m.seats = msg.seats
				m.clearStaleFailure()
			}
			m.now = m.opts.Now()
			m.refreshProcs()
			cmd = tea.Batch(seatsWatchCmd(m.id, m.sess, m.room.Dir(), m.logSig, m.seats), m.rearm())
		}
	case runMsg:
		if msg.id == m.id {
			m.onRun(msg.gone)
		}
	case seatproc.ExitedMsg:
		if msg.Status.Room == m.opts.Room {
			m.refreshProcs()
			if msg.Status.Failed() {
				m.setStatus(staleFailure(msg.Status.Seat)+orText(msg.Status.LastLine, msg.Status.Err), false)
			}
		}
	case draftsMsg:
		if msg.id == m.id {
			m.list.setDrafts(m.ownDraftHidden(msg.drafts))
		}
	case tickMsg:
		if msg.id == m.id && msg.gen == m.tickGen {
			m.now = msg.now
			cmd = m.tick()
		}
	case specMsg:
		if msg.id == m.id {
			m.specLoaded(msg)
		}
	case transfer.ExportedMsg:
		if msg.ID == m.id {
			m.exported(msg)
		}
	case verdictMsg:
		if msg.id == m.id {
			m.verdictDone(msg)
		}
	case transfer.CopiedMsg:
		if msg.ID == m.id {
			cmd = m.copied(msg)
		}
	case remoteStatusMsg:
		cmd = m.remoteStatus(msg)
	default:
		cmd = m.takeMsg(msg)
	}
	cmd = tea.Batch(cmd, m.takeTurn())
	m.syncKeys()
	return tea.Batch(cmd, noteCmd)
}

// opened shows the room for the first time.
func (m *Model) opened(msg openedMsg) tea.Cmd {
	m.phase = phaseLive
	m.room = msg.r
	m.cfg = msg.r.Config()
	m.now = m.opts.Now()
	m.list.setRoom(m.cfg)
	m.storeColumnWidth()
	m.refreshProcs()
	m.applyState(msg.st, msg.err)
	m.list.setDrafts(m.ownDraftHidden(msg.drafts))
	if msg.from == phaseWaiting {
		m.setStatus("the room appeared: attached", true)
	}
	if msg.runGone {
		m.onRun(true)
	}
	return tea.Batch(
		feedCmd(m.id, m.sess, m.room),
		seatsCmd(m.id, m.sess, m.room.Dir(), ""),
		m.tick(),
	)
}

// onFeed takes what the room's next changes touched.
func (m *Model) onFeed(msg feedMsg) tea.Cmd {
	if msg.state != nil {
		m.onState(*msg.state)
	}
	if msg.drafts != nil {
		m.list.setDrafts(m.ownDraftHidden(msg.drafts.drafts))
	}
	if msg.run != nil {
		m.onRun(msg.run.gone)
	}
	return m.rearm()
}

// onState takes the room's state after a change.
func (m *Model) onState(msg stateMsg) {
	m.now = m.opts.Now()
	m.applyState(msg.st, msg.err)
}

// onRun says whether the debate shown has lost its process (gone) or has
// one again. A debate run here only: a remote copy has no lock to read.
func (m *Model) onRun(gone bool) {
	if m.opts.Remote != nil {
		return
	}
	m.runGone = gone
	switch text := runGoneText(m.opts.Room); {
	case gone:
		m.setStatus(text, false)
	case m.status == text:
		m.setStatus("a process runs the debate again", true)
	}
}

// runGoneText is what the screen says of a debate whose process ended
// without closing its room.
func runGoneText(name string) string {
	return "the debate's process ended without closing the room; roundtable debate --resume " + name + " goes on from the cut turn"
}

// tick schedules the clock's next move while the room is open, for when a
// duration on screen next reads differently: each second in its first hour,
// each minute after. A closed room shows nothing that moves.
func (m *Model) tick() tea.Cmd {
	if m.phase != phaseLive || m.st.Closed != nil {
		return nil
	}
	d := m.nextChange()
	m.tickGen++
	m.tickDue = m.now.Add(d)
	return tickCmd(m.id, m.tickGen, m.sess, d)
}

// rearm brings the pending tick forward when the screen now shows a
// duration that changes sooner (a seat just active: "0s ago").
func (m *Model) rearm() tea.Cmd {
	if m.phase != phaseLive || m.st.Closed != nil || m.tickGen == 0 {
		return nil
	}
	if !m.now.Add(m.nextChange()).Before(m.tickDue) {
		return nil
	}
	return m.tick()
}

// nextChange is how long until a duration on screen reads differently:
// the time since the first message and each seat's last call.
func (m *Model) nextChange() time.Duration {
	next := maxTickWait
	if first, ok := firstTime(m.st.Messages); ok {
		next = min(next, untilChange(m.now.Sub(first)))
	}
	for _, si := range m.seats {
		if !si.LastAt.IsZero() {
			next = min(next, untilChange(m.now.Sub(si.LastAt)))
		}
	}
	return next
}

// applyState takes a new state of the room, or the error reading it.
func (m *Model) applyState(st room.State, err error) {
	if err != nil {
		m.err = mdrender.Inline(describeReadError(err, m.room))
		return
	}
	m.err = ""
	closing := m.loaded && m.st.Closed == nil && st.Closed != nil
	m.st = st
	m.loaded = true
	m.list.setState(st, m.room)
	if closing {
		// Words that stay true on a screen that no longer ticks.
		at := "now"
		if t, err := time.Parse(time.RFC3339Nano, st.Closed.At); err == nil {
			at = "at " + m.clock(t)
		}
		m.setStatus("the room closed "+at, true)
	}
}

// resize takes the terminal's new size.
func (m *Model) resize(w, h int) tea.Cmd {
	if w == m.width && h == m.height {
		return nil
	}
	m.width, m.height = w, h
	m.help.SetWidth(w)
	m.list.setWidth(w)
	m.sess.bodyWidth.Store(int64(m.list.bodyWidth()))
	m.storeColumnWidth()
	return m.reloadSpec()
}

// SetStatus shows s in the status line, as a warning: what the parent
// could not do for the screen it opened.
func (m *Model) SetStatus(s string) { m.setStatus(s, false) }

// setStatus shows a note in the status line; it may quote paths and
// errors, so it is made safe to print.
func (m *Model) setStatus(s string, ok bool) {
	m.status, m.statusOK = mdrender.Inline(s), ok
}

// describeReadError words a failure to read the room for the screen.
func describeReadError(err error, r *room.Room) string {
	dir := "the room folder"
	if r != nil {
		dir = r.Dir()
	}
	msg := mdrender.Inline(err.Error())
	switch {
	case isNoRoom(err):
		return fmt.Sprintf("cannot read the room: %s is gone (deleted or moved?). The messages above are the last ones read; the screen resumes if the folder comes back. q quits.", dir)
	case isPermission(err):
		return fmt.Sprintf("cannot read %s: permission denied. Give this user read access again (chmod u+rx); the screen retries on the next change.", dir)
	default:
		return fmt.Sprintf("cannot read the room (%s). The screen retries on the next change; q quits.", strings.TrimSuffix(msg, "."))
	}
}

func isNoRoom(err error) bool {
	return errors.Is(err, room.ErrNoRoom) || errors.Is(err, fs.ErrNotExist)
}

func isPermission(err error) bool { return errors.Is(err, fs.ErrPermission) }

// View is the screen as text; Program's View puts it in a full window.
func (m Model) View() string { return m.view() }

func (m *Model) view() string {
	lines := make([]string, 0, len(m.header)+len(m.body)+len(m.footer))
	lines = append(lines, m.header...)
	lines = append(lines, m.body...)
	lines = append(lines, m.footer...)
	return m.overlay(strings.Join(lines, "\n"))
}

// orText is line, or err's text when line is empty.
func orText(line string, err error) string {
	if line != "" || err == nil {
		return line
	}
	return err.Error()
}
