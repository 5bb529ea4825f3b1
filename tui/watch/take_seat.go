package watch

import "github.com/roundtable-dev/roundtable/room"

// personState words the state of a seat a person plays: whose turn it is,
// and "you" on the screen that plays it.
func (m *Model) personState(si room.SeatInfo) string {
	s := m.styles
	var txt string
	switch {
	case m.st.Closed != nil:
		txt = s.Muted.Render("at the keyboard")
	case m.st.Turn == si.Seat:
		txt = s.Text.Render("at the keyboard") + s.Muted.Render(", its turn to write")
	default:
		txt = s.Success.Render("at the keyboard") + s.Muted.Render(", waiting for "+m.waitsFor(si.Seat))
	}
	if p := m.take.person; p != nil && p.Seat() == si.Seat {
		txt += s.Strong.Render(" · you")
	}
	return txt
}
