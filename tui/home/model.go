package home

import (
	"context"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/palette"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// Options configure the home screen.
type Options struct {
	// Cwd is the folder whose .roundtable/ is listed (absolute).
	Cwd string
	// Dark selects the dark styles.
	Dark bool
	// Now is the clock for "5m ago"; nil: time.Now.
	Now func() time.Time
	// Context bounds the screen's background work; nil:
	// context.Background(). Close ends it too.
	Context context.Context
	// Provider names the provider a new debate would use, for the welcome
	// text ("mock" needs no key).
	Provider string
	// NoWatch turns off the live update of the list (tests).
	NoWatch bool
}

// debounce lets a burst of file changes settle before the list is read
// again.
const debounce = 100 * time.Millisecond

var nextID atomic.Int64

// Model is the home screen. Update returns the concrete Model.
type Model struct {
	id     int64
	opts   Options
	ctx    context.Context
	watch  *room.DirWatch
	keys   KeyMap
	styles Styles
	help   help.Model

	rooms  []Room
	shown  []int // indices into rooms that pass the filter
	cursor int   // index into shown
	offset int   // first row of shown on screen
	loaded bool
	err    string
	now    time.Time

	filter    textinput.Model
	filtering bool
	showHelp  bool
	status    string
	confirm   *deleteConfirm // a delete waiting for y or n
	rename    *renaming      // a rename being typed (R)
	trashed   []trashedRoom  // rooms deleted this session, newest last (u restores)
	follow    string         // a room to put the cursor on once the list is read again
	pal       *palette.Model // the command palette (ctrl+p, palette.go)

	width, height int
}

// New returns the home screen; Init reads the list.
func New(opts Options) Model {
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	m := Model{
		id:     nextID.Add(1),
		opts:   opts,
		ctx:    opts.Context,
		keys:   DefaultKeyMap(),
		help:   help.New(),
		filter: textinput.New(),
		width:  80,
		height: 24,
	}
	m.filter.Prompt = "/ "
	m.filter.Placeholder = "type to filter by name, topic or mode"
	m.filter.CharLimit = 200
	m.SetDark(opts.Dark)
	if !opts.NoWatch {
		m.watch = room.WatchRooms(m.ctx, opts.Cwd)
	}
	m.now = opts.Now()
	m.syncKeys()
	return m
}

// SetDark switches between the dark and light styles.
func (m *Model) SetDark(dark bool) {
	m.styles = DefaultStyles(dark)
	m.help.Styles = m.styles.Help
	m.filter.SetStyles(m.styles.Input)
}

// Close stops the screen's background work.
func (m Model) Close() {
	if m.watch != nil {
		m.watch.Close()
	}
}

// Init reads the list and starts waiting for changes.
func (m Model) Init() tea.Cmd {
	return tea.Batch(listCmd(m.id, m.opts.Cwd, m.opts.Now), m.waitChange())
}

func (m Model) waitChange() tea.Cmd {
	if m.watch == nil {
		return nil
	}
	return waitChangeCmd(m.ctx, m.id, m.watch.Changed())
}

// Selected is the room under the cursor; ok is false when the list shown
// is empty.
func (m Model) Selected() (Room, bool) {
	if m.cursor < 0 || m.cursor >= len(m.shown) {
		return Room{}, false
	}
	return m.rooms[m.shown[m.cursor]], true
}

// Rooms is the list as last read, newest first.
func (m Model) Rooms() []Room { return m.rooms }

// SetStatus shows a note in the status line (the parent reports what
// happened elsewhere, like an MCP room created).
func (m *Model) SetStatus(s string) { m.status = s }

// Update handles a message and returns the updated screen.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
		m.filter.SetWidth(max(msg.Width-4, 10))
	case roomsMsg:
		if msg.id == m.id {
			m.setRooms(msg)
		}
	case changedMsg:
		if msg.id == m.id {
			cmd = tea.Batch(listCmd(m.id, m.opts.Cwd, m.opts.Now), m.waitChange())
		}
	case seatsCheckedMsg:
		if msg.id == m.id {
			m.seatsChecked(msg)
		}
	case trashedMsg:
		if msg.id == m.id {
			cmd = m.onTrashed(msg)
		}
	case renamedMsg:
		if msg.id == m.id {
			cmd = m.renamed(msg)
		}
	case restoredMsg:
		if msg.id == m.id {
			cmd = m.restored(msg)
		}
	case tea.KeyPressMsg:
		if c, ok := m.paletteKey(msg); ok {
			cmd = c
			break
		}
		cmd = m.handleKey(msg)
	case tea.MouseWheelMsg:
		if b := msg.Mouse().Button; b == tea.MouseWheelUp {
			m.move(-1)
		} else if b == tea.MouseWheelDown {
			m.move(1)
		}
	default:
		if m.filtering {
			m.filter, cmd = m.filter.Update(msg)
		}
	}
	m.syncKeys()
	m.scrollIntoView()
	return m, cmd
}

