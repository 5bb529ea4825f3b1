package debateview

import (
	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
	"github.com/roundtable-dev/roundtable/tui/theme"
)

// verdictPane is the moderator's verdict: waited for, written, or failed.
type verdictPane struct {
	seat    theme.Seat
	waiting bool // the moderator is writing it
	text    string
	err     string
	retry   *debate.Event // the moderator's request is being retried (a retry event)
	// activity is what the moderator's coding agent did last, shown
	// while the verdict is awaited; "" for none.
	activity string
	// grow is the verdict as it streams (token events outside any
	// persona's column), until the summary brings it whole; nil before
	// its first token.
	grow *mdrender.Growing
	// ranks is the personas' peer ranking (rank.go), whose table heads
	// the pane.
	ranks ranks

	body   []string // the verdict (or what stands for it) at w
	lines  []string // what the pane shows: the ranking's table, then body
	w      int
	exact  bool
	scroll scroller

	gen    int // counts changes to lines
	box    []string
	boxKey boxKey
}

// shown reports whether the verdict has a pane on screen.
func (v *verdictPane) shown() bool {
	return v.waiting || v.text != "" || v.err != "" || len(v.ranks.given) > 0
}
