package watch

import (
	"errors"
	"fmt"
	"path/filepath"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/transfer"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// wheelLines is how far one mouse wheel step scrolls.
const wheelLines = 3

// syncKeys enables the bindings that work in the current state and labels
// Follow with what it will do.
func (m *Model) syncKeys() {
	live := m.phase == phaseLive
	closed := live && m.st.Closed != nil
	m.keys.Spec.SetEnabled(closed && !m.cfg.IsDebate())
	// Embedded in the home screen, esc also leaves, and q goes back rather
	// than quitting the program.
	m.keys.Back.SetEnabled(m.showSpec || m.opts.Embedded)
	// q is "back", as on every screen: from the spec to the messages,
	// from the messages to the home screen; standalone, from the messages
	// it quits (there is no screen to go back to).
	switch {
	case m.showSpec:
		m.keys.Quit.SetHelp("q", "messages")
	case m.opts.Embedded:
		m.keys.Quit.SetHelp("q", "back")
	default:
		m.keys.Quit.SetHelp("q", "quit")
	}
	m.keys.ExportMD.SetEnabled(live)
	m.keys.ExportHTML.SetEnabled(live)
	m.keys.Copy.SetEnabled(live)
	m.keys.Verdict.SetEnabled(live && !m.cfg.IsDebate() && len(m.st.Messages) > 0)
	m.keys.Follow.SetEnabled(live && !m.showSpec)
	for _, b := range []*key.Binding{&m.keys.Up, &m.keys.Down, &m.keys.PageUp, &m.keys.PageDown, &m.keys.HalfPageUp, &m.keys.HalfPageDown, &m.keys.Top, &m.keys.Bottom} {
		b.SetEnabled(live)
	}
	if m.list.follow {
		m.keys.Follow.SetHelp("f", "unfollow")
	} else {
		m.keys.Follow.SetHelp("f", "follow")
	}
	if m.showSpec {
		m.keys.Spec.SetHelp("s", "messages")
	} else {
		m.keys.Spec.SetHelp("s", "spec")
	}
	m.syncColumnsKey()
	m.syncFind()
	m.syncTakeKeys()
	m.syncNoteKeys()
	m.syncRemoteKeys()
}

// bodyHeight is the height of the message area as last laid out.
func (m *Model) bodyHeight() int { return max(len(m.body), 1) }

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.findKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.remoteKey(msg); ok {
		return cmd
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit) && m.showSpec:
		m.showSpec = false
	case key.Matches(msg, k.Quit, k.ForceQuit):
		if m.opts.Embedded {
			return func() tea.Msg { return DoneMsg{} }
		}
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	case key.Matches(msg, k.Back):
		if !m.showSpec && m.opts.Embedded {
			return func() tea.Msg { return DoneMsg{} }
		}
		m.showSpec = false
	case key.Matches(msg, k.Spec):
		return m.toggleSpec()
	case key.Matches(msg, k.ExportMD):
		m.setStatus("exporting the transcript…", true)
		return transfer.Export(m.id, m.room, m.opts.ExportDir, false)
	case key.Matches(msg, k.ExportHTML):
		m.setStatus("exporting the transcript…", true)
		return transfer.Export(m.id, m.room, m.opts.ExportDir, true)
	case key.Matches(msg, k.Copy):
		return transfer.Copy(m.id, m.room)
	case key.Matches(msg, k.Verdict):
		m.setStatus("asking the moderator for a verdict on the room…", true)
		return askVerdict(m.id, m.room)
	case key.Matches(msg, k.Follow):
		m.list.setFollow(!m.list.follow)
	case key.Matches(msg, k.Columns):
		m.toggleColumns()
	case key.Matches(msg, k.Note) || m.noteKeyRefused(msg):
		return m.openNote()
	default:
		m.scrollKey(msg)
	}
	return nil
}

