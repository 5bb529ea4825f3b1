// Package composer is the text box a person writes in: a note to the
// panel, a steering note to a room, a post in a seat they took. It is one
// line that grows with its text (up to MaxRows), with a title above and its
// keys below. enter sends, alt+enter (or ctrl+j) starts a new line, esc puts
// it away keeping the draft, ctrl+e writes the text in $EDITOR.
//
// A screen owns one Model, calls Open when its key is pressed, sends it
// every message while IsOpen, and acts on the Result Update returns. The
// composer does no I/O in Update: the editor runs through tea.Exec
// and its text comes back as a message.
package composer

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// DefaultMaxRows is how tall the text grows before it scrolls.
const DefaultMaxRows = 8

// Outcome is what a key press did to the composer.
type Outcome int

const (
	// None means the composer is still open (or was never open).
	None Outcome = iota
	// Sent means enter was pressed on a non-empty text; Result.Text holds it,
	// and the composer is closed and empty.
	Sent
	// Cancelled means esc put the composer away; its draft is kept for the next
	// Open.
	Cancelled
)

// Result is what Update reports besides the new model.
type Result struct {
	Outcome Outcome
	Text    string // Sent: the text, trimmed of surrounding blank space
	Err     string // the editor could not be run or read: one sentence to show
}

// Keys are the composer's own keys, for help and the palette.
type Keys struct {
	Send    key.Binding
	Newline key.Binding
	Cancel  key.Binding
	Editor  key.Binding
}

// DefaultKeys are the composer's keys.
func DefaultKeys() Keys {
	return Keys{
		Send:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline: key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("alt+enter", "new line")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "put away (kept)")),
		Editor:  key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "$EDITOR")),
	}
}

// Model is a composer. The zero value is not ready: use New.
type Model struct {
	ta      textarea.Model
	keys    Keys
	open    bool
	title   string
	width   int
	maxRows int
	dark    bool
	// id tells this composer's editor results from another's.
	id int
	// stale: text was typed straight into the text since the textarea last
	// worked out its height and scroll; syncDue: a syncMsg is on its way.
	stale   bool
	syncDue bool
	sized   bool // SetWidth reached the textarea
}

// syncMsg asks composer id to bring its height and scroll up to date.
type syncMsg struct{ id int }

var lastID atomic.Int64

// New returns a closed composer showing placeholder when empty.
func New(placeholder string) Model {
	ta := textarea.New()
	ta.Placeholder = placeholder
	ta.ShowLineNumbers = false
	ta.Prompt = "│ "
	ta.DynamicHeight = true
	ta.MinHeight = 1
	ta.MaxHeight = DefaultMaxRows
	ta.CharLimit = 0
	km := textarea.DefaultKeyMap()
	// enter sends; alt+enter and ctrl+j break the line. ctrl+e is the
	// editor and ctrl+p/ctrl+n belong to the screens (the palette).
	km.InsertNewline = key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"))
	km.LineEnd = key.NewBinding(key.WithKeys("end"))
	km.LinePrevious = key.NewBinding(key.WithKeys("up"))
	km.LineNext = key.NewBinding(key.WithKeys("down"))
	ta.KeyMap = km
	m := Model{ta: ta, keys: DefaultKeys(), maxRows: DefaultMaxRows, width: 60, id: int(lastID.Add(1))}
	m.SetDark(true)
	m.SetWidth(60)
	return m
}

// Keys are the composer's keys (for a screen's help and palette).
func (m Model) Keys() Keys { return m.keys }

// Bindings lists the composer's keys.
func (m Model) Bindings() []key.Binding {
	return []key.Binding{m.keys.Send, m.keys.Newline, m.keys.Editor, m.keys.Cancel}
}

// SetDark picks the styles for a dark or light background.
func (m *Model) SetDark(dark bool) {
	m.dark = dark
	st := textarea.DefaultStyles(dark)
	st.Focused.CursorLine = lipgloss.NewStyle()
	m.ta.SetStyles(st)
}

// SetWidth sets the width the composer takes, border included.
func (m *Model) SetWidth(w int) {
	w = max(w, 12)
	if w == m.width && m.sized {
		return // the textarea's SetWidth walks the whole text
	}
	m.width, m.sized = w, true
	m.ta.SetWidth(m.width - 2)
}

