package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/debateview"
	"github.com/roundtable-dev/roundtable/tui/forms"
	"github.com/roundtable-dev/roundtable/tui/home"
	"github.com/roundtable-dev/roundtable/tui/internal/burst"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

// screen is the screen on show.
type screen int

const (
	screenHome screen = iota
	screenDebateForm
	screenRoomForm
	screenDebate
	screenWatch
)

// Model is the app: one screen at a time, and what every screen shares.
type Model struct {
	opts    Options
	panel   debate.Panel
	tracker *debateview.Tracker
	seats   *seatproc.Group // the seat processes the room form started
	md      *mdrender.Renderer
	dark    bool

	screen   screen
	keepForm bool // show(screenDebateForm) shows dform as it is
	home     home.Model
	dform    forms.DebateForm
	rform    forms.RoomForm
	debate   debateview.Model
	watch    *watch.Model // nil unless shown

	width, height int
}

// forceQuit quits from any screen, even one whose q means "back" (the
// watch screen, embedded).
var forceQuit = key.NewBinding(key.WithKeys("ctrl+c"))

// New checks opts and returns the app: on the home screen, or, with a
// topic, on the debate screen about to start it. With a topic the debate's
// settings are checked now (debate.Prepare, the check debate.Start makes
// first), so a wrong command line ends before any screen: errors for which
// debate.IsUsage holds, and ErrBadCwd, come from the command line;
// debate.ErrMissingKey means the provider's key is not set.
func New(opts Options) (Model, error) {
	opts, err := opts.normalize()
	if err != nil {
		return Model{}, err
	}
	m := Model{
		opts:    opts,
		panel:   opts.Panel,
		tracker: &debateview.Tracker{},
		seats:   &seatproc.Group{},
		md:      mdrender.New(opts.Dark),
		dark:    opts.Dark,
		width:   80,
		height:  24,
	}
	if strings.TrimSpace(opts.Debate.Config.Topic) == "" {
		// A provider that cannot exist (a typo, a malformed URL) is
		// refused as with --topic; a missing key is not: the home screen
		// works without one, and its new-debate form says what is missing.
		if _, err := debate.ResolveProvider(opts.Debate.Provider, opts.Debate.Getenv); errors.Is(err, debate.ErrBadProvider) {
			return Model{}, err
		}
		m.home = m.newHome()
		return m, nil
	}
	if _, err := debate.Prepare(opts.Debate); err != nil {
		return Model{}, err
	}
	m.screen = screenDebate
	m.debate = debateview.New(m.debateOptions(), opts.Debate)
	return m, nil
}

// Close stops every screen's background work, every debate still
// running, waiting until each debate is saved, and the seat processes the
// app started (SIGTERM, then SIGKILL after seatproc.Grace); it returns
// those it stopped. Call it once the program has ended, on the model it
// returned.
func (m Model) Close() []seatproc.Status {
	stopped := m.seats.StopAll(seatproc.Grace)
	m.tracker.Close()
	m.home.Close()
	m.debate.Close()
	if m.watch != nil {
		m.watch.Close()
	}
	return stopped
}

// providerLabel names the provider a new debate would use.
func (m Model) providerLabel() string {
	pc, err := debate.ResolveProvider(m.opts.Debate.Provider, m.opts.Debate.Getenv)
	if err != nil {
		return m.opts.Debate.Provider.Name
	}
	return pc.Name
}

func (m *Model) newHome() home.Model {
	return home.New(home.Options{
		Cwd: m.opts.Cwd, Dark: m.dark, Now: m.opts.Now, Context: m.opts.Context,
		Provider: m.providerLabel(), NoWatch: m.opts.NoWatch,
	})
}

func (m *Model) debateOptions() debateview.Options {
	return debateview.Options{
		Context: m.opts.Context, ExportDir: m.opts.ExportDir, Dark: m.dark, Now: m.opts.Now,
		Embedded: true, Tracker: m.tracker, Renderer: m.md,
	}
}

// rerun is a saved debate ready to run again with the provider and
// options configured now, or nil when the room does not record its
// personas or the provider cannot start (a missing key).
func (m *Model) rerun(rc room.Config) *debateview.Launch {
	cfg, ok := debate.ConfigFromRoom(rc)
	if !ok {
		return nil
	}
	if _, err := debate.ResolveProvider(m.opts.Debate.Provider, m.opts.Debate.Getenv); err != nil {
		return nil
	}
	s := m.opts.Debate
	s.Room = ""
	s.Config.Topic, s.Config.Rounds = cfg.Topic, cfg.Rounds
	s.Config.Personas, s.Config.Moderator = cfg.Personas, cfg.Moderator
	return &s
}

