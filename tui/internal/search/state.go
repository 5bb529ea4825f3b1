package search

import (
	"fmt"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// State is a screen's find: its index, the prompt being typed, the query's
// matches and the current one. The screen fills the index, hands it the
// keys while Typing, and moves its view to Current after each change.
type State struct {
	Index Index

	typing bool
	input  string
	res    *Result
	cur    int // the current match; -1: none
	origin int // the text the view was at when the prompt opened
	gen    int
}

// Outcome is what a key did to the prompt.
type Outcome int

const (
	// Edited means the query changed; the current match may have moved.
	Edited Outcome = iota
	// Accepted means enter closed the prompt, keeping the query and its
	// marks.
	Accepted
	// Cancelled means esc closed the prompt and cleared the search; the screen
	// goes back to where it was.
	Cancelled
	// Ignored means the key does nothing in the prompt.
	Ignored
)

// Typing reports whether the prompt is open: it takes every key but
// ctrl+c.
func (s *State) Typing() bool { return s.typing }

// Active reports whether there is a query to show: being typed, or kept.
func (s *State) Active() bool { return s.typing || s.input != "" }

// Query is the query as typed.
func (s *State) Query() string { return s.input }

// Gen changes whenever what the marks show changes (the query, the current
// match), so a screen can keep drawn frames until it does.
func (s *State) Gen() int { return s.gen }

// Result is the current search; nil before the first keystroke.
func (s *State) Result() *Result { return s.res }

// Total is the number of matches.
func (s *State) Total() int { return s.res.Total() }

// Open opens the prompt on an empty query; origin is the text the view is
// at, where the search starts.
func (s *State) Open(origin int) {
	s.typing, s.input, s.res, s.cur, s.origin = true, "", nil, -1, origin
	s.gen++
}

// Clear ends the search.
func (s *State) Clear() {
	s.typing, s.input, s.res, s.cur = false, "", nil, -1
	s.gen++
}

// Key edits the prompt: text types, backspace erases, ctrl+u and ctrl+w
// erase the line and the last word, enter accepts, esc cancels.
func (s *State) Key(msg tea.KeyPressMsg) Outcome {
	switch msg.String() {
	case "enter":
		s.typing = false
		if s.input == "" {
			s.Clear()
		}
		s.gen++
		return Accepted
	case "esc":
		s.Clear()
		return Cancelled
	case "backspace", "ctrl+h":
		if s.input == "" {
			return Ignored
		}
		_, n := utf8.DecodeLastRuneInString(s.input)
		s.input = s.input[:len(s.input)-n]
	case "ctrl+u":
		s.input = ""
	case "ctrl+w":
		s.input = trimWord(s.input)
	default:
		if msg.Text == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return Ignored
		}
		s.input += msg.Text
	}
	s.search()
	return Edited
}

// trimWord drops the last word of s and the spaces after it.
func trimWord(s string) string {
	i := len(s)
	for i > 0 && s[i-1] == ' ' {
		i--
	}
	for i > 0 && s[i-1] != ' ' {
		i--
	}
	return s[:i]
}

// search runs the query again from the origin.
func (s *State) search() {
	s.res = s.Index.Find(s.input, s.res)
	s.cur = s.res.From(s.origin)
	s.gen++
}

// Refresh searches again after the index changed (new messages), keeping
// the current match on the same text where it can.
func (s *State) Refresh() {
	if s.input == "" || s.res == nil || s.res.ver == s.Index.ver {
		return
	}
	doc, nth := -1, 0
	if s.cur >= 0 {
		doc, nth = s.res.Locate(s.cur)
	}
	s.res = s.Index.Find(s.input, s.res)
	switch {
	case s.res.Total() == 0:
		s.cur = -1
	case doc >= 0:
		s.cur = s.res.From(doc)
		if s.cur >= 0 && nth < s.res.InDoc(doc) {
			if d, _ := s.res.Locate(s.cur); d == doc {
				s.cur += nth
			}
		}
	default:
		s.cur = s.res.From(s.origin)
	}
	// The marks are drawn from the query and where the current match is:
	// matches counted elsewhere (a turn streaming in) redraw nothing.
	if d, n := s.at(); d != doc || n != nth {
		s.gen++
	}
}

// at is the current match's text and which match of it it is; -1, 0
// when there is none.
func (s *State) at() (doc, nth int) {
	if s.cur < 0 || s.res.Total() == 0 {
		return -1, 0
	}
	return s.res.Locate(s.cur)
}

// Step moves to the next match (d > 0) or the previous one, wrapping
// round; it reports whether there is one.
func (s *State) Step(d int) bool {
	t := s.Total()
	if t == 0 {
		return false
	}
	if s.cur < 0 {
		s.cur = 0
	} else {
		s.cur = ((s.cur+d)%t + t) % t
	}
	s.gen++
	return true
}

// Current is where the current match is: its text, which match in that
// text it is, and its byte offset in the text.
func (s *State) Current() (doc, nth, off int, ok bool) {
	if s.cur < 0 || s.res.Total() == 0 {
		return -1, 0, -1, false
	}
	doc, nth = s.res.Locate(s.cur)
	return doc, nth, s.Index.Offset(doc, nth, s.res), true
}

// Status is the line the screen shows while searching: the prompt with
// its cursor while typing, then the query and "k/N matches".
func (s *State) Status() string {
	q := "/" + s.input
	if s.typing {
		q += "█"
	}
	switch {
	case s.input == "":
		return q + " · type to search · enter keeps · esc clears"
	case s.Total() == 0:
		return q + " · no matches · esc clears"
	case s.typing:
		return fmt.Sprintf("%s · %d/%d matches · enter keeps · esc clears", q, s.cur+1, s.Total())
	}
	return fmt.Sprintf("%s · %d/%d matches · n next · N previous · esc clears", q, s.cur+1, s.Total())
}
