package debateview

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/tui/internal/palette"
	"github.com/roundtable-dev/roundtable/tui/internal/search"
)

// finder is the debate screen's find (/, n, N): an index of the turns,
// the person's notes and the verdict, in the order they were spoken (the
// turn being streamed grows in it as it is drawn), built on the first /
// and kept up to date as the debate goes.
type finder struct {
	st    search.State
	marks search.Marks
	dark  bool
	built bool
	run   int

	docs    []findDoc
	done    [][]*turn  // per column, the turns indexed
	live    []liveTurn // the turns being streamed, indexed as they grow
	verdict int        // the verdict's text; -1: none yet
	vtext   string     // the verdict as indexed

	saved  findView // where the view was when the prompt opened, for esc
	status string   // the status line the find wrote last

	pal palette.Model // the command palette (ctrl+p)
}

// findDoc is what text i of the index is: a turn of a column, a note
// (the first column's band; note is its number among the column's notes,
// -1 for a turn), or the verdict (t nil).
type findDoc struct {
	pane  int
	t     *turn
	note  int
	order spoken
}

// findView is where the screen was looking.
type findView struct {
	focus     int
	autoFocus bool
	cols      []scroller
	verdict   scroller
}

func (m *Model) finder() *finder {
	if m.find == nil {
		m.find = &finder{verdict: -1}
	}
	return m.find
}

// findGen changes whenever the marks change, for the frames' cache keys.
func (m *Model) findGen() int {
	if m.find == nil {
		return 0
	}
	return m.find.st.Gen()
}

// syncFind indexes the turns that ended and enables n and N; called from
// syncKeys.
func (m *Model) syncFind() {
	f := m.finder()
	if f.built && m.indexTurns() {
		f.st.Refresh()
		if f.st.Active() && m.status == f.status {
			m.findStatus()
		}
	}
	if f.st.Typing() && m.status != f.status {
		m.findStatus() // the prompt stays in view while it is typed in
	}
	k := &m.keys
	kept := f.st.Active() && !f.st.Typing()
	k.NextMatch.SetEnabled(kept && f.st.Total() > 0)
	k.PrevMatch.SetEnabled(kept && f.st.Total() > 0)
	k.Search.SetEnabled(len(m.cols) > 0 || m.verdict.text != "")
	if kept {
		k.Stop.SetEnabled(true)
		k.Stop.SetHelp("esc", "clear search")
	}
}

// indexTurns adds the turns spoken since the last call, in speaking
// order: a note once (it is one thing the person said, though every column
// shows it), the turn being streamed as a live text that grows with it
// (search_live.go), and the verdict; it starts over after a run again. It
// reports whether the index changed.
func (m *Model) indexTurns() bool {
	f := m.finder()
	if f.run != m.run || !f.consistent(m) {
		f.st.Index.Reset()
		f.docs, f.done, f.verdict, f.vtext, f.run, f.live = nil, nil, -1, "", m.run, nil
	}
	changed := false
	var fresh []findDoc
	for ci, c := range m.cols {
		if ci >= len(f.done) {
			f.done = append(f.done, nil)
		}
		for k := len(f.done[ci]); k < len(c.turns); k++ {
			t := c.turns[k]
			f.done[ci] = append(f.done[ci], t)
			if t.note && ci > 0 {
				continue // indexed from the first column
			}
			fresh = append(fresh, m.findDocAt(ci, k))
		}
	}
	slices.SortStableFunc(fresh, func(a, b findDoc) int { return a.order.cmp(b.order) })
	for _, d := range fresh {
		if d.t.streaming {
			f.live = append(f.live, liveTurn{col: d.pane, t: d.t, gen: -1, text: search.NewLive(&f.st.Index)})
		} else {
			f.st.Index.Add(search.Plain(d.t.text))
		}
		f.docs = append(f.docs, d)
		changed = true
	}
	changed = m.feedLive() || changed
	if v := m.verdict.text; v != "" && v != f.vtext {
		if f.verdict < 0 {
			f.verdict = f.st.Index.Add(search.Plain(v))
			f.docs = append(f.docs, findDoc{pane: -1, note: -1})
		} else {
			f.st.Index.Set(f.verdict, search.Plain(v))
		}
		f.vtext, changed = v, true
	}
	f.built = true
	return changed
}