// SetMaxRows bounds how tall the text grows.
func (m *Model) SetMaxRows(n int) {
	m.maxRows = max(n, 1)
	m.ta.MaxHeight = m.maxRows
}

// Open shows the composer under title, focused, with the draft kept from
// the last time it was put away.
func (m *Model) Open(title string) tea.Cmd {
	m.open = true
	m.title = title
	return m.ta.Focus()
}

// SetTitle changes the line above the text while it is open.
func (m *Model) SetTitle(title string) { m.title = title }

// SetPlaceholder changes what the box shows while it is empty.
func (m *Model) SetPlaceholder(s string) { m.ta.Placeholder = s }

// Close puts the composer away, keeping its draft.
func (m *Model) Close() {
	m.open = false
	m.ta.Blur()
}

// IsOpen reports whether the composer is shown and takes keys.
func (m Model) IsOpen() bool { return m.open }

// Value is the text written so far.
func (m Model) Value() string { return m.ta.Value() }

// SetValue replaces the text.
func (m *Model) SetValue(s string) { m.ta.SetValue(s) }

// Height is how many rows View takes: 0 when closed. It first brings the
// box's size up to date with text typed since it was last worked out.
func (m *Model) Height() int {
	if !m.open {
		return 0
	}
	m.sync()
	return m.ta.Height() + 2 // the title line and the keys line
}

// sync works out the textarea's height, wrapping and scroll after text
// was typed straight in (typed): a walk over the whole text, done once
// for a run of keys instead of once a key.
func (m *Model) sync() {
	if !m.stale {
		return
	}
	m.stale = false
	m.ta, _ = m.ta.Update(syncMsg{id: m.id})
}

// typed inserts a key's text when it is plain text (printable, no ctrl or
// alt, no selection to replace) and reports whether it did. The textarea's
// own Update re-wraps and re-renders the whole text on every key, which
// makes a long paste without bracketed paste quadratic; this inserts in
// time proportional to the key's text and leaves the rest to sync.
func (m *Model) typed(msg tea.KeyPressMsg) bool {
	if msg.Text == "" || msg.Mod&^(tea.ModShift|tea.ModCapsLock|tea.ModNumLock) != 0 || m.ta.HasSelection() {
		return false
	}
	for _, r := range msg.Text {
		if !unicode.IsGraphic(r) || r == '\t' {
			return false
		}
	}
	// With DynamicHeight off the insert skips the height walk; sync does it.
	m.ta.DynamicHeight = false
	m.ta.InsertString(msg.Text)
	m.ta.DynamicHeight = true
	m.stale = true
	return true
}

// editedMsg carries the text back from $EDITOR.
type editedMsg struct {
	id   int
	text string
	err  error
}

// Update handles a message while the composer is open. Messages that are
// not for it (and every message while it is closed) are ignored.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd, Result) {
	switch msg := msg.(type) {
	case editReadyMsg:
		if msg.id != m.id {
			return m, nil, Result{}
		}
		return m, editFile(m.id, msg.path), Result{}
	case editedMsg:
		if msg.id != m.id {
			return m, nil, Result{}
		}
		if msg.err != nil {
			return m, nil, Result{Err: msg.err.Error()}
		}
		m.ta.SetValue(strings.TrimRight(msg.text, "\n"))
		m.ta.MoveToEnd()
		return m, nil, Result{}
	case syncMsg:
		if msg.id == m.id {
			m.syncDue = false
			m.sync()
		}
		return m, nil, Result{}
	case tea.KeyPressMsg:
		if !m.open {
			return m, nil, Result{}
		}
		if m.typed(msg) {
			if m.syncDue {
				return m, nil, Result{}
			}
			m.syncDue = true
			id := m.id
			return m, func() tea.Msg { return syncMsg{id: id} }, Result{}
		}
		m.sync()
		switch {
		case key.Matches(msg, m.keys.Send):
			text := strings.TrimSpace(m.ta.Value())
			if text == "" {
				return m, nil, Result{}
			}
			m.ta.Reset()
			m.Close()
			return m, nil, Result{Outcome: Sent, Text: text}
		case key.Matches(msg, m.keys.Cancel):
			m.Close()
			return m, nil, Result{Outcome: Cancelled}
		case key.Matches(msg, m.keys.Editor):
			return m, EditCmd(m.id, m.ta.Value()), Result{}
		}
	}
	if !m.open {
		return m, nil, Result{}
	}
	m.sync()
	var cmd tea.Cmd
	m.ta, cmd = m.ta.Update(msg)
	return m, cmd, Result{}
}

