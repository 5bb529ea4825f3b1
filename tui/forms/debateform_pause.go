package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The "pause between rounds" option of the new-debate form (issue 14):
// when on, the debate waits for the person after each round (enter goes
// on, i speaks to the panel), so they can steer it.

// pauseKey flips the option: space.
func (f *DebateForm) pauseKey(msg tea.KeyPressMsg) bool {
	if key.Matches(msg, f.keys.Toggle) {
		f.pause = !f.pause
		return true
	}
	return false
}

// pauseRow is the option's line.
func (f DebateForm) pauseRow() string {
	s := &f.styles
	box := s.Uncheck.Render("[ ]")
	if f.pause {
		box = s.Check.Render("[x]")
	}
	return f.inline(fieldPause, "Pause", box+" "+s.Value.Render("pause between rounds"), "wait for you after each round: enter goes on, i speaks to the panel")
}
