package watch

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// playedPrefix starts the agent label of a seat roundtable plays
// (`roundtable seat`), in its server.log connect line:
// "roundtable:openai/gpt-4o-mini", "roundtable:acp:codex".
const playedPrefix = "roundtable:"

// whoFills words who holds a seat, from its connect line's agent label:
// "an agent over MCP (claude-code)", "roundtable · model
// openai/gpt-4o-mini", "roundtable · acp:codex". A seat the app started
// that has not connected yet is named from what it was started with.
func whoFills(si room.SeatInfo, proc seatproc.Status, started bool) string {
	if !si.Connected() || si.Agent == "" && started {
		if started {
			return "roundtable · " + mdrender.Inline(proc.Mind)
		}
		return "—"
	}
	if si.Agent == room.PersonAgent {
		return room.PersonLabel
	}
	if rest, ok := strings.CutPrefix(si.Agent, playedPrefix); ok {
		rest = mdrender.Inline(rest)
		if strings.HasPrefix(rest, "acp:") {
			return "roundtable · " + rest
		}
		return "roundtable · model " + rest
	}
	if a := mdrender.Inline(si.Agent); a != "" {
		return "an agent over MCP (" + a + ")"
	}
	return "an agent over MCP"
}

// refreshProcs reads what the app knows of the room's seat processes: an
// in-memory look-up, no I/O.
func (m *Model) refreshProcs() {
	if m.opts.Seats == nil {
		return
	}
	for _, seat := range []string{room.SeatLead, room.SeatPeer} {
		if st, ok := m.opts.Seats.Lookup(m.opts.Room, seat); ok {
			if m.procs == nil {
				m.procs = map[string]seatproc.Status{}
			}
			m.procs[seat] = st
		}
	}
}

// procState is the state of a seat whose process the app started and
// which has not connected, or which failed: "" when server.log says more.
func (m *Model) procState(si room.SeatInfo) string {
	st, ok := m.procs[si.Seat]
	if !ok {
		return ""
	}
	s := m.styles
	switch {
	case st.Failed():
		line := st.LastLine
		if line == "" {
			line = st.Err.Error()
		}
		log := st.Log
		if rel, err := filepath.Rel(m.cwd, log); err == nil && !strings.HasPrefix(rel, "..") {
			log = rel
		}
		return s.Warning.Render("its roundtable seat exited: "+mdrender.Inline(line)) + s.Muted.Render(" (log: "+mdrender.Inline(log)+")")
	case st.Running && !si.Connected():
		return s.Muted.Render("starting (pid " + strconv.Itoa(st.PID) + ")")
	}
	return ""
}