// formOptions are the new-debate form's options: filled in from s, with
// the panel on offer switched to s's personas, and err (if any) shown.
func (m *Model) formOptions(s debate.Settings, err error) forms.DebateOptions {
	panel := panelOf(m.panel, s.Config.Personas)
	if s.Config.Moderator.Persona != "" {
		panel.Moderator = s.Config.Moderator
	}
	return forms.DebateOptions{Panel: panel, Settings: s, Err: err, Dark: m.dark}
}

// panelOf is panel with exactly the personas on switched on, in their
// speaking order: the panel's own order when it has them all in that
// order, else they come first (those it lacks are added), the rest off.
func panelOf(panel debate.Panel, on []debate.Persona) debate.Panel {
	if len(on) == 0 {
		return panel
	}
	out := debate.Panel{Moderator: panel.Moderator}
	next := 0 // the next persona of on expected in panel order
	for _, c := range panel.Personas {
		c.Enabled = next < len(on) && strings.EqualFold(c.Name, on[next].Name)
		if c.Enabled {
			c.Persona = on[next]
			next++
		}
		out.Personas = append(out.Personas, c)
	}
	if next == len(on) {
		return out
	}
	out.Personas = out.Personas[:0]
	used := map[string]bool{}
	for _, p := range on {
		out.Personas = append(out.Personas, debate.PersonaChoice{Persona: p, Enabled: true})
		used[strings.ToLower(p.Name)] = true
	}
	for _, c := range panel.Personas {
		if !used[strings.ToLower(c.Name)] {
			c.Enabled = false
			out.Personas = append(out.Personas, c)
		}
	}
	return out
}

// Init starts the first screen and asks the terminal for its background.
func (m Model) Init() tea.Cmd {
	var first tea.Cmd
	switch m.screen {
	case screenDebate:
		first = m.debate.Init()
	case screenHome, screenDebateForm, screenRoomForm, screenWatch:
		first = m.home.Init()
	}
	return tea.Batch(first, tea.RequestBackgroundColor)
}

// Update routes a message to the screen on show, or switches screens.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		return m, m.setDark(msg)
	case home.OpenMsg:
		return m, m.open(msg.Room)
	case home.NewDebateMsg:
		return m.show(screenDebateForm)
	case home.NewRoomMsg:
		return m.show(screenRoomForm)
	case forms.BackMsg, debateview.BackMsg, watch.DoneMsg:
		return m.show(screenHome)
	case forms.StartMsg:
		// The form stays while the debate starts: a provider that is not
		// there comes back to it as a sentence (StartFailed).
		return m, debateview.StartCmd(m.opts.Context, m.tracker, msg.Settings)
	case debateview.StartedMsg:
		if msg.Err != nil {
			if m.screen == screenDebateForm {
				m.dform.StartFailed(msg.Err)
				return m, nil
			}
			return m.showForm(msg.Launch, msg.Err)
		}
		m.debate = debateview.NewStarted(m.debateOptions(), msg)
		return m.show(screenDebate)
	case debateview.StartFailedMsg:
		return m.showForm(msg.Launch, msg.Err)
	case forms.WatchMsg:
		if msg.Take != "" {
			return m, takeSeatCmd(m.opts.Cwd, msg.Room, msg.Take)
		}
		return m.openWatch(msg.Room, nil, nil)
	case takenMsg:
		return m.openWatch(msg.room, msg.person, msg.err)
	case replayMsg:
		if msg.err != nil {
			m.home.SetStatus("Cannot open the room: " + mdrender.Inline(msg.err.Error()))
			return m, nil
		}
		m.debate = debateview.NewReplay(m.debateOptions(), msg.r, msg.st, m.rerun(msg.r.Config()))
		return m.show(screenDebate)
	case liveMsg:
		if msg.err != nil {
			m.home.SetStatus("Cannot open the room: " + mdrender.Inline(msg.err.Error()))
			return m, nil
		}
		m.debate.Close()
		m.debate = debateview.NewFromRoom(m.debateOptions(), msg.feed, m.rerun(msg.feed.Room.Config()))
		return m.show(screenDebate)
	case tea.KeyPressMsg:
		if m.screen == screenWatch && key.Matches(msg, forceQuit) {
			return m, tea.Quit
		}
	case burst.Msg:
		return m.updateRun(msg)
	}
	return m, m.route(msg)
}

