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

// changedHands reports whether the seat si is held now by another process
// than st, the one the app started for it: its failure is old news.
func changedHands(si room.SeatInfo, st seatproc.Status) bool {
	live := si.State != room.StateDisconnected && si.State != room.StateAbsent
	return !st.Running && live && si.PID > 0 && si.PID != st.PID
}

// clearStaleFailure drops the status line saying that the seat process
// the app started exited, once the seat has changed hands.
func (m *Model) clearStaleFailure() {
	for _, si := range m.seats {
		if st, ok := m.procs[si.Seat]; ok && st.Failed() && changedHands(si, st) && strings.HasPrefix(m.status, staleFailure(si.Seat)) {
			m.setStatus("", true)
		}
	}
}

// staleFailure starts the status line of a seat process that failed.
func staleFailure(seat string) string { return "the " + seat + " seat roundtable played exited: " }

// refreshProcs reads what the app knows of the room's seat processes: an
// in-memory look-up, no I/O.
func (m *Model) refreshProcs() {
	if m.opts.Seats == nil {
		return
	}
	for _, seat := range m.seatOrder() {
		if st, ok := m.opts.Seats.Lookup(m.opts.Room, seat); ok {
			if m.procs == nil {
				m.procs = map[string]seatproc.Status{}
			}
			m.procs[seat] = st
		}
	}
}

// procState is the state of a seat whose process the app started and
// which has not connected, or which failed: "" when server.log says more,
// or when the seat has changed hands since (someone else holds it now).
func (m *Model) procState(si room.SeatInfo) string {
	st, ok := m.procs[si.Seat]
	if !ok || changedHands(si, st) {
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
