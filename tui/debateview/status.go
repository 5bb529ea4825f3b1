package debateview

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// ProgramStatus is what the screen tells the terminal about the debate it
// runs (OSC 7501, through View.ProgramStatus; terminals without support
// ignore it): working while the panel speaks, waiting on the user when
// the debate is paused for them, done when the verdict is in, failed on a
// failure. A debate another process runs, or a replay, tells nothing:
// nothing here waits on this user.
func (m Model) ProgramStatus() *tea.ProgramStatus {
	if m.launch == nil {
		return nil // a replay, or a room run elsewhere
	}
	st := &tea.ProgramStatus{App: "roundtable", Title: "debate"}
	switch {
	case m.note.paused > 0:
		st.State, st.Kind = tea.ProgramStateBlocked, tea.ProgramStatusKindQuestion
		st.Message = fmt.Sprintf("Paused after round %d: enter to go on, i to speak", m.note.paused)
	case m.phase == phaseStarting, m.phase == phaseRunning, m.phase == phaseWeighing:
		st.State = tea.ProgramStateWorking
	case m.phase == phaseDone:
		st.State, st.Message = tea.ProgramStateDone, "the verdict is in"
	case m.phase == phaseFailed:
		st.State, st.Message = tea.ProgramStateError, "the debate failed; R goes on from the turn that did not finish"
	default:
		return nil
	}
	return st
}