// consistent reports whether the turns indexed are still the columns'.
func (f *finder) consistent(m *Model) bool {
	if len(f.done) > len(m.cols) {
		return false
	}
	for ci, ts := range f.done {
		c := m.cols[ci]
		if len(ts) > len(c.turns) || len(ts) > 0 && c.turns[len(ts)-1] != ts[len(ts)-1] {
			return false
		}
	}
	return true
}

// findKey handles the keys of the find and of the palette: every key but
// ctrl+c while the prompt or the palette is open; ctrl+p; /, n, N, and esc
// while a search is shown. ok is false for the keys it leaves to the
// screen.
func (m *Model) findKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	f := m.finder()
	k := m.keys
	if f.st.Typing() {
		if key.Matches(msg, k.ForceQuit) {
			return nil, false
		}
		switch f.st.Key(msg) {
		case search.Cancelled:
			m.restoreView(f.saved)
			m.setStatus("")
			return nil, true
		case search.Ignored:
			return nil, true
		case search.Edited, search.Accepted:
		}
		m.findStatus()
		return m.revealMatch(), true
	}
	if cmd, ok := f.pal.HandleKey(msg, k.Palette, k, m.styles.Dark); ok {
		return cmd, true
	}
	switch {
	case key.Matches(msg, k.Search) && k.Search.Enabled():
		m.indexTurns()
		f.saved = m.saveView()
		f.st.Open(m.originDoc())
		m.findStatus()
		return nil, true
	case key.Matches(msg, k.NextMatch, k.PrevMatch) && k.NextMatch.Enabled():
		d := 1
		if key.Matches(msg, k.PrevMatch) {
			d = -1
		}
		f.st.Step(d)
		m.findStatus()
		return m.revealMatch(), true
	case msg.String() == "esc" && f.st.Active():
		f.st.Clear()
		m.setStatus("")
		return nil, true
	}
	return nil, false
}

func (m *Model) findStatus() {
	f := m.finder()
	m.setStatus(f.st.Status())
	f.status = m.status
}

// originDoc is the text the focused pane shows at its top, where a search
// starts.
func (m *Model) originDoc() int {
	f := m.finder()
	if m.focus >= len(m.cols) {
		if f.verdict >= 0 {
			return f.verdict
		}
		return 0
	}
	c := m.cols[m.focus]
	seg := anchorOf(c.lens, c.scroll.top).seg
	if seg >= len(c.turns) {
		seg = len(c.turns) - 1
	}
	if seg < 0 {
		return 0
	}
	return max(m.docOf(m.focus, seg), 0)
}

func (m *Model) saveView() findView {
	v := findView{focus: m.focus, autoFocus: m.autoFocus, verdict: m.verdict.scroll}
	for _, c := range m.cols {
		v.cols = append(v.cols, c.scroll)
	}
	return v
}

func (m *Model) restoreView(v findView) {
	m.focus, m.autoFocus, m.verdict.scroll = v.focus, v.autoFocus, v.verdict
	for i, s := range v.cols {
		if i < len(m.cols) {
			m.cols[i].scroll = s
		}
	}
}

