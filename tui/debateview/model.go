package debateview

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/transfer"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// Options configure a debate screen.
type Options struct {
	// Context bounds the debate and the screen's timers; nil:
	// context.Background().
	Context context.Context
	// ExportDir is where e and E write transcripts; empty: the working
	// directory.
	ExportDir string
	// Dark selects the dark styles (the parent switches them with
	// SetDark once the terminal reports its background).
	Dark bool
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Embedded makes esc, once no debate is running, and q send BackMsg
	// to the parent screen instead of doing nothing and quitting.
	Embedded bool
	// Tracker, when set, keeps the debates this screen starts, so the
	// program can stop and save them on its way out (Tracker.Close).
	Tracker *Tracker
	// Renderer renders Markdown; nil: a new one. Share one between screens
	// to share its cache.
	Renderer *mdrender.Renderer
}

// phase is where the debate is.
type phase int

const (
	phaseStarting phase = iota // creating the room, starting the engine
	phaseRunning               // the personas are speaking
	phaseWeighing              // the moderator is writing the verdict
	phaseDone                  // the verdict is in
	phaseStopped               // the user stopped it
	phaseFailed                // a provider or the save failed
	phaseReplay                // a finished debate read from its room
)

// spin is the spinner of the speaking persona.
var spin = spinner.Dot

var nextID atomic.Int64

// Model is the debate screen. Update returns the concrete Model, so a
// parent screen can embed it without type assertions.
type Model struct {
	id   int64
	opts Options
	// usageForm is the form of the usage every column title shows
	// (usageForms), set when the columns are laid out.
	usageForm int
	ctx       context.Context
	keys      KeyMap
	styles    Styles
	help      help.Model
	md        *mdrender.Renderer

	launch  *Launch     // nil for a replay
	pending *startedMsg // a debate started before the screen (NewStarted)
	run     int         // the current run; events of others are ignored
	events  <-chan debate.Event
	cancel  context.CancelFunc
	room    *room.Room

	topic    string
	rounds   int
	round    int
	provider string
	agents   []string
	cols     []*column
	byName   map[string]int
	verdict  verdictPane
	phase    phase
	closed   string // why a replayed room closed
	started  time.Time
	ended    time.Time
	now      time.Time
	usage    debate.Usage
	live     int // tokens of the turn being spoken, not yet in usage
	acct     accounting
	quitting bool
	// forceQuit: ctrl+c was pressed, so leaving quits the program even
	// when embedded.
	forceQuit bool
	// interrupted: ctrl+c stopped a debate that was running (Interrupted).
	interrupted bool
	// confirmStop: esc asked "stop the debate? y/n" and waits for the
	// answer (answerStop).
	confirmStop  bool
	quitOnStop   bool   // the question was q's: a yes also leaves the screen
	statusBefore string // the status the question replaced

	note interject // the person's notes: composer, pause (interject.go)

	status    string
	statusErr bool
	showHelp  bool

	width, height int
	focus         int  // the focused pane: a column, or len(cols) for the verdict
	autoFocus     bool // focus follows the speaker until the user moves it
	winStart      int  // first column shown when not all fit
	frame         int  // spinner frame
	animating     bool // an anim tick is pending
	growPending   bool // a grow tick is pending
	lastGrow      time.Time
	renderGen     int
	rendering     bool // a renderCmd is running

	find *finder // search.go

	feed *feedState // a debate room read from the store (feed.go); nil otherwise

	// Prepared by Update, joined by View.
	lay     layout
	boxes   [][]string // per visible column: frame lines
	panel   []string   // the verdict panel's lines (wide layout)
	header  []string
	tabs    string
	footer  []string
	footKey footerKey
}

// New returns a screen that starts l when Init runs.
func New(opts Options, l Launch) Model {
	m := newModel(opts)
	m.launch = &l
	m.topic = l.Config.Topic
	m.rounds = l.Config.Rounds
	if m.rounds == 0 {
		m.rounds = debate.DefaultRounds
	}
	m.provider = launchLabel(l)
	m.setPanel(l.Config.Names())
	m.phase = phaseStarting
	m.status = "Starting the debate…"
	m.syncKeys()
	return m
}

func newModel(opts Options) Model {
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	md := opts.Renderer
	if md == nil {
		md = mdrender.New(opts.Dark)
	}
	m := Model{
		id:        nextID.Add(1),
		opts:      opts,
		ctx:       opts.Context,
		keys:      DefaultKeyMap(),
		help:      help.New(),
		md:        md,
		byName:    map[string]int{},
		autoFocus: true,
		width:     80,
		height:    24,
	}
	m.now = opts.Now()
	m.setStyles(opts.Dark)
	m.verdict.scroll = newScroller()
	return m
}

// setPanel makes one column per persona, in speaking order.
func (m *Model) setPanel(names []string) {
	m.agents = names
	m.cols = m.cols[:0]
	m.byName = make(map[string]int, len(names))
	for i, n := range names {
		m.cols = append(m.cols, newColumn(n, m.styles.Seat(n, names)))
		m.byName[n] = i
	}
	m.verdict.seat = m.styles.Seat(room.SeatModerator, names)
}

