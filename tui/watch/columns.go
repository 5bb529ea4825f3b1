package watch

import (
	"slices"
	"strings"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// A council's body, while the screen follows the room, is its seats side
// by side: one column per seat, each its own posts and draft, newest at
// the bottom. When the seats do not all fit the width, a compact list of
// the seats (whose turn it is, who writes, who passed, how many posts)
// stands beside one column: the seat writing now, else the seat whose
// turn it is. Scrolling back, a search, or v shows the one feed of every
// message instead (list.go), where everything the screen does with
// messages works the same for any seat; f or v comes back.

// Layout of the columns.
const (
	// minSeatColumn is the narrowest a seat's column is drawn side by
	// side with the others.
	minSeatColumn = 28
	// seatGap is the space between two columns.
	seatGap = 1
	// seatListMin and seatListMax bound the compact list of seats.
	seatListMin, seatListMax = 16, 28
	// columnHead is the rows a column's title and rule take.
	columnHead = 2
)

// allColumnsFit reports whether n seat columns fit side by side in width.
func allColumnsFit(width, n int) bool {
	return n > 0 && n*minSeatColumn+(n-1)*seatGap <= width
}

// columnWidths divides width among k columns separated by gap (cells.Columns).
func columnWidths(width, k, gap int) []int { return cells.Columns(width, k, gap) }

// seatListWidth is the compact list's width for seat names up to nameW
// cells wide, in a screen width wide: the name, a marker and a status.
func seatListWidth(nameW, width int) int {
	return min(max(nameW+12, seatListMin), seatListMax, max(width/3, 1))
}

// councilCols holds the columns' lists: each seat's own items out of the
// screen's list, rendered at the column's width and cached there.
type councilCols struct {
	feed  bool                // v: the one feed rather than the columns
	lists map[string]*msgList // by seat
	posts map[string]int      // posts per seat
	sig   [3]int              // the list's counts they were made from
	width int                 // the column width they are rendered at
}

// showColumns reports whether the body is the council's columns now.
func (m *Model) showColumns() bool {
	return m.council() && m.phase == phaseLive && !m.showSpec && !m.cols.feed &&
		m.list.follow && (m.find == nil || !m.find.st.Active())
}

// columnWidth is the width each seat's column is drawn at: all seats side
// by side, or the one column beside the compact list.
func (m *Model) columnWidth() int {
	order := m.seatOrder()
	if allColumnsFit(m.width, len(order)) {
		// The narrowest: text wraps the same in every column, each
		// padded to its own width.
		return columnWidths(m.width, len(order), seatGap)[len(order)-1]
	}
	return max(m.width-m.compactListWidth()-3, 1) // " │ " between them
}

func (m *Model) compactListWidth() int {
	nameW := 4
	for _, seat := range m.seatOrder() {
		nameW = max(nameW, xansi.StringWidth(mdrender.Inline(seat)))
	}
	return seatListWidth(nameW, m.width)
}

// syncColumns brings each seat's list to the screen's list: its messages
// and its draft, at width w.
func (m *Model) syncColumns(w int) {
	c := &m.cols
	l := m.list
	sig := [3]int{l.msgs, len(l.items), l.gen}
	if c.lists != nil && c.sig == sig && c.width == w {
		return
	}
	if c.lists == nil || c.width != w {
		c.lists = map[string]*msgList{}
	}
	c.sig, c.width = sig, w
	c.posts = map[string]int{}
	prev := map[string]int{} // the round each column is in
	for _, seat := range m.seatOrder() {
		sub, ok := c.lists[seat]
		if !ok {
			sub = newList(m.sess, l.loc)
			c.lists[seat] = sub
		}
		if sub.styles.Dark != l.styles.Dark {
			sub.invalidate()
		}
		sub.styles, sub.cfg, sub.looks, sub.multiDay = l.styles, l.cfg, l.looks, l.multiDay
		sub.setWidth(w)
		sub.items = sub.items[:0]
		sub.follow = true
	}
	round := 0
	for _, it := range l.items {
		switch it.kind {
		case kindMessage:
			if it.msg.Seat == room.SeatLead {
				round++
			}
			sub := c.lists[it.msg.Seat]
			if sub == nil {
				continue // a stranger's post: the feed shows it
			}
			// Each column opens each round with its rule, as the lead's
			// post opens it in the feed.
			it.round = 0
			if prev[it.msg.Seat] != round {
				it.round, prev[it.msg.Seat] = round, round
			}
			sub.items = append(sub.items, it)
			c.posts[it.msg.Seat]++
		case kindDraft:
			if sub := c.lists[it.draft.Seat]; sub != nil {
				delete(sub.lines, it.key) // a draft's text moves on
				sub.items = append(sub.items, it)
			}
		case kindSkipped, kindVerdict, kindNote:
			// The feed shows them: they are nobody's seat's.
		}
	}
	for _, sub := range c.lists {
		sub.base = len(sub.items)
	}
}

// seatStatus is a seat's word in its column's title and in the compact
// list: writing, its turn, passed, or how many posts it made.
func (m *Model) seatStatus(seat string, passed []string) string {
	s := m.styles
	for i := range m.list.drafts {
		if m.list.drafts[i].Seat == seat {
			return s.Text.Render("writing…")
		}
	}
	switch {
	case m.st.Closed == nil && m.st.Turn == seat:
		return s.Strong.Render("▶ turn")
	case slices.Contains(passed, seat):
		return s.Muted.Render("passed")
	}
	return s.Faint.Render(plural(m.cols.posts[seat], "post"))
}

// columnsBody draws the council's seats in h rows.
func (m *Model) columnsBody(h int) []string {
	order := m.seatOrder()
	w := m.columnWidth()
	m.syncColumns(w)
	passed := passedSeats(m.st)
	if allColumnsFit(m.width, len(order)) {
		widths := columnWidths(m.width, len(order), seatGap)
		cols := make([][]string, len(order))
		for i, seat := range order {
			cols[i] = m.seatColumn(seat, widths[i], h, passed)
		}
		return joinColumns(cols, strings.Repeat(" ", seatGap), h)
	}
	listW := m.compactListWidth()
	shown := m.speaker()
	sep := m.styles.Faint.Render("│")
	left := m.seatList(order, shown, listW, h, passed)
	right := m.seatColumn(shown, w, h, passed)
	return joinColumns([][]string{left, right}, " "+sep+" ", h)
}

// seatColumn is one seat's column, w wide and h high: its name and status,
// a rule in its colour, then the bottom of its posts.
func (m *Model) seatColumn(seat string, w, h int, passed []string) []string {
	look := m.list.look(seat)
	out := make([]string, 0, h)
	out = append(out, cells.Fit(fitLR(look.name, m.seatStatus(seat, passed), w), w))
	out = append(out, look.border.Render(strings.Repeat("─", w)))
	sub := m.cols.lists[seat]
	var lines []string
	if sub != nil && len(sub.items) > 0 {
		lines = sub.window(max(h-columnHead, 0))
	} else {
		lines = []string{m.styles.Faint.Render("no posts yet")}
	}
	out = append(out, lines...)
	return fitLinesTo(out, w, h)
}

// fitLinesTo makes lines exactly h rows of exactly w cells.
func fitLinesTo(lines []string, w, h int) []string {
	lines = fitHeight(lines, h)
	for i, l := range lines {
		lines[i] = cells.Fit(l, w)
	}
	return lines
}

// seatList is the compact list of a council's seats, w wide and h high:
// the seat shown beside it marked.
func (m *Model) seatList(order []string, shown string, w, h int, passed []string) []string {
	s := m.styles
	out := make([]string, 0, h)
	out = append(out, cells.Fit(s.Muted.Render("seats"), w), s.Rule.Render(strings.Repeat("─", w)))
	for _, seat := range order {
		mark := "  "
		if seat == shown {
			mark = s.Strong.Render("▸ ")
		}
		out = append(out, cells.Fit(fitLR(mark+m.list.look(seat).name, m.seatStatus(seat, passed), w), w))
	}
	out = append(out, "")
	for _, l := range splitLines(cells.Wrap("v shows every message in one feed", w)) {
		out = append(out, s.Faint.Render(l))
	}
	return fitLinesTo(out, w, h)
}

// joinColumns sets columns of lines side by side, sep between them, in h
// rows; a column short of h rows is padded with blanks of its width.
func joinColumns(cols [][]string, sep string, h int) []string {
	out := make([]string, h)
	for r := range h {
		var b strings.Builder
		for i, c := range cols {
			if i > 0 {
				b.WriteString(sep)
			}
			switch {
			case r < len(c):
				b.WriteString(c[r])
			case len(c) > 0:
				b.WriteString(strings.Repeat(" ", xansi.StringWidth(c[0])))
			}
		}
		out[r] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// storeColumnWidth tells the background reads the width a council's
// columns wrap text to, so new messages are rendered there ahead of
// Update; 0 for a room of two seats.
func (m *Model) storeColumnWidth() {
	w := 0
	if m.council() && m.width > 0 {
		w = max(m.columnWidth()-2, mdrender.MinWidth)
	}
	m.sess.colWidth.Store(int64(w))
}

// syncColumnsKey enables v in a council and words it for what it shows
// next.
func (m *Model) syncColumnsKey() {
	k := &m.keys.Columns
	k.SetEnabled(m.council() && m.phase == phaseLive && !m.showSpec)
	if m.showColumns() {
		k.SetHelp("v", "one feed")
	} else {
		k.SetHelp("v", "columns")
	}
}

// toggleColumns is v: from the columns to the feed, or back to the
// columns, following the room again.
func (m *Model) toggleColumns() {
	if m.showColumns() {
		m.cols.feed = true
		return
	}
	m.cols.feed = false
	m.list.toBottom()
}
