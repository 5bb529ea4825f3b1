package debateview

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/tui/internal/cells"
)

// layout is where things are on screen, as last prepared: for View and for
// the mouse.
type layout struct {
	narrow    bool
	widths    []int // outer width of each box shown side by side
	xs        []int // its first column
	panes     []int // the pane each box shows
	colTop    int
	colRows   int
	panelTop  int
	panelRows int
	tabsRow   int // -1: no tabs
	tabXs     [][2]int
}

// refresh lays the screen out for its size and state and prepares what
// View joins; it asks for the renders it is missing.
func (m *Model) refresh() tea.Cmd {
	w, h := max(m.width, 20), max(m.height, 8)
	n := len(m.cols)
	if m.focus >= m.panes() {
		m.focus = max(m.panes()-1, 0)
	}
	hasVerdict := m.verdict.shown()
	l := layout{narrow: w < narrowWidth, tabsRow: -1}
	k := visibleColumns(w, n)
	tabbed := k < n || (l.narrow && hasVerdict)

	m.footer = m.footerLines(w)
	top := headerRows
	if tabbed {
		l.tabsRow = top
		top++
	}
	body := max(h-top-len(m.footer)-m.composerLines(w), 3)
	l.colTop, l.colRows = top, body
	if hasVerdict && !l.narrow {
		want := m.layoutVerdict(w - frameWidth)
		l.colRows, l.panelRows = splitBody(body, want)
		l.panelTop = top + l.colRows
	}

	// The panes shown side by side.
	switch {
	case l.narrow && m.focus == n && hasVerdict:
		l.panes = []int{n}
	case n == 0:
		l.panes = nil
	default:
		focusCol := m.focus
		if focusCol >= n {
			focusCol = m.winStart
		}
		m.winStart = windowStart(m.winStart, focusCol, k, n)
		for i := m.winStart; i < m.winStart+k; i++ {
			l.panes = append(l.panes, i)
		}
	}
	l.widths = splitWidths(w, len(l.panes), columnGap)
	x := 0
	for _, cw := range l.widths {
		l.xs = append(l.xs, x)
		x += cw + columnGap
	}

	if len(m.boxes) != len(l.panes) {
		m.boxes = make([][]string, len(l.panes))
	}
	// One form of the usage for every column title on screen (the
	// shortest any of them needs), so two columns never show the same
	// figures two ways ("370 in · 97 out" beside "514/148").
	m.usageForm = 0
	for i, p := range l.panes {
		if p != n {
			m.usageForm = max(m.usageForm, m.usageFormFor(m.cols[p], l.widths[i]-5))
		}
	}
	for i, p := range l.panes {
		if p == n {
			m.boxes[i] = m.verdictBox(l.widths[i], l.colRows)
			continue
		}
		m.boxes[i] = m.columnBox(p, l.widths[i], l.colRows, len(l.panes) > 1)
	}
	m.panel = nil
	if l.panelRows > 0 {
		m.panel = m.verdictBox(w, l.panelRows)
	}
	m.header = m.headerLines(w)
	m.tabs = ""
	if tabbed {
		m.tabs, l.tabXs = m.tabStrip(w, l.panes)
	}
	m.lay = l
	return m.renderMissing()
}

// columnBox lays out column p at outer width w and height h and draws it,
// or hands back the frame drawn last when nothing it shows changed.
func (m *Model) columnBox(p, w, h int, several bool) []string {
	c := m.cols[p]
	rows := max(h-2, 1)
	m.layoutColumn(c, w-frameWidth, rows)

	focused := p == m.focus
	key := boxKey{
		w: w, h: h, top: c.scroll.top, total: c.total, gen: c.gen,
		focused: focused, several: several, dark: m.styles.Dark,
		note: c.scroll.below(c.total, rows), find: m.findGen(), usageForm: m.usageForm,
		stance: m.stance(c.name),
	}
	border := m.styles.IdleBorder
	switch {
	case c.speaking:
		border, key.border, key.frame = c.seat.Bar, borderSeat, m.frame
	case focused:
		border, key.border = m.styles.FocusBorder, borderFocus
	}
	if key == c.boxKey && c.box != nil {
		return c.box
	}
	title := c.seat.Name.Render(c.label)
	titleW := ansi.StringWidth(c.label)
	if st := key.stance; st != "" && titleW+3+len(st) <= w-5 {
		// The stance the persona argues (a persona file's, or --stances).
		title += m.styles.Muted.Render(" · " + st)
		titleW += 3 + len(st)
	}
	if c.speaking {
		title = m.styles.Spinner.Render(spin.Frames[m.frame]) + title
		titleW += ansi.StringWidth(spin.Frames[m.frame])
	}
	if focused && several {
		title = m.styles.Strong.Render("› ") + title
		titleW += 2
	}
	title, titleW = m.withRetry(title, titleW, c.retry, w-5)
	title, titleW = m.withUsage(c, title, titleW, w-5)
	note, noteW := "", 0
	if key.note > 0 {
		s := fmt.Sprintf(" ↓ %d more ", key.note)
		note, noteW = m.styles.Muted.Render(s), ansi.StringWidth(s)
	}
	lines := m.markColumn(p, c.window(make([]string, 0, rows), rows))
	c.box = frame(c.box, border, title, titleW, note, noteW, lines, w, h)
	c.boxKey = key
	return c.box
}