// updateRun handles keys read together (burst.Msg). The watch screen
// takes the run whole and lays out once; elsewhere each message is
// handled in turn, and the program draws once after the run.
func (m Model) updateRun(run burst.Msg) (tea.Model, tea.Cmd) {
	quits := slices.ContainsFunc(run, func(msg tea.Msg) bool {
		k, ok := msg.(tea.KeyPressMsg)
		return ok && key.Matches(k, forceQuit)
	})
	if m.screen == screenWatch && !quits {
		return m, m.route(run)
	}
	cmds := make([]tea.Cmd, 0, len(run))
	var next tea.Model = m
	for _, msg := range run {
		var cmd tea.Cmd
		next, cmd = next.(Model).Update(msg)
		cmds = append(cmds, cmd)
	}
	return next, tea.Batch(cmds...)
}

// route hands msg to the screen on show.
func (m *Model) route(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m.screen {
	case screenHome:
		m.home, cmd = m.home.Update(msg)
	case screenDebateForm:
		m.dform, cmd = m.dform.Update(msg)
	case screenRoomForm:
		m.rform, cmd = m.rform.Update(msg)
	case screenDebate:
		m.debate, cmd = m.debate.Update(msg)
	case screenWatch:
		if m.watch != nil {
			var w watch.Model
			w, cmd = m.watch.Update(msg)
			m.watch = &w
		}
	}
	return cmd
}

// show switches to screen s, building it fresh, and gives it the size.
func (m Model) show(s screen) (tea.Model, tea.Cmd) {
	var init tea.Cmd
	if m.screen == screenWatch && s != screenWatch && m.watch != nil {
		m.watch.Close()
		m.watch = nil
	}
	if m.screen == screenHome && s != screenHome {
		m.home.Close()
	}
	if m.screen == screenDebate && s != screenDebate {
		m.debate.Close() // stops following a room another process runs
	}
	switch s {
	case screenHome:
		if m.screen != screenHome {
			m.home = m.newHome()
			init = m.home.Init()
		}
	case screenDebateForm:
		if !m.keepForm {
			s := m.opts.Debate
			s.Config.Topic, s.Room = "", "" // --room names the --topic debate only
			m.dform = forms.NewDebateForm(m.formOptions(s, nil))
		}
		m.keepForm = false
		init = m.dform.Init()
	case screenRoomForm:
		m.rform = forms.NewRoomForm(forms.RoomOptions{
			Cwd: m.opts.Cwd, Dark: m.dark, Context: m.opts.Context,
			Seats: m.seats, SeatProgram: m.opts.SeatProgram, Provider: m.opts.Debate.Provider, Getenv: m.opts.Debate.Getenv,
			AgentTools: m.opts.Debate.AgentTools,
		})
		init = m.rform.Init()
	case screenDebate:
		init = m.debate.Init()
	case screenWatch:
		if m.watch != nil {
			init = m.watch.Init()
		}
	}
	m.screen = s
	size := m.route(tea.WindowSizeMsg{Width: m.width, Height: m.height})
	return m, tea.Batch(init, size)
}

// showForm shows the new-debate form filled in from s, saying why it
// could not start.
func (m Model) showForm(s debate.Settings, err error) (tea.Model, tea.Cmd) {
	s.Room = "" // a name given for the first run may be taken now
	m.dform = forms.NewDebateForm(m.formOptions(s, err))
	m.keepForm = true
	return m.show(screenDebateForm)
}

// open opens a room from the home screen: a debate room in the debate
// screen, drawn from the store whatever its state (a finished debate as a
// replay, one another process runs as it goes), anything else live in the
// watch screen. A debate room still open whose run is gone (its process
// killed, its terminal closed before it could save) is closed as the
// failed debate it is and shown as a replay, where R resumes it.
func (m *Model) open(r home.Room) tea.Cmd {
	if r.Mode == home.ModeDebate && r.Closed {
		return openReplayCmd(m.opts.Cwd, r.Name)
	}
	if r.Mode == home.ModeDebate {
		return openDebateCmd(m.opts.Context, m.opts.Cwd, r.Name)
	}
	return func() tea.Msg { return forms.WatchMsg{Room: r.Name} }
}

