package home

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// junkAge is how long a room may sit with no message before the list
// calls it junk: created and never used.
const junkAge = 24 * time.Hour

// isJunk reports whether a room is junk: it cannot be read, or it holds no
// message and is closed or was left unused for junkAge.
func isJunk(r Room, now time.Time) bool {
	switch {
	case r.Err != "" && r.Messages == 0:
		return true
	case r.Messages > 0:
		return false
	case r.Closed:
		return true
	}
	return !r.Last.IsZero() && now.Sub(r.Last) > junkAge
}

// renaming is a rename asked for with R: the room, and the new name being
// typed.
type renaming struct {
	from    string
	input   textinput.Model
	pending bool // enter was pressed: the rename runs, and keys wait for it
}

// renamedMsg: room from was renamed to to, or could not be.
type renamedMsg struct {
	id       int64
	from, to string
	err      error
}

// restoredMsg: a trashed room was moved back, or could not be.
type restoredMsg struct {
	id   int64
	name string
	path string
	err  error
}

// trashedRoom is a room deleted during this session, restorable with u.
type trashedRoom struct {
	name, path string
}

func renameCmd(id int64, cwd, from, to string) tea.Cmd {
	return func() tea.Msg {
		return renamedMsg{id: id, from: from, to: to, err: room.Rename(cwd, from, to)}
	}
}

func restoreCmd(id int64, cwd string, t trashedRoom) tea.Cmd {
	return func() tea.Msg {
		return restoredMsg{id: id, name: t.name, path: t.path, err: room.Restore(cwd, t.path, t.name)}
	}
}

// askRename opens the rename prompt on the room under the cursor.
func (m *Model) askRename() tea.Cmd {
	r, ok := m.Selected()
	if !ok {
		return nil
	}
	in := textinput.New()
	in.Prompt = "new name: "
	in.CharLimit = 100
	in.SetWidth(max(m.width-14, 20))
	in.SetStyles(m.styles.Input)
	in.SetValue(r.Name)
	in.CursorEnd()
	m.rename = &renaming{from: r.Name, input: in}
	m.status = ""
	return m.rename.input.Focus()
}

// renameKey handles a key while the rename prompt is open: enter renames,
// esc gives up, anything else edits the name.
func (m *Model) renameKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.ForceQuit):
		return tea.Quit
	case m.rename.pending:
		return nil // the rename runs; its outcome closes the prompt or says why not
	case msg.String() == "esc":
		m.status = "Kept the name " + mdrender.Inline(m.rename.from) + "."
		m.rename = nil
		return nil
	case msg.String() == "enter":
		to := strings.TrimSpace(m.rename.input.Value())
		from := m.rename.from
		if to == from {
			m.rename = nil
			m.status = "Kept the name " + mdrender.Inline(from) + "."
			return nil
		}
		if err := room.ValidateName(to); err != nil {
			m.status = "Not a room name: " + mdrender.Inline(err.Error())
			return nil
		}
		m.rename.pending = true
		m.status = fmt.Sprintf("Renaming %s to %s…", mdrender.Inline(from), mdrender.Inline(to))
		return renameCmd(m.id, m.opts.Cwd, from, to)
	}
	var cmd tea.Cmd
	m.rename.input, cmd = m.rename.input.Update(msg)
	m.status = ""
	return cmd
}

// renamed reports a rename and reads the list again, keeping the cursor on
// the room under its new name. A rename refused keeps its prompt open,
// saying why, so another name can be typed (or esc keeps the old one).
func (m *Model) renamed(msg renamedMsg) tea.Cmd {
	if m.rename != nil && m.rename.from == msg.from {
		m.rename.pending = false
		if msg.err == nil {
			m.rename = nil
		}
	}
	if msg.err != nil {
		m.status = fmt.Sprintf("Could not rename %s: %s", mdrender.Inline(msg.from), mdrender.Inline(msg.err.Error()))
		return nil
	}
	m.status = fmt.Sprintf("Renamed %s to %s.", mdrender.Inline(msg.from), mdrender.Inline(msg.to))
	m.follow = msg.to
	return listCmd(m.id, m.opts.Cwd, m.opts.Now)
}

// undoDelete restores the room deleted last in this session.
func (m *Model) undoDelete() tea.Cmd {
	if len(m.trashed) == 0 {
		return nil
	}
	t := m.trashed[len(m.trashed)-1]
	m.status = "Restoring room " + mdrender.Inline(t.name) + "…"
	return restoreCmd(m.id, m.opts.Cwd, t)
}

func (m *Model) restored(msg restoredMsg) tea.Cmd {
	name := mdrender.Inline(msg.name)
	if msg.err != nil {
		m.status = fmt.Sprintf("Could not restore room %s: %s", name, mdrender.Inline(msg.err.Error()))
		return nil
	}
	for i := len(m.trashed) - 1; i >= 0; i-- {
		if m.trashed[i].path == msg.path {
			m.trashed = append(m.trashed[:i], m.trashed[i+1:]...)
			break
		}
	}
	m.status = "Restored room " + name + "."
	m.follow = msg.name
	return listCmd(m.id, m.opts.Cwd, m.opts.Now)
}

// renameLines are the footer while the rename prompt is open.
func (m *Model) renameLines(w int) []string {
	s := &m.styles
	head := []string{fmt.Sprintf("Rename room %s: enter renames, esc keeps the name.", mdrender.Inline(m.rename.from))}
	if m.status != "" {
		head = m.statusLines(w) // why the name typed was refused, in full
	}
	var out []string
	for _, l := range head {
		out = append(out, s.StatusBar.Render(cells.Fit(" "+cells.Truncate(l, w-2), w)))
	}
	return append(out, cells.Fit(" "+m.rename.input.View(), w))
}
