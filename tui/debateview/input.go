package debateview

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/transfer"
)

// wheelLines is how far one mouse wheel step scrolls.
const wheelLines = 3

// handleKey acts on a key press.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.composing() && !key.Matches(msg, k.ForceQuit) {
		return m.composerUpdate(msg)
	}
	if m.confirmStop && !key.Matches(msg, k.ForceQuit) {
		return m.answerStop(msg)
	}
	if cmd, ok := m.findKey(msg); ok {
		return cmd
	}
	if m.showHelp && msg.String() == "esc" {
		// Overlays first: esc closes the help and does nothing else.
		m.showHelp = false
		return nil
	}
	switch {
	case key.Matches(msg, k.Interject):
		return m.openComposer()
	case key.Matches(msg, k.GoOn):
		m.goOn()
	case key.Matches(msg, k.Quit):
		if m.Running() && !m.quitting && m.cancel != nil {
			// Stopping a live debate asks once, whichever key asks.
			m.ask(quitQuestion, true)
			return nil
		}
		return m.quit(false)
	case key.Matches(msg, k.ForceQuit):
		return m.quit(true)
	case key.Matches(msg, k.Help):
		m.showHelp = !m.showHelp
	case key.Matches(msg, k.Stop):
		return m.stop()
	case key.Matches(msg, k.Again):
		return m.again()
	case key.Matches(msg, k.Retry):
		return m.retry()
	case key.Matches(msg, k.NextPane):
		m.moveFocus(1)
	case key.Matches(msg, k.PrevPane):
		m.moveFocus(-1)
	case key.Matches(msg, k.Up):
		m.scrollFocused(-1)
	case key.Matches(msg, k.Down):
		m.scrollFocused(1)
	case key.Matches(msg, k.PageUp):
		m.scrollFocused(-max(m.paneRows()-1, 1))
	case key.Matches(msg, k.PageDown):
		m.scrollFocused(max(m.paneRows()-1, 1))
	case key.Matches(msg, k.Top):
		if s := m.focusedScroll(); s != nil {
			s.toTop()
		}
	case key.Matches(msg, k.Bottom):
		if s := m.focusedScroll(); s != nil {
			s.follow = true
		}
	case key.Matches(msg, k.ExportMD, k.ExportHTML):
		if m.room == nil {
			return nil
		}
		html := key.Matches(msg, k.ExportHTML)
		m.setStatus("Exporting the transcript…")
		return transfer.Export(m.id, m.room, m.exportDir(), html)
	case key.Matches(msg, k.Copy):
		if m.room == nil {
			return nil
		}
		return transfer.Copy(m.id, m.room)
	}
	return nil
}

// quit is q: back to the parent screen when embedded, as q is on every
// screen but the home screen; out of the program otherwise, or when force
// (ctrl+c). A running debate is stopped and saved first.
func (m *Model) quit(force bool) tea.Cmd {
	m.forceQuit = m.forceQuit || force
	m.interrupted = m.interrupted || (force && m.Running())
	if !m.Running() || m.quitting {
		// A second q while saving gives up waiting: the debate is
		// cancelled already, and its events are drained in the background
		// so it can finish saving (the program's Tracker also waits for it
		// on the way out).
		return tea.Batch(m.leave(), drainCmd(m.events))
	}
	m.quitting = true
	if m.opts.Embedded && !m.forceQuit {
		m.setStatus("Stopping and saving the debate, then back…")
	} else {
		m.setStatus("Stopping and saving the debate before quitting…")
	}
	if m.cancel != nil {
		m.cancel()
	}
	return nil
}

// leave is where q goes: the parent screen when embedded, else (and
// after ctrl+c) out.
func (m *Model) leave() tea.Cmd {
	if m.opts.Embedded && !m.forceQuit {
		return func() tea.Msg { return BackMsg{} }
	}
	return tea.Quit
}