// Editor is the command that edits a file: $VISUAL, then $EDITOR, then vi.
func Editor() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// EditFile runs the editor on path, suspending the program's screen while
// it runs; done gets the editor's error (nil when it exited 0).
func EditFile(path string, done func(error) tea.Msg) tea.Cmd {
	argv := append(Editor(), path)
	c := exec.Command(argv[0], argv[1:]...) //nolint:gosec // the user's own editor, on a file we made
	return tea.Exec(&editorRun{Cmd: c, least: MinSuspend}, func(err error) tea.Msg {
		if err != nil {
			err = fmt.Errorf("the editor (%s) failed: %w; set $EDITOR to one that works, or write here", strings.Join(Editor(), " "), err)
		}
		return done(err)
	})
}

// MinSuspend is the least time the screen stays suspended for the editor.
//
// Bubble Tea v2.1.1 stops its render loop without waiting for it
// (charmbracelet/bubbletea#1778): the old loop's ticker.Stop can land
// after the restart's ticker.Reset, and then the screen never paints
// again although the program goes on. An editor that returns at once (a
// script, one that fails to start) hits that window; holding the suspension
// this long gives the old loop time to stop first. People take far longer
// in an editor, so they never wait for it.
const MinSuspend = 150 * time.Millisecond

// editorRun is the editor's command as Bubble Tea runs it, taking at least
// least. It wires the terminal the way tea.ExecProcess does: what the
// command does not set itself.
type editorRun struct {
	*exec.Cmd
	least time.Duration
}

func (e *editorRun) SetStdin(r io.Reader) {
	if e.Stdin == nil {
		e.Stdin = r
	}
}

func (e *editorRun) SetStdout(w io.Writer) {
	if e.Stdout == nil {
		e.Stdout = w
	}
}

func (e *editorRun) SetStderr(w io.Writer) {
	if e.Stderr == nil {
		e.Stderr = w
	}
}

func (e *editorRun) Run() error {
	start := time.Now()
	err := e.Cmd.Run()
	if rest := e.least - time.Since(start); rest > 0 {
		time.Sleep(rest)
	}
	return err
}

// editReadyMsg: the text was written to path for the editor.
type editReadyMsg struct {
	id   int
	path string
}

// EditCmd writes text to a temporary file (in the command, not in Update)
// and hands its path back to composer id, which then opens it in the
// editor (editFile) and brings the edited text back.
func EditCmd(id int, text string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "roundtable-*.md")
		if err != nil {
			return editedMsg{id: id, err: fmt.Errorf("cannot make a file for the editor: %w; write here instead", err)}
		}
		path := f.Name()
		_, werr := f.WriteString(text)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			_ = os.Remove(path)
			return editedMsg{id: id, err: fmt.Errorf("cannot write a file for the editor: %v; write here instead", errorsJoin(werr, cerr))}
		}
		return editReadyMsg{id: id, path: path}
	}
}

// editFile opens path in the editor and reads the text back into
// composer id, removing the file.
func editFile(id int, path string) tea.Cmd {
	return EditFile(path, func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return editedMsg{id: id, err: err}
		}
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			return editedMsg{id: id, err: fmt.Errorf("cannot read back what the editor wrote: %w", rerr)}
		}
		return editedMsg{id: id, text: string(data)}
	})
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// View draws the composer at its width: the title, the text, the keys. It
// is empty when closed.
func (m Model) View() string {
	if !m.open {
		return ""
	}
	m.sync() // on this copy: Height (or the next syncMsg) keeps it
	dim := lipgloss.NewStyle().Faint(true)
	bold := lipgloss.NewStyle().Bold(true)
	title := bold.Render(truncate(m.title, m.width))
	hint := dim.Render(truncate("enter send · alt+enter new line · ctrl+e $EDITOR · esc put away", m.width))
	return title + "\n" + m.ta.View() + "\n" + hint
}

func truncate(s string, w int) string {
	if lipgloss.Width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r))+1 > w {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}
