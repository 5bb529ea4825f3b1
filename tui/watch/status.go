package watch

import (
	tea "charm.land/bubbletea/v2"
)

// ProgramStatus is what the screen tells the terminal (OSC 7501, through
// View.ProgramStatus; terminals without support ignore it): waiting on the
// user while the seat they play is due to post, nothing otherwise.
func (m Model) ProgramStatus() *tea.ProgramStatus {
	if !m.myTurn() {
		return nil
	}
	return &tea.ProgramStatus{
		App: "roundtable", Title: "watch", State: tea.ProgramStateBlocked, Kind: tea.ProgramStatusKindQuestion,
		Message: "your turn: the " + m.take.person.Seat() + " seat of room " + m.opts.Room,
	}
}