// openDebateCmd opens an open debate room: followed from the store while a
// process runs its debate, as a replay once nobody does.
func openDebateCmd(ctx context.Context, cwd, name string) tea.Cmd {
	return func() tea.Msg {
		r, err := room.Open(cwd, name)
		if err != nil {
			return replayMsg{err: err}
		}
		if !debate.Abandoned(r) {
			f, err := debateview.OpenRoom(ctx, r)
			return liveMsg{feed: f, err: err}
		}
		if err := debate.CloseAbandoned(r); err != nil {
			return replayMsg{err: err}
		}
		st, err := r.State()
		return replayMsg{r: r, st: st, err: err}
	}
}

// takenMsg is the seat the user chose to play in the room form, taken
// (takeSeatCmd), or why it could not be.
type takenMsg struct {
	room   string
	person *room.Person
	err    error
}

// takeSeatCmd takes seat of room name for the user at the keyboard, as
// watch --take does (its lock and connect line are I/O: a command).
func takeSeatCmd(cwd, name, seat string) tea.Cmd {
	return func() tea.Msg {
		p, err := watch.TakeSeat(cwd, name, seat)
		return takenMsg{room: name, person: p, err: err}
	}
}

// openWatch shows the watch screen on a room, playing person's seat when
// one was taken; took is why a seat asked for could not be taken.
func (m Model) openWatch(name string, person *room.Person, took error) (tea.Model, tea.Cmd) {
	w, err := watch.New(watch.Options{
		Cwd: m.opts.Cwd, Room: name, ExportDir: m.opts.ExportDir, Dark: m.dark,
		Now: m.opts.Now, Embedded: true, Context: m.opts.Context, Seats: m.seats,
		Person: person,
	})
	if err == nil && took != nil {
		w.SetStatus("Could not take your seat: " + mdrender.Inline(took.Error()) + "; t takes a free seat.")
	}
	if err != nil {
		next, cmd := m.show(screenHome)
		nm := next.(Model)
		nm.home.SetStatus(fmt.Sprintf("Cannot watch room %s: %s", mdrender.Inline(name), mdrender.Inline(err.Error())))
		if person != nil {
			// The seat taken for a screen that did not open is given up.
			cmd = tea.Batch(cmd, func() tea.Msg { _ = person.Release(); return nil })
		}
		return nm, cmd
	}
	m.watch = &w
	return m.show(screenWatch)
}

// setDark takes the terminal's background. Screens not on show are built
// with it when they open.
func (m *Model) setDark(msg tea.BackgroundColorMsg) tea.Cmd {
	dark := msg.IsDark()
	if dark == m.dark {
		return nil
	}
	m.dark = dark
	m.md = mdrender.New(dark)
	switch m.screen {
	case screenHome:
		m.home.SetDark(dark)
	case screenDebateForm:
		m.dform.SetDark(dark)
	case screenRoomForm:
		m.rform.SetDark(dark)
	case screenDebate:
		return m.debate.SetDark(dark)
	case screenWatch:
		return m.route(msg)
	}
	return nil
}

// View shows the screen on show in a full window.
func (m Model) View() tea.View {
	var content, title string
	var status *tea.ProgramStatus
	switch m.screen {
	case screenHome:
		content, title = m.home.View(), "roundtable"
	case screenDebateForm:
		content, title = m.dform.View(), "roundtable · new debate"
	case screenRoomForm:
		content, title = m.rform.View(), "roundtable · new MCP room"
	case screenDebate:
		content, title = m.debate.View(), "roundtable · debate"
		status = m.debate.ProgramStatus()
	case screenWatch:
		if m.watch != nil {
			content = m.watch.View()
			status = m.watch.ProgramStatus()
		}
		title = "roundtable · watch"
	}
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = title
	v.ProgramStatus = status
	return v
}

// openReplayCmd reads a debate room for its replay.
func openReplayCmd(cwd, name string) tea.Cmd {
	return func() tea.Msg {
		r, err := room.Open(cwd, name)
		if err != nil {
			return replayMsg{err: err}
		}
		st, err := r.State()
		return replayMsg{r: r, st: st, err: err}
	}
}