// layoutColumn brings column c to inner width w: its turns rendered (from
// the cache, or a stand-in until the render is ready), its tail, its
// scroll kept where the reader left it.
func (m *Model) layoutColumn(c *column, w, rows int) {
	w = max(w, 1)
	resized := c.w != w
	// Where the reader is, as a place in the text rather than a line
	// number: a reflow or a finished render changes the line numbers.
	a := anchorOf(c.lens, c.scroll.top)
	if resized {
		c.w = w
		c.blank = strings.Repeat(" ", w)
		if c.grow != nil {
			c.grow.SetWidth(w)
			c.grow.Flush()
		}
	}
	changed := resized
	for _, t := range c.turns {
		changed = m.layoutTurn(c, t) || changed
	}
	tail := m.columnTail(c, nil)
	if !slices.Equal(tail, c.tail) {
		c.tail = tail
		changed = true
	}
	if changed {
		c.gen++
	}
	c.measure()
	if !c.scroll.follow && len(c.lens) > 0 {
		c.scroll.top = lineOf(c.lens, a)
	}
	c.scroll.settle(c.total, rows)
}

// layoutTurn prepares a turn's lines at its column's width and reports
// whether they changed.
func (m *Model) layoutTurn(c *column, t *turn) bool {
	if t.note {
		return m.layoutNote(c, t)
	}
	w := c.w
	if t.w == w && t.head != "" && (t.exact || t.streaming) {
		return false
	}
	if t.w != w || t.head == "" {
		t.head = m.roundLine(t, w)
	}
	switch {
	case t.streaming:
		if c.grow != nil {
			t.body = fitLines(c.grow.View(), w)
		}
	default:
		if out, ok := m.md.Cached(t.text, w); ok {
			t.body, t.exact = fitLines(out, w), true
		} else if t.w != w || t.body == nil {
			t.body, t.exact = plainWrap(t.text, w), false
		} else {
			return false // still waiting for the render
		}
	}
	t.w = w
	return true
}

// roundLine is the rule above a turn: "── Round 2 ──────".
func (m *Model) roundLine(t *turn, w int) string {
	label := fmt.Sprintf("Round %d", t.round)
	if t.incomplete {
		label += " · cut off"
	}
	s := frameH + frameH + " " + label + " "
	s += strings.Repeat(frameH, max(w-ansi.StringWidth(s), 0))
	return cells.Fit(m.styles.Faint.Render(cells.Truncate(s, w)), w)
}

// columnTail is what follows a column's turns: the speaker thinking, a
// persona waiting for its first turn, an error.
func (m *Model) columnTail(c *column, dst []string) []string {
	w := c.w
	switch {
	case c.thinking:
		dst = append(dst, cells.Fit(m.styles.Spinner.Render(spin.Frames[m.frame])+m.styles.Muted.Render("thinking…"), w))
	case len(c.turns) == 0 && c.err == "" && (m.phase == phaseRunning || m.phase == phaseStarting):
		dst = append(dst, cells.Fit(m.styles.Note.Render("Waiting for its turn."), w))
	}
	if c.activity != "" {
		// The latest thing its agent did, dim, on one line.
		dst = append(dst, cells.Fit(m.styles.Faint.Render(cells.Truncate(c.activity, w)), w))
	}
	if c.err != "" {
		for _, l := range strings.Split(cells.Wrap("⚠ "+c.err, w), "\n") {
			dst = append(dst, cells.Fit(m.styles.Error.Render(l), w))
		}
	}
	return dst
}