// column returns the persona's column, adding one for a name the panel did
// not announce.
func (m *Model) column(name string) *column {
	if i, ok := m.byName[name]; ok {
		return m.cols[i]
	}
	m.agents = append(m.agents, name)
	c := newColumn(name, m.styles.Seat(name, m.agents))
	m.byName[name] = len(m.cols)
	m.cols = append(m.cols, c)
	return c
}

func (m *Model) setStyles(dark bool) {
	m.styles = DefaultStyles(dark)
	m.help.Styles = m.styles.Help
	for _, c := range m.cols {
		c.seat = m.styles.Seat(c.name, m.agents)
	}
	m.verdict.seat = m.styles.Seat(room.SeatModerator, m.agents)
}

// SetDark switches the screen to the dark or light styles and renderer.
func (m *Model) SetDark(dark bool) tea.Cmd {
	if dark == m.styles.Dark {
		return nil
	}
	m.setStyles(dark)
	m.noteSetDark(dark)
	m.md = mdrender.New(dark)
	for _, c := range m.cols {
		for _, t := range c.turns {
			t.w = 0
		}
		if c.grow != nil {
			g := m.md.NewGrowing(c.w)
			g.Append(c.grow.Text())
			c.grow = g
		}
	}
	m.verdict.w = 0
	return m.refresh()
}

// Init starts the debate (a replay has nothing to start).
func (m Model) Init() tea.Cmd {
	if m.watching() {
		// Another process runs the debate: follow its room.
		return tea.Batch(m.renderMissing(), m.waitFeed(), animTickCmd(m.ctx, m.id))
	}
	if m.launch == nil || m.phase == phaseReplay {
		return m.renderMissing() // a replay runs again only on r
	}
	first := startCmd(m.ctx, m.id, m.run, m.opts.Tracker, *m.launch, m.launch.Room)
	if m.pending != nil {
		// Started already (NewStarted): hand the session in as the start.
		msg := *m.pending
		msg.id, msg.run = m.id, m.run
		first = func() tea.Msg { return msg }
	}
	return tea.Batch(first, m.animate())
}

// Running reports whether a debate is being spoken (or started) now.
func (m Model) Running() bool {
	return m.phase == phaseStarting || m.phase == phaseRunning || m.phase == phaseWeighing
}

// Interrupted reports whether ctrl+c stopped a debate that was running:
// the program then ends as interrupted (exit 130), not as a plain quit.
func (m Model) Interrupted() bool { return m.interrupted }

// Room is the room the debate is saved in; nil before it is created.
func (m Model) Room() *room.Room { return m.room }

// Update handles a message and returns the updated screen.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
	case tea.KeyPressMsg:
		cmds = append(cmds, m.handleKey(msg))
	case tea.MouseWheelMsg:
		m.handleWheel(msg)
	case tea.MouseClickMsg:
		m.handleClick(msg)
	case startedMsg:
		if msg.id == m.id && msg.run == m.run {
			cmds = append(cmds, m.onStarted(msg))
		}
	case eventsMsg:
		if msg.id == m.id && msg.run == m.run {
			cmds = append(cmds, m.handleEvents(msg))
		}
	case feedMsg:
		if msg.id == m.id {
			cmds = append(cmds, m.onFeed(msg))
		}
	case noteSentMsg:
		if msg.id == m.id {
			m.onNoteSent(msg)
		}
	case growTickMsg:
		if msg.id == m.id {
			m.growPending = false
			cmds = append(cmds, m.growNow(true))
		}
	case animTickMsg:
		if msg.id == m.id {
			m.animating = false
			m.frame = (m.frame + 1) % len(spin.Frames)
			m.now = m.opts.Now()
			cmds = append(cmds, m.animate())
		}
	case renderedMsg:
		if msg.id == m.id && msg.gen == m.renderGen {
			m.rendering = false
		}
	case transfer.ExportedMsg:
		if msg.ID == m.id {
			m.exported(msg)
		}
	case transfer.CopiedMsg:
		if msg.ID == m.id {
			cmds = append(cmds, m.copied(msg))
		}
	}
	if _, isKey := msg.(tea.KeyPressMsg); !isKey && m.composing() {
		cmds = append(cmds, m.composerUpdate(msg))
	}
	m.syncKeys()
	cmds = append(cmds, m.refresh())
	return m, tea.Batch(cmds...)
}

// animate keeps the spinner and the clock moving while the debate runs;
// a finished screen has nothing that moves and costs no CPU.
func (m *Model) animate() tea.Cmd {
	if (!m.Running() && !m.followingRun()) || m.animating {
		return nil
	}
	m.animating = true
	return animTickCmd(m.ctx, m.id)
}

// View is the screen as text.
func (m Model) View() string {
	var b strings.Builder
	b.Grow((m.width + 32) * m.height)
	for _, l := range m.header {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if m.tabs != "" {
		b.WriteString(m.tabs)
		b.WriteByte('\n')
	}
	gap := strings.Repeat(" ", columnGap)
	for row := 0; row < m.lay.colRows; row++ {
		for i, box := range m.boxes {
			if i > 0 {
				b.WriteString(gap)
			}
			if row < len(box) {
				b.WriteString(box[row])
			}
		}
		b.WriteByte('\n')
	}
	for _, l := range m.panel {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range m.note.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for i, l := range m.footer {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
	}
	return m.overlay(b.String())
}