// scrollKey moves the messages, or the spec when it is shown.
func (m *Model) scrollKey(msg tea.KeyPressMsg) {
	k := m.keys
	h := m.bodyHeight()
	var n int
	switch {
	case key.Matches(msg, k.Up):
		n = -1
	case key.Matches(msg, k.Down):
		n = 1
	case key.Matches(msg, k.PageUp):
		n = -h
	case key.Matches(msg, k.PageDown):
		n = h
	case key.Matches(msg, k.HalfPageUp):
		n = -max(h/2, 1)
	case key.Matches(msg, k.HalfPageDown):
		n = max(h/2, 1)
	case key.Matches(msg, k.Top):
		if m.showSpec {
			m.spec.GotoTop()
		} else {
			m.list.toTop()
		}
		return
	case key.Matches(msg, k.Bottom):
		if m.showSpec {
			m.spec.GotoBottom()
		} else {
			m.list.toBottom()
		}
		return
	default:
		return
	}
	m.scrollBy(n)
}

func (m *Model) scrollBy(n int) {
	switch {
	case m.showSpec && n < 0:
		m.spec.ScrollUp(-n)
	case m.showSpec:
		m.spec.ScrollDown(n)
	case m.phase == phaseLive:
		m.list.scroll(n, m.bodyHeight())
	}
}

func (m *Model) handleWheel(msg tea.MouseWheelMsg) {
	switch msg.Button {
	case tea.MouseWheelUp:
		m.scrollBy(-wheelLines)
	case tea.MouseWheelDown:
		m.scrollBy(wheelLines)
	default:
	}
}

// toggleSpec shows the spec (reading it in a command) or goes back.
func (m *Model) toggleSpec() tea.Cmd {
	if m.showSpec {
		m.showSpec = false
		return nil
	}
	m.showSpec = true
	m.specErr = ""
	m.spec.SetContent(m.styles.Muted.Render("reading the spec…"))
	return m.loadSpec()
}

func (m *Model) loadSpec() tea.Cmd {
	if m.room == nil {
		return nil
	}
	m.specPath = filepath.Join(m.room.Cwd(), filepath.FromSlash(m.specRel()))
	return specCmd(m.id, m.sess.renderer(), m.room, m.specRel(), m.specPath, m.specWidth())
}

// reloadSpec renders the spec again after a resize or a new background.
func (m *Model) reloadSpec() tea.Cmd {
	if !m.showSpec {
		return nil
	}
	return m.loadSpec()
}

func (m *Model) specWidth() int { return max(m.width-2, 10) }

func (m *Model) specLoaded(msg specMsg) {
	if msg.path != m.specPath || msg.width != m.specWidth() {
		return // an older request
	}
	var large *room.TooLargeError
	switch {
	case errors.As(msg.err, &large):
		m.specErr = mdrender.Inline(fmt.Sprintf("the spec %s is %.1f MiB, too large to show here (the limit is %d MiB); open it in an editor", m.specRel(), float64(large.Size)/(1<<20), large.Limit>>20))
		m.spec.SetContent("")
		return
	case msg.err != nil:
		m.specErr = mdrender.Inline(fmt.Sprintf("cannot show the spec %s: %v", m.specRel(), msg.err))
		m.spec.SetContent("")
		return
	}
	m.specErr = ""
	m.spec.SetContent(msg.rendered)
}

// specBody is the spec view: a title line and the rendered spec.
func (m *Model) specBody(h int) []string {
	s := m.styles
	title := fitLR(s.Strong.Render(" spec ")+s.Muted.Render(m.specRel()), s.Faint.Render("s, q or esc: back to the messages "), m.width)
	if m.specErr != "" {
		return append([]string{title, ""}, m.wrapped(m.specErr, s.Warning.Render)...)
	}
	m.spec.SetWidth(m.width)
	m.spec.SetHeight(max(h-1, 1))
	m.spec.Style = s.Text.PaddingLeft(1)
	return append([]string{title}, splitLines(m.spec.View())...)
}

func (m *Model) exported(msg transfer.ExportedMsg) {
	m.setStatus(msg.Status())
}

func (m *Model) copied(msg transfer.CopiedMsg) tea.Cmd {
	text, ok, cmd := msg.Status()
	m.setStatus(text, ok)
	return cmd
}
