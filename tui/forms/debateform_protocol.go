package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The protocol of the new-debate form: the peer protocols a debate may
// follow, on one line, ←/→ going through them: none, stances
// (the personas without a stance of their own argue for, against and
// neutral in turn), rank (after the last round each persona ranks the
// others' final turns, unlabelled, and the moderator reads the rankings)
// and both.

// protocols are the choices, in order: the stances and rank options each
// sets, its name and what it means.
var protocols = []struct {
	stances, rank bool
	name, hint    string
}{
	{false, false, "open debate", "the personas argue from their roles"},
	{true, false, "stances", "the personas argue for, against and neutral in turn"},
	{false, true, "peer ranking", "each persona ranks the others' last turns before the verdict"},
	{true, true, "stances + ranking", "assigned stances, then the peer ranking"},
}

// protocol is the index of the form's choice in protocols.
func (f DebateForm) protocol() int {
	for i, p := range protocols {
		if p.stances == f.stances && p.rank == f.rank {
			return i
		}
	}
	return 0
}

// protocolKey moves the choice: ← back, → on.
func (f *DebateForm) protocolKey(msg tea.KeyPressMsg) bool {
	n, i := len(protocols), f.protocol()
	switch {
	case key.Matches(msg, f.keys.Less):
		i = (i + n - 1) % n
	case key.Matches(msg, f.keys.More):
		i = (i + 1) % n
	default:
		return false
	}
	f.stances, f.rank = protocols[i].stances, protocols[i].rank
	return true
}

// protocolRow is the choice's line.
func (f DebateForm) protocolRow() string {
	s := &f.styles
	p := protocols[f.protocol()]
	value := s.Arrow.Render("◂ ") + s.Value.Render(p.name) + s.Arrow.Render(" ▸")
	return f.inline(fieldProtocol, "Protocol", value, p.hint)
}
