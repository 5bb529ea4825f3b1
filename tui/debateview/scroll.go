package debateview

// scroller is a pane's scroll position. A pane follows its newest text
// until the user scrolls up, and follows again once scrolled back to the
// bottom.
type scroller struct {
	top    int
	follow bool
}

func newScroller() scroller { return scroller{follow: true} }

// settle keeps the position inside total lines shown h at a time, at the
// bottom while following.
func (s *scroller) settle(total, h int) {
	bottom := max(total-h, 0)
	if s.follow {
		s.top = bottom
	}
	s.top = clamp(s.top, 0, bottom)
}

// by scrolls n lines (negative: up).
func (s *scroller) by(n, total, h int) {
	bottom := max(total-h, 0)
	s.top = clamp(s.top+n, 0, bottom)
	s.follow = s.top >= bottom
}

// toTop jumps to the first line.
func (s *scroller) toTop() { s.top, s.follow = 0, false }

// below is how many lines lie under the visible ones.
func (s scroller) below(total, h int) int { return max(total-h-s.top, 0) }

// anchor is a scroll position that survives a reflow: the segment (a turn)
// the top line falls in and how far into it, as a fraction.
type anchor struct {
	seg  int
	frac float64
}

// anchorOf finds the anchor of line top among segments of the given
// lengths.
func anchorOf(lens []int, top int) anchor {
	start := 0
	for i, n := range lens {
		if top < start+n {
			return anchor{seg: i, frac: float64(top-start) / float64(n)}
		}
		start += n
	}
	if len(lens) == 0 {
		return anchor{}
	}
	return anchor{seg: len(lens), frac: 0}
}

// lineOf is the line an anchor points at among segments of the given
// (new) lengths.
func lineOf(lens []int, a anchor) int {
	start := 0
	for i, n := range lens {
		if i == a.seg {
			return start + int(a.frac*float64(n)+0.5)
		}
		start += n
	}
	return start
}