// layoutVerdict prepares the verdict's lines at inner width w and returns
// how many there are.
func (m *Model) layoutVerdict(w int) int {
	v := &m.verdict
	w = max(w, 1)
	gen := v.gen
	switch {
	case v.waiting && v.grow != nil && v.grow.View() != "":
		// The verdict as it streams.
		if v.grow.Width() != w {
			v.grow.SetWidth(w)
			v.grow.Flush()
		}
		v.body = fitLines(v.grow.View(), w)
		v.w, v.exact = 0, false
		v.gen++
	case v.waiting:
		msg := "The moderator is reading the whole debate and writing the verdict…"
		if v.ranking() {
			msg = v.rankingMessage()
		}
		v.body = v.body[:0]
		for i, l := range strings.Split(cells.Wrap(msg, max(w-2, 1)), "\n") {
			prefix := "  "
			if i == 0 {
				prefix = m.styles.Spinner.Render(spin.Frames[m.frame])
			}
			v.body = append(v.body, cells.Fit(prefix+m.styles.Muted.Render(l), w))
		}
		if v.activity != "" {
			v.body = append(v.body, cells.Fit("  "+m.styles.Faint.Render(cells.Truncate(v.activity, max(w-2, 1))), w))
		}
		v.w, v.exact = 0, false
		v.gen++
	case v.err != "" && v.text == "":
		v.body = v.body[:0]
		for _, l := range strings.Split(cells.Wrap("⚠ The verdict failed: "+v.err, w), "\n") {
			v.body = append(v.body, cells.Fit(m.styles.Error.Render(l), w))
		}
		v.w, v.exact = 0, false
		v.gen++
	case v.text == "":
		// Rankings, and no verdict: a debate stopped while ranking.
		v.body = v.body[:0]
	case v.w != w || !v.exact:
		if out, ok := m.md.Cached(v.text, w); ok {
			v.body, v.exact = fitLines(out, w), true
			v.gen++
		} else if v.w != w || v.body == nil {
			v.body, v.exact = plainWrap(v.text, w), false
			v.gen++
		}
		v.w = w
	}
	table := m.rankLines(w)
	switch {
	case len(table) == 0:
		v.lines = v.body
	case v.gen != gen || len(v.lines) != len(table)+len(v.body):
		v.lines = append(append(make([]string, 0, len(table)+len(v.body)), table...), v.body...)
	}
	return len(v.lines)
}

// verdictBox draws the verdict panel at outer width w and height h, or
// hands back the frame drawn last when nothing it shows changed.
func (m *Model) verdictBox(w, h int) []string {
	v := &m.verdict
	rows := max(h-2, 1)
	m.layoutVerdict(w - frameWidth)
	v.scroll.settle(len(v.lines), rows)
	key := boxKey{w: w, h: h, top: v.scroll.top, total: len(v.lines), gen: v.gen, dark: m.styles.Dark, note: v.scroll.below(len(v.lines), rows), find: m.findGen()}
	if v.waiting {
		key.frame = m.frame
	}
	if key == v.boxKey && v.box != nil {
		return v.box
	}
	label := "Moderator's verdict"
	title := v.seat.Name.Render(label)
	titleW := ansi.StringWidth(label)
	if v.waiting {
		title = m.styles.Spinner.Render(spin.Frames[m.frame]) + title
		titleW += ansi.StringWidth(spin.Frames[m.frame])
	}
	title, titleW = m.withRetry(title, titleW, v.retry, w-5)
	note, noteW := "", 0
	if key.note > 0 {
		s := fmt.Sprintf(" ↓ %d more ", key.note)
		note, noteW = m.styles.Muted.Render(s), ansi.StringWidth(s)
	}
	blank := strings.Repeat(" ", max(w-frameWidth, 0))
	lines := make([]string, 0, rows)
	for i := v.scroll.top; i < len(v.lines) && len(lines) < rows; i++ {
		lines = append(lines, v.lines[i])
	}
	for len(lines) < rows {
		lines = append(lines, blank)
	}
	lines = m.markVerdict(v.scroll.top, lines)
	v.box = frame(v.box, v.seat.Bar, title, titleW, note, noteW, lines, w, h)
	v.boxKey = key
	return v.box
}

// renderMissing asks for the Glamour renders of finished texts that are
// shown with a stand-in, one batch at a time. Only panes on screen count:
// the others are laid out, and ask, when they are shown.
func (m *Model) renderMissing() tea.Cmd {
	if m.rendering {
		return nil
	}
	var jobs []renderJob
	for _, p := range m.lay.panes {
		if p >= len(m.cols) {
			continue
		}
		c := m.cols[p]
		for _, t := range c.turns {
			if !t.streaming && !t.exact && t.w == c.w {
				jobs = append(jobs, renderJob{text: t.text, width: c.w})
			}
		}
	}
	if v := &m.verdict; v.text != "" && !v.exact && v.w > 0 {
		jobs = append(jobs, renderJob{text: v.text, width: v.w})
	}
	if len(jobs) == 0 {
		return nil
	}
	m.rendering = true
	m.renderGen++
	return renderCmd(m.id, m.renderGen, m.md, jobs)
}

// stance is the stance persona name argues, as its room records it (a
// persona file's stance, or one --stances gave); "" for none.
func (m *Model) stance(name string) string {
	if m.room == nil {
		return ""
	}
	return m.room.Config().StanceOf(name)
}