// currentMatch is where the current match is drawn: its pane, its turn's
// index in the column (-1 for the verdict), the line of the turn's body (or
// the verdict's lines) and which match of that line it is (-1: not told
// apart).
func (m *Model) currentMatch() (pane, ti, line, occ int, ok bool) {
	f := m.find
	if f == nil {
		return 0, 0, 0, 0, false
	}
	doc, nth, off, ok := f.st.Current()
	if !ok || doc >= len(f.docs) {
		return 0, 0, 0, 0, false
	}
	frac := 0.0
	if n := f.st.Index.DocLen(doc); n > 0 {
		frac = float64(off) / float64(n)
	}
	res := f.st.Result()
	d := f.docs[doc]
	if d.t == nil {
		line, occ = search.Place(m.verdict.lines, res.Query(), nth, res.InDoc(doc), frac)
		return len(m.cols), -1, line, occ, true
	}
	pane, ti = m.docTurn(d)
	if ti < 0 {
		return 0, 0, 0, 0, false
	}
	line, occ = search.Place(m.cols[pane].turns[ti].body, res.Query(), nth, res.InDoc(doc), frac)
	return pane, ti, line, occ, true
}

// revealMatch focuses the pane of the current match and scrolls it there,
// a third of the way down.
func (m *Model) revealMatch() tea.Cmd {
	f := m.finder()
	doc, _, _, ok := f.st.Current()
	if !ok || doc >= len(f.docs) {
		return nil
	}
	pane := len(m.cols)
	if d := f.docs[doc]; d.t != nil {
		pane, _ = m.docTurn(d)
	}
	m.focus, m.autoFocus = pane, false
	cmd := m.refresh() // lays the pane out at the width it is shown at
	pane, ti, line, _, ok := m.currentMatch()
	if !ok {
		return cmd
	}
	rows := m.paneRows()
	if ti < 0 {
		v := &m.verdict
		v.scroll.top, v.scroll.follow = clamp(line-rows/3, 0, max(len(v.lines)-rows, 0)), false
		return cmd
	}
	c := m.cols[pane]
	at := 1 + line // the round line comes first
	for _, n := range c.lens[:min(ti, len(c.lens))] {
		at += n
	}
	c.scroll.top, c.scroll.follow = clamp(at-rows/3, 0, max(c.total-rows, 0)), false
	return cmd
}

// markColumn draws the matches in the lines of column p in view (those of
// its turns' bodies).
func (m *Model) markColumn(p int, lines []string) []string {
	q, marks, ok := m.findMarks()
	if !ok {
		return lines
	}
	cp, cti, cline, cocc, cur := m.currentMatch()
	c := m.cols[p]
	row, start := 0, 0
	top := c.scroll.top
	for ti, t := range c.turns {
		n := t.lines()
		if top >= start+n {
			start += n
			continue
		}
		for k := max(top-start, 0); k < n && row < len(lines); k++ {
			if k >= 1 && k <= len(t.body) {
				occ := -1
				if cur && cp == p && cti == ti && cline == k-1 {
					occ = cocc
				}
				lines[row] = search.Mark(lines[row], q, occ, marks)
			}
			row++
		}
		start += n
		if row >= len(lines) {
			break
		}
	}
	return lines
}

// markVerdict draws the matches in the verdict's lines in view, from its
// line top.
func (m *Model) markVerdict(top int, lines []string) []string {
	q, marks, ok := m.findMarks()
	if !ok {
		return lines
	}
	cp, _, cline, cocc, cur := m.currentMatch()
	for i := range lines {
		occ := -1
		if cur && cp == len(m.cols) && cline == top+i {
			occ = cocc
		}
		lines[i] = search.Mark(lines[i], q, occ, marks)
	}
	return lines
}

// findMarks is the query to mark and the marks' looks; ok is false when
// nothing is to be marked.
func (m *Model) findMarks() (string, search.Marks, bool) {
	f := m.find
	if f == nil || !f.st.Active() || f.st.Result().Query() == "" {
		return "", search.Marks{}, false
	}
	if f.dark != m.styles.Dark || f.marks.Match == "" {
		f.marks, f.dark = search.NewMarks(m.styles.Dark), m.styles.Dark
	}
	return f.st.Result().Query(), f.marks, true
}

// overlay draws the palette, when open, over the screen's view.
func (m Model) overlay(view string) string {
	if m.find == nil {
		return view
	}
	return m.find.pal.Overlay(view, m.width, m.height)
}
