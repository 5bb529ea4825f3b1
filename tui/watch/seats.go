package watch

import (
	"fmt"
	"slices"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// seatState words a seat's state plainly, with how long it has been in it.
// The durations come from m.now, which the screen's tick moves, so they
// count up with no read of server.log. A closed room's screen does not
// tick: it gives the clock time instead, which never goes stale.
func (m *Model) seatState(si room.SeatInfo) string {
	s := m.styles
	dur := ""
	if !si.Since.IsZero() {
		dur = formatDuration(m.now.Sub(si.Since))
		if m.st.Closed != nil {
			dur = "since " + m.clock(si.Since)
		}
	}
	ago := func(prefix string) string {
		if si.Since.IsZero() {
			return ""
		}
		return s.Faint.Render(prefix + m.ago(si.Since))
	}
	tool := mdrender.Inline(si.LastTool)
	// lastCall says what a thinking seat has called since its wait
	// returned, if anything.
	lastCall := func() string {
		if tool == "" || tool == room.WaitTool || si.LastAt.IsZero() || si.LastAt.Before(si.Since) {
			return ""
		}
		return s.Muted.Render(", then " + tool + " " + m.ago(si.LastAt))
	}
	switch si.State {
	case room.StateNotStarted:
		return s.Warning.Render("connected but never started: it has not been given its brief") + ago(" · ")
	case room.StateParked:
		return s.Success.Render(withDur("parked", dur)) + s.Muted.Render(", listening for "+m.waitsFor(si.Seat))
	case room.StateThinking:
		return m.thinkingState(si, dur) + lastCall()
	case room.StateActive:
		return s.Text.Render("working") + s.Muted.Render(", last tool "+tool) + s.Faint.Render(" · "+m.ago(si.LastAt))
	case room.StateAtKeyboard:
		return m.personState(si)
	case room.StateDisconnected:
		txt := s.Muted.Render("disconnected")
		if tool != "" {
			txt += s.Muted.Render(", last tool " + tool)
		}
		return txt + ago(" · ")
	default:
		return s.Faint.Render("not connected yet")
	}
}

// thinkingState is a seat out of its wait, by why the wait returned.
func (m *Model) thinkingState(si room.SeatInfo, dur string) string {
	s := m.styles
	switch si.WaitReturn {
	case room.WaitIdle:
		return s.Warning.Render(withDur("thinking", dur)) + s.Muted.Render(" since its wait timed out; it has not waited again")
	case room.WaitClosed:
		if si.Since.IsZero() {
			return s.Muted.Render("told the room closed")
		}
		return s.Muted.Render("told the room closed · " + m.ago(si.Since))
	case room.WaitCancelled:
		return s.Warning.Render(withDur("not listening", dur)) + s.Muted.Render(": its client cancelled the wait")
	case room.WaitNote:
		return s.Text.Render(withDur("thinking", dur)) + s.Muted.Render(" since its wait returned your note")
	case room.WaitFailed:
		return s.Warning.Render(withDur("thinking", dur)) + s.Muted.Render(" since its wait failed to read the room")
	default:
		return s.Text.Render(withDur("thinking", dur)) + s.Muted.Render(" since its wait returned a message")
	}
}

// ago is how long ago t was ("4m05s ago") while the room is open, and
// the clock time ("at 09:37:12") once it is closed.
func (m *Model) ago(t time.Time) string {
	if m.st.Closed != nil {
		return "at " + m.clock(t)
	}
	return formatDuration(m.now.Sub(t)) + " ago"
}

// clock is t on the clock: its time of day, with its date when not today.
func (m *Model) clock(t time.Time) string {
	t, now := t.Local(), m.now.Local()
	if y, mo, d := t.Date(); y != now.Year() || mo != now.Month() || d != now.Day() {
		return t.Format("Jan 2 15:04:05")
	}
	return t.Format("15:04:05")
}

// withDur is "word · 4m05s", or the word alone when the time is unknown.
func withDur(word, dur string) string {
	if dur == "" {
		return word
	}
	return word + " · " + dur
}

// otherSeatName is whom a seat waits for.
func otherSeatName(seat string) string {
	if seat == room.SeatLead {
		return room.SeatPeer
	}
	return room.SeatLead
}

// seatsGone reports an open MCP room whose seats (lead and peer, or every
// seat of a council) have all disconnected: nobody is left to carry it on.
func (m *Model) seatsGone() bool {
	if m.phase != phaseLive || m.cfg.IsDebate() || m.st.Closed != nil {
		return false
	}
	seats := m.seatOrder()
	gone := 0
	for _, si := range m.seats {
		if slices.Contains(seats, si.Seat) && si.State == room.StateDisconnected {
			gone++
		}
	}
	return gone == len(seats)
}

// seatsGoneText is the banner of such a room: what happened and how to go
// on.
func (m *Model) seatsGoneText() string {
	name := mdrender.Inline(m.opts.Room)
	if m.council() {
		return fmt.Sprintf("ALL %d SEATS HAVE DISCONNECTED · the room is still open · restart the agents "+
			"(their roundtable entries for room %s, one per seat) and ask each to carry on; "+
			"the transcript is kept", len(m.seatOrder()), name)
	}
	return fmt.Sprintf("BOTH SEATS HAVE DISCONNECTED · the room is still open · restart both agents "+
		"(their roundtable entries for room %s, lead and peer) and ask each to carry on; "+
		"the transcript is kept", name)
}
