package debateview

import (
	"cmp"
	"slices"

	"github.com/roundtable-dev/roundtable/tui/internal/search"
)

// The find reaches two things the finished turns leave out: the person's
// notes and the turn being streamed.
//
// A note is a band in every column; it is one text of the index (made from
// the first column's band), placed in speaking order after the turns spoken
// before it, and shown in the focused column when that shows it.
//
// The turn being streamed is a live text: it joins the index when it
// starts and grows with what the column draws. It is fed when the column's
// lines change (the grow tick renders at most about thirty times a
// second), and only the text added since the last feed is read. When the
// turn ends its finished text replaces the live one in the same place, so
// the matches found while it streamed keep their number and the index is
// what a fresh search of the transcript would build.

// spoken orders the index's texts as they were spoken: by round, then by
// column (personas speak in column order), a note after the turn it
// followed.
type spoken struct{ round, pane, after int }

func (a spoken) cmp(b spoken) int {
	return cmp.Or(cmp.Compare(a.round, b.round), cmp.Compare(a.pane, b.pane), cmp.Compare(a.after, b.after))
}

// liveTurn is a turn being streamed, text Doc of the index.
type liveTurn struct {
	col  int
	t    *turn
	gen  int // the column's lines fed last
	text *search.Live
}

// findDocAt is what turn k of column ci is in the index.
func (m *Model) findDocAt(ci, k int) findDoc {
	t := m.cols[ci].turns[k]
	if !t.note {
		return findDoc{pane: ci, t: t, note: -1, order: spoken{t.round, ci, 0}}
	}
	j := 0 // which of the column's notes it is
	for _, u := range m.cols[ci].turns[:k] {
		if u.note {
			j++
		}
	}
	// After the latest turn spoken before it in any column.
	order := spoken{0, -1, 1}
	for c := range m.cols {
		ti := noteIndex(m.cols[c], j)
		for p := ti - 1; p >= 0; p-- {
			if u := m.cols[c].turns[p]; !u.note {
				if o := (spoken{u.round, c, 1}); o.cmp(order) > 0 {
					order = o
				}
				break
			}
		}
	}
	return findDoc{pane: ci, t: t, note: j, order: order}
}

// noteIndex is the index in c's turns of its j-th note, -1 when it has
// not as many.
func noteIndex(c *column, j int) int {
	for i, t := range c.turns {
		if t.note {
			if j == 0 {
				return i
			}
			j--
		}
	}
	return -1
}

// feedLive brings the live texts up to what their columns draw, and puts
// the finished text in place of a turn that ended. It reports whether the
// index changed.
func (m *Model) feedLive() bool {
	f := m.find
	changed := false
	keep := f.live[:0]
	for _, lt := range f.live {
		if !lt.t.streaming {
			f.st.Index.Set(lt.text.Doc, search.Plain(lt.t.text))
			changed = true
			continue
		}
		keep = append(keep, lt)
		c := m.cols[lt.col]
		if c.gen == lt.gen || c.grow == nil || c.current() != lt.t {
			continue
		}
		keep[len(keep)-1].gen = c.gen
		changed = lt.text.Feed(&f.st.Index, c.grow.Text()) || changed
	}
	f.live = keep
	return changed
}

// docTurn is where text doc is drawn: its pane and the turn's index in
// the column's turns. A note is drawn in the focused column when that
// shows it, else in the first.
func (m *Model) docTurn(d findDoc) (pane, ti int) {
	if d.note < 0 {
		return d.pane, slices.Index(m.cols[d.pane].turns, d.t)
	}
	if m.focus < len(m.cols) {
		if ti := noteIndex(m.cols[m.focus], d.note); ti >= 0 {
			return m.focus, ti
		}
	}
	return d.pane, slices.Index(m.cols[d.pane].turns, d.t)
}

// docOf is the text of turn ti of column ci, -1 when it is not indexed.
func (m *Model) docOf(ci, ti int) int {
	f := m.find
	t := m.cols[ci].turns[ti]
	j := -1
	if t.note {
		j = 0
		for _, u := range m.cols[ci].turns[:ti] {
			if u.note {
				j++
			}
		}
	}
	for i, d := range f.docs {
		if d.t == t || j >= 0 && d.note == j {
			return i
		}
	}
	return -1
}
