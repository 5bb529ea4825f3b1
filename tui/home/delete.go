package home

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// deleteConfirm is a delete asked for with d and not yet answered: the
// room, and what its server.log says of its seats once read.
type deleteConfirm struct {
	room    Room
	checked bool            // the seats were read: y may delete
	live    []room.SeatInfo // seats still connected
	err     string          // why server.log could not be read
}

// seatsCheckedMsg is what server.log says of the seats of a room about to
// be deleted.
type seatsCheckedMsg struct {
	id   int64
	name string
	live []room.SeatInfo
	err  error
}

// trashedMsg: a room was moved to the trash (to path), or could not be.
type trashedMsg struct {
	id   int64
	name string
	path string
	err  error
}

// checkSeatsCmd reads which seats of room name are still connected.
func checkSeatsCmd(id int64, cwd, name string) tea.Cmd {
	return func() tea.Msg {
		live, err := room.LiveSeats(room.Dir(cwd, name))
		return seatsCheckedMsg{id: id, name: name, live: live, err: err}
	}
}

// trashCmd moves room name to the trash.
func trashCmd(id int64, cwd, name string, now time.Time) tea.Cmd {
	return func() tea.Msg {
		path, err := room.Trash(cwd, name, now)
		return trashedMsg{id: id, name: name, path: path, err: err}
	}
}

// askDelete starts the confirmation for the room under the cursor.
func (m *Model) askDelete() tea.Cmd {
	r, ok := m.Selected()
	if !ok {
		return nil
	}
	m.confirm = &deleteConfirm{room: r}
	m.status = ""
	return checkSeatsCmd(m.id, m.opts.Cwd, r.Name)
}

// seatsChecked completes the confirmation with what server.log says.
func (m *Model) seatsChecked(msg seatsCheckedMsg) {
	if m.confirm == nil || m.confirm.room.Name != msg.name {
		return
	}
	m.confirm.checked = true
	m.confirm.live = msg.live
	if msg.err != nil {
		m.confirm.err = mdrender.Inline(msg.err.Error())
	}
}

// confirmKey answers the confirmation: y deletes, n, esc or q keeps the
// room. Other keys wait for an answer.
func (m *Model) confirmKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	c := m.confirm
	switch {
	case key.Matches(msg, k.ForceQuit):
		return tea.Quit
	case key.Matches(msg, k.Confirm) && c.checked:
		m.confirm = nil
		m.status = "Deleting room " + mdrender.Inline(c.room.Name) + "…"
		return trashCmd(m.id, m.opts.Cwd, c.room.Name, m.opts.Now())
	case key.Matches(msg, k.Cancel):
		m.confirm = nil
		m.status = "Kept room " + mdrender.Inline(c.room.Name) + "."
	}
	return nil
}

// onTrashed reports the delete and reads the list again.
func (m *Model) onTrashed(msg trashedMsg) tea.Cmd {
	name := mdrender.Inline(msg.name)
	if msg.err != nil {
		m.status = fmt.Sprintf("Could not delete room %s: %s", name, mdrender.Inline(msg.err.Error()))
		return nil
	}
	where := msg.path
	if rel, err := filepath.Rel(m.opts.Cwd, msg.path); err == nil && !strings.HasPrefix(rel, "..") {
		where = rel
	}
	m.trashed = append(m.trashed, trashedRoom{name: msg.name, path: msg.path})
	m.status = fmt.Sprintf("Deleted room %s (moved to %s): u restores it.", name, mdrender.Inline(where))
	return listCmd(m.id, m.opts.Cwd, m.opts.Now)
}

// confirmLines are the status line and the line under it while a delete
// waits for its answer: the question, naming the room, then what would be
// lost (a connected seat, an open debate) or the keys.
func (m *Model) confirmLines() (question, detail string, warn bool) {
	c := m.confirm
	name := mdrender.Inline(c.room.Name)
	if !c.checked {
		return fmt.Sprintf("Delete room %s? Checking its seats…", name), "", false
	}
	question = fmt.Sprintf("Delete room %s? y/n", name)
	var warnings []string
	for _, s := range c.live {
		who := "the " + mdrender.Inline(s.Seat) + " seat"
		if s.Agent != "" {
			who += " (" + mdrender.Inline(s.Agent) + ")"
		}
		warnings = append(warnings, fmt.Sprintf("%s is still connected (%s): its agent would lose the room", who, mdrender.Inline(s.State)))
	}
	if c.err != "" {
		warnings = append(warnings, "its server.log cannot be read: "+c.err)
	}
	if c.room.Mode == ModeDebate && !c.room.Closed {
		warnings = append(warnings, "the debate is still open: it may still be running")
	}
	if len(warnings) > 0 {
		w := strings.Join(warnings, "; ")
		return question, "⚠ " + strings.ToUpper(w[:1]) + w[1:] + ".", true
	}
	return question, "y moves it to .roundtable/.trash (restorable), n keeps it.", false
}
