package debateview

import (
	"strings"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
	"github.com/roundtable-dev/roundtable/tui/theme"
)

// turn is one persona's turn in one round.
type turn struct {
	round      int
	text       string // the whole text (set at turn end; the growing text before)
	streaming  bool
	incomplete bool
	note       bool   // a person's note, drawn as a band (interject.go)
	from       string // note: who wrote it

	head  string   // the round line, fit to w
	body  []string // rendered lines, each fit to w
	w     int      // the width head and body were made for
	exact bool     // body is the finished Glamour render at w
}

// lines is the turn's height on screen: the round line, the body, a gap.
func (t *turn) lines() int { return len(t.body) + 2 }

// column is one persona: its turns, the one growing now, its scroll.
type column struct {
	name  string // as the engine names it
	label string // safe to show on one line
	seat  theme.Seat

	turns    []*turn
	grow     *mdrender.Growing // the turn being spoken; nil otherwise
	speaking bool
	thinking bool          // speaking, nothing said yet
	retry    *debate.Event // the provider is retrying this turn (a retry event); nil: not
	activity string        // what its coding agent did last ("⚙ reading room/store.go"), one line; "" for none
	err      string

	scroll scroller
	w      int      // inner width
	blank  string   // an empty line of width w
	tail   []string // lines after the turns: waiting, thinking, an error
	lens   []int    // height of each turn, then of the tail
	total  int

	// gen counts changes to the column's lines; the frame drawn last is
	// kept with what it was drawn from, and drawn again only when that
	// changes.
	gen    int
	box    []string
	boxKey boxKey
}

// boxKey is everything a column's or the verdict's frame is drawn from.
type boxKey struct {
	w, h, top, total, gen  int
	border                 lipglossID
	frame                  int // the spinner frame, when one is shown
	focused, several, dark bool
	note                   int    // lines below
	find                   int    // the search marks' generation (search.go)
	usageForm              int    // the form of the usage in titles (usage.go)
	stance                 string // the persona's stance, in its title (render.go)
}

// lipglossID tells the frame's border styles apart.
type lipglossID int

const (
	borderIdle lipglossID = iota
	borderFocus
	borderSeat
)

func newColumn(name string, seat theme.Seat) *column {
	return &column{name: name, label: mdrender.Inline(name), seat: seat, scroll: newScroller()}
}

// current is the turn being spoken, nil when none: the last turn, or the
// last before the notes given while it was spoken.
func (c *column) current() *turn {
	for i := len(c.turns) - 1; i >= 0; i-- {
		if t := c.turns[i]; !t.note {
			if t.streaming {
				return t
			}
			return nil
		}
	}
	return nil
}

// measure recounts the column's height after a turn or the tail changed.
func (c *column) measure() {
	c.lens = c.lens[:0]
	c.total = 0
	for _, t := range c.turns {
		c.lens = append(c.lens, t.lines())
		c.total += t.lines()
	}
	c.lens = append(c.lens, len(c.tail))
	c.total += len(c.tail)
}

// window appends the h lines from the scroll position to dst, blank lines
// past the end.
func (c *column) window(dst []string, h int) []string {
	top := c.scroll.top
	blank := c.blank
	i := 0 // index of the first line of the current segment
	for _, t := range c.turns {
		n := t.lines()
		if top >= i+n {
			i += n
			continue
		}
		for k := max(top-i, 0); k < n && h > 0; k++ {
			switch {
			case k == 0:
				dst = append(dst, t.head)
			case k <= len(t.body):
				dst = append(dst, t.body[k-1])
			default:
				dst = append(dst, blank)
			}
			h--
		}
		i += n
		if h == 0 {
			return dst
		}
	}
	for k := max(top-i, 0); k < len(c.tail) && h > 0; k++ {
		dst = append(dst, c.tail[k])
		h--
	}
	for ; h > 0; h-- {
		dst = append(dst, blank)
	}
	return dst
}

// plainWrap is the stand-in render of a finished text until its Glamour
// render is ready: sanitized, wrapped, fit to w. It runs in Update, so it
// wraps in one pass (mdrender.Wrap): cells.Wrap's cost grows faster than a
// long line's length.
func plainWrap(text string, w int) []string {
	return fitLines(mdrender.Wrap(strings.TrimSpace(text), w), w)
}