// drainCmd reads a debate's remaining events, if any, so that a debate
// nobody watches any more still runs to its end and is saved.
func drainCmd(events <-chan debate.Event) tea.Cmd {
	if events == nil {
		return nil
	}
	return func() tea.Msg {
		for range events {
		}
		return nil
	}
}

// stopQuestion is what esc asks before it stops a running debate, and
// quitQuestion what q asks before it stops one and goes back.
const (
	stopQuestion = "Stop the debate? y/n (what was said is saved; R resumes it)"
	quitQuestion = "Stop the debate and go back? y/n (what was said is saved; R resumes it)"
)

// ask puts question on the status line and waits for y or anything else
// (answerStop); thenQuit: a yes also leaves the screen, as q does.
func (m *Model) ask(question string, thenQuit bool) {
	m.confirmStop, m.quitOnStop = true, thenQuit
	m.statusBefore = m.status
	m.setStatus(question)
}

// stop is esc: on a running debate it asks once whether to stop it
// (answerStop); once the debate has ended, it goes back to the parent
// screen.
func (m *Model) stop() tea.Cmd {
	if m.Running() {
		if m.cancel != nil {
			m.ask(stopQuestion, false)
		}
		return nil
	}
	if m.opts.Embedded {
		return func() tea.Msg { return BackMsg{} }
	}
	return nil
}

// answerStop takes the answer to stopQuestion: y stops the debate (what
// was said is saved and stays on screen); any other key, esc and n
// included, leaves it running, and does nothing else.
func (m *Model) answerStop(msg tea.KeyPressMsg) tea.Cmd {
	thenQuit := m.quitOnStop
	m.confirmStop, m.quitOnStop = false, false
	if m.status == stopQuestion || m.status == quitQuestion {
		m.setStatus(m.statusBefore)
	}
	if s := msg.String(); (s != "y" && s != "Y") || !m.Running() {
		return nil
	}
	if thenQuit {
		return m.quit(false)
	}
	if m.cancel == nil {
		return nil
	}
	m.setStatus("Stopping…")
	m.cancel()
	return nil
}

// again runs the same debate again, in a new room.
func (m *Model) again() tea.Cmd {
	if m.Running() || m.launch == nil || m.watching() {
		return nil
	}
	m.run++
	m.room, m.events, m.cancel = nil, nil, nil
	m.setPanel(m.launch.Config.Names())
	m.verdict = verdictPane{seat: m.verdict.seat, scroll: newScroller()}
	m.round, m.live = 0, 0
	m.usage, m.acct = debate.Usage{}, accounting{}
	m.started, m.ended = time.Time{}, time.Time{}
	m.phase = phaseStarting
	m.focus, m.autoFocus, m.winStart = 0, true, 0
	m.setStatus("Starting the debate again…")
	return tea.Batch(startCmd(m.ctx, m.id, m.run, m.opts.Tracker, *m.launch, ""), m.animate())
}

// exportDir is where e and E write: the option, or empty for the working
// directory, which the export command resolves off the Update path.
func (m *Model) exportDir() string { return m.opts.ExportDir }

func (m *Model) exported(msg transfer.ExportedMsg) {
	if text, ok := msg.Status(); ok {
		m.setStatus(text)
	} else {
		m.setError(text)
	}
}

func (m *Model) copied(msg transfer.CopiedMsg) tea.Cmd {
	text, ok, cmd := msg.Status()
	if !ok {
		m.setError(text)
		return nil
	}
	m.setStatus(text)
	return cmd
}

// panes is how many panes take focus: the columns, and the verdict once
// there is one.
func (m *Model) panes() int {
	if m.verdict.shown() {
		return len(m.cols) + 1
	}
	return len(m.cols)
}

func (m *Model) moveFocus(d int) {
	n := m.panes()
	if n == 0 {
		return
	}
	m.focus = ((m.focus+d)%n + n) % n
	m.autoFocus = false
}

