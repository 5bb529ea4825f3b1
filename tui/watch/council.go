package watch

import (
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// A council is an MCP room whose seats are not the default lead and peer
// (room.json lists them under "seats": more than two, or two of other
// names, such as lead and critic). The screen shows it as a room of lead
// and peer is shown, and more: the turn order in the header with the
// seats that passed, its seats by number, and the seats side by side in
// columns while it follows the room (columns.go). A room of lead and peer
// is drawn exactly as before.

// council reports an MCP room whose seats are not lead and peer.
func (m *Model) council() bool { return isCouncil(m.cfg) }

func isCouncil(cfg room.Config) bool { return cfg.IsCouncil() }

// seatOrder is the room's seats in turn order: the lead first.
func (m *Model) seatOrder() []string { return m.cfg.Seats() }

// passedSeats is the seats that passed in the current round, in turn
// order: the store's list (room.State.Passed), the one place the screen
// learns of passes.
func passedSeats(st room.State) []string { return st.Passed }

// speaker is the seat the compact layout shows a column of: the seat
// writing now (the newest draft of a seat of the room), else the seat
// whose turn it is, else the lead.
func (m *Model) speaker() string {
	seats := m.seatOrder()
	var newest *room.Draft
	for i := range m.list.drafts {
		d := &m.list.drafts[i]
		if !slices.Contains(seats, d.Seat) {
			continue
		}
		if newest == nil || d.StartedAt.After(newest.StartedAt) {
			newest = d
		}
	}
	switch {
	case newest != nil:
		return newest.Seat
	case m.st.Closed == nil && slices.Contains(seats, m.st.Turn):
		return m.st.Turn
	}
	return room.SeatLead
}

// councilSeats is the seats' lines of a council: every seat of the room
// in turn order, with what server.log says of it (absent when nothing).
func (m *Model) councilSeats() []room.SeatInfo {
	seats := m.seatOrder()
	out := make([]room.SeatInfo, 0, len(seats))
	for _, seat := range seats {
		si := room.SeatInfo{Seat: seat, State: room.StateAbsent}
		for _, s := range m.seats {
			if s.Seat == seat {
				si = s
			}
		}
		out = append(out, si)
	}
	return out
}

// waitsFor is whom a seat that is not on turn waits for, as the seat lines
// word it: the other seat of a two-seat room, its turn in a council.
func (m *Model) waitsFor(seat string) string {
	if m.council() {
		return "its turn"
	}
	return "the " + otherSeatName(seat)
}

// kindsFor is the kinds the composer offers a seat, its default first:
// the lead's, or the peer's for any other seat; a council seat may also
// pass its turn.
func (m *Model) kindsFor(seat string) []string {
	if seat == room.SeatLead {
		return m.leadKinds()
	}
	if m.council() {
		return append(slices.Clone(room.PeerKinds), room.KindPass)
	}
	return room.PeerKinds
}

// leadKinds is the lead's kinds, the one its turn most likely wants
// first: the brief opens the room, a challenge answers the seats, and the
// decision comes in the last round the budget leaves.
func (m *Model) leadKinds() []string {
	first := "brief"
	switch {
	case len(m.st.Messages) == 0:
	case m.cfg.Budget > 0 && m.st.Round+1 >= m.cfg.Budget:
		first = "decision"
	default:
		first = "challenge"
	}
	// The brief comes last once the room has begun: the composer suggests
	// the second kind, and a second brief is rarely what is meant.
	kinds := []string{first}
	for _, k := range room.LeadKinds {
		if k != first && k != "brief" {
			kinds = append(kinds, k)
		}
	}
	if first != "brief" {
		kinds = append(kinds, "brief")
	}
	return kinds
}

// seatChoices words the keys that take each free seat: l and p in a
// two-seat room, the seat's number in its turn order in a council.
func (m *Model) seatChoices(free []string) string {
	if !m.council() {
		return "l the lead · p the peer"
	}
	order := m.seatOrder()
	parts := make([]string, 0, len(free))
	for _, seat := range free {
		parts = append(parts, strconv.Itoa(slices.Index(order, seat)+1)+" "+mdrender.Inline(seat))
	}
	return strings.Join(parts, " · ")
}

// chosenSeat is the seat a key chooses after t: l or p in a two-seat room,
// a seat's number in a council; "" for none.
func (m *Model) chosenSeat(k string) string {
	if !m.council() {
		switch k {
		case "l":
			return room.SeatLead
		case "p":
			return room.SeatPeer
		}
		return ""
	}
	n, err := strconv.Atoi(k)
	order := m.seatOrder()
	if err != nil || n < 1 || n > len(order) {
		return ""
	}
	return order[n-1]
}

// orderLines is a council's turn order under the room's line: "order ▶lead
// → critic → security (passed) → …", the seat whose turn it is marked
// while the room is open, each seat that passed this round said so.
func (m *Model) orderLines(w int) []string {
	s := m.styles
	passed := passedSeats(m.st)
	order := m.seatOrder()
	segs := make([]string, 0, len(order))
	for i, seat := range order {
		seg := m.list.look(seat).name
		if m.st.Closed == nil && seat == m.st.Turn {
			seg = s.Strong.Render("▶") + seg
		}
		if slices.Contains(passed, seat) {
			seg += s.Muted.Render(" (passed)")
		}
		if i == 0 {
			seg = s.Muted.Render("order ") + seg
		}
		segs = append(segs, seg)
	}
	return wrapSegments(segs, s.Faint.Render(" → "), w)
}

// seatsWord names a room's seats as a whole: "both seats", or "the 5
// seats" of a council.
func (m *Model) seatsWord() string { return seatsWord(m.cfg) }

func seatsWord(cfg room.Config) string {
	if isCouncil(cfg) {
		return "the " + strconv.Itoa(len(cfg.Seats())) + " seats"
	}
	return "both seats"
}