// setRooms takes a fresh list, keeping the cursor on the same room.
func (m *Model) setRooms(msg roomsMsg) {
	m.loaded = true
	m.now = msg.at
	if msg.err != nil {
		m.err = mdrender.Inline(msg.err.Error())
		return
	}
	m.err = ""
	sel, had := m.Selected()
	if m.follow != "" {
		sel, had = Room{Name: m.follow}, true
		m.follow = ""
	}
	m.rooms = msg.rooms
	for i := range m.rooms {
		m.rooms[i].Junk = isJunk(m.rooms[i], msg.at)
	}
	m.applyFilter()
	if had {
		for i, idx := range m.shown {
			if m.rooms[idx].Name == sel.Name {
				m.cursor = i
				return
			}
		}
	}
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.confirm != nil {
		return m.confirmKey(msg)
	}
	if m.rename != nil {
		return m.renameKey(msg)
	}
	if m.filtering {
		switch {
		case key.Matches(msg, k.ForceQuit):
			return tea.Quit
		case key.Matches(msg, k.ClearFilter):
			m.filtering = false
			m.filter.Blur()
			m.filter.SetValue("")
			m.applyFilter()
		case key.Matches(msg, k.Accept):
			m.filtering = false
			m.filter.Blur()
		case key.Matches(msg, k.ArrowUp):
			m.move(-1)
		case key.Matches(msg, k.ArrowDown):
			m.move(1)
		default:
			var cmd tea.Cmd
			m.filter, cmd = m.filter.Update(msg)
			m.applyFilter()
			return cmd
		}
		return nil
	}
	switch {
	case m.showHelp && msg.String() == "esc":
		m.showHelp = false // esc closes the help first, as on every screen
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = !m.showHelp
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-max(m.listRows()-1, 1))
	case key.Matches(msg, k.PageDown):
		m.move(max(m.listRows()-1, 1))
	case key.Matches(msg, k.Top):
		m.cursor = 0
	case key.Matches(msg, k.Bottom):
		m.cursor = max(len(m.shown)-1, 0)
	case key.Matches(msg, k.Open):
		if r, ok := m.Selected(); ok {
			return func() tea.Msg { return OpenMsg{Room: r} }
		}
	case key.Matches(msg, k.NewDebate):
		return func() tea.Msg { return NewDebateMsg{} }
	case key.Matches(msg, k.NewRoom):
		return func() tea.Msg { return NewRoomMsg{} }
	case key.Matches(msg, k.Delete):
		return m.askDelete()
	case key.Matches(msg, k.Rename):
		return m.askRename()
	case key.Matches(msg, k.Undo):
		return m.undoDelete()
	case key.Matches(msg, k.Filter):
		m.filtering = true
		return m.filter.Focus()
	case key.Matches(msg, k.ClearFilter):
		m.filter.SetValue("")
		m.applyFilter()
	case len(m.rooms) > 0 && startsFilter(msg):
		// Typing a letter no key uses starts the filter with it.
		m.filtering = true
		cmd := m.filter.Focus()
		m.filter.SetValue(msg.Text)
		m.filter.CursorEnd()
		m.applyFilter()
		return cmd
	}
	return nil
}

// startsFilter reports whether a key is plain text (a letter, digit or
// punctuation, no modifier) that can begin a filter.
func startsFilter(msg tea.KeyPressMsg) bool {
	if msg.Mod&^tea.ModShift != 0 || msg.Text == "" {
		return false
	}
	for _, r := range msg.Text {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

func (m *Model) move(d int) {
	m.cursor = clamp(m.cursor+d, 0, len(m.shown)-1)
}

// applyFilter recomputes the rooms shown: those matching every word of the
// filter in their name, topic, mode or status.
func (m *Model) applyFilter() {
	words := strings.Fields(strings.ToLower(m.filter.Value()))
	m.shown = m.shown[:0]
	for i, r := range m.rooms {
		if matches(r, words) {
			m.shown = append(m.shown, i)
		}
	}
	m.cursor = clamp(m.cursor, 0, len(m.shown)-1)
}

func matches(r Room, words []string) bool {
	hay := strings.ToLower(r.Name + " " + r.Topic + " " + r.Mode + " " + r.Status())
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// syncKeys enables the keys that work now.
func (m *Model) syncKeys() {
	k := &m.keys
	has := len(m.shown) > 0
	k.Open.SetEnabled(has && !m.filtering)
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.PageUp, &k.PageDown, &k.Top, &k.Bottom} {
		b.SetEnabled(has)
	}
	k.Filter.SetEnabled(len(m.rooms) > 0 && !m.filtering)
	k.ClearFilter.SetEnabled(m.filtering || m.filter.Value() != "")
	k.Accept.SetEnabled(m.filtering)
	k.NewDebate.SetEnabled(!m.filtering)
	k.NewRoom.SetEnabled(!m.filtering)
	k.Help.SetEnabled(!m.filtering)
	k.Quit.SetEnabled(!m.filtering)
	k.Delete.SetEnabled(has && !m.filtering)
	k.Rename.SetEnabled(has && !m.filtering)
	k.Undo.SetEnabled(len(m.trashed) > 0 && !m.filtering)
	k.Confirm.SetEnabled(m.confirm != nil && m.confirm.checked)
	k.Cancel.SetEnabled(m.confirm != nil)
}

// scrollIntoView keeps the cursor's row on screen.
func (m *Model) scrollIntoView() {
	rows := m.listRows()
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+rows {
		m.offset = m.cursor - rows + 1
	}
	m.offset = clamp(m.offset, 0, max(len(m.shown)-rows, 0))
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}