// focusedScroll is the scroll of the focused pane.
func (m *Model) focusedScroll() *scroller {
	if m.focus < len(m.cols) {
		return &m.cols[m.focus].scroll
	}
	if m.verdict.shown() {
		return &m.verdict.scroll
	}
	return nil
}

// paneRows is the text rows of the focused pane.
func (m *Model) paneRows() int {
	if m.focus >= len(m.cols) && !m.lay.narrow {
		return max(m.lay.panelRows-2, 1)
	}
	return max(m.lay.colRows-2, 1)
}

func (m *Model) scrollFocused(n int) {
	if m.focus < len(m.cols) {
		c := m.cols[m.focus]
		c.scroll.by(n, c.total, m.paneRows())
		return
	}
	if m.verdict.shown() {
		m.verdict.scroll.by(n, len(m.verdict.lines), m.paneRows())
	}
}

// paneAt is the pane under the screen cell (x, y), or -1.
func (m *Model) paneAt(x, y int) int {
	l := m.lay
	if y >= l.panelTop && y < l.panelTop+l.panelRows && l.panelRows > 0 {
		return len(m.cols)
	}
	if y < l.colTop || y >= l.colTop+l.colRows {
		return -1
	}
	for i, x0 := range l.xs {
		if x >= x0 && x < x0+l.widths[i] {
			return l.panes[i]
		}
	}
	return -1
}

func (m *Model) handleWheel(msg tea.MouseWheelMsg) {
	ms := msg.Mouse()
	p := m.paneAt(ms.X, ms.Y)
	if p < 0 {
		return
	}
	n := wheelLines
	switch ms.Button {
	case tea.MouseWheelUp:
		n = -n
	case tea.MouseWheelDown:
	default:
		return
	}
	old := m.focus
	m.focus = p
	m.scrollFocused(n)
	m.focus = old
}

func (m *Model) handleClick(msg tea.MouseClickMsg) {
	ms := msg.Mouse()
	if ms.Button != tea.MouseLeft {
		return
	}
	if ms.Y == m.lay.tabsRow && m.tabs != "" {
		for i, r := range m.lay.tabXs {
			if ms.X >= r[0] && ms.X < r[1] {
				m.focus, m.autoFocus = i, false
				return
			}
		}
		return
	}
	if p := m.paneAt(ms.X, ms.Y); p >= 0 {
		m.focus, m.autoFocus = p, false
	}
}

// syncKeys enables and relabels the keys for the screen's state.
func (m *Model) syncKeys() {
	k := &m.keys
	running := m.Running()
	if !running && m.confirmStop {
		// The debate ended while esc's question waited: nothing to stop.
		m.confirmStop = false
	}
	k.Stop.SetEnabled(running || m.opts.Embedded)
	if running {
		k.Stop.SetHelp("esc", "stop")
	} else {
		k.Stop.SetHelp("esc", "back")
	}
	k.Again.SetEnabled(!running && m.launch != nil && !m.watching())
	k.Retry.SetEnabled(m.canRetry())
	if m.stopped() {
		k.Retry.SetHelp("R", "resume")
	} else {
		k.Retry.SetHelp("R", "retry failed turn")
	}
	hasRoom := m.room != nil
	k.ExportMD.SetEnabled(hasRoom)
	k.ExportHTML.SetEnabled(hasRoom)
	k.Copy.SetEnabled(hasRoom)
	many := m.panes() > 1
	k.NextPane.SetEnabled(many)
	k.PrevPane.SetEnabled(many)
	switch {
	case m.opts.Embedded && m.quitting:
		k.Quit.SetHelp("q", "back now")
	case m.opts.Embedded:
		k.Quit.SetHelp("q", "back")
	case m.quitting:
		k.Quit.SetHelp("q", "quit now")
	default:
		k.Quit.SetHelp("q", "quit")
	}
	m.syncFind()
	m.syncNoteKeys()
}
