package watch

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/tui/internal/palette"
	"github.com/roundtable-dev/roundtable/tui/internal/search"
)

// finder is the watch screen's find (/, n, N): an index of the room's
// messages and notes, text i being list item i, built on the first / and
// kept up to date as messages land.
type finder struct {
	st    search.State
	marks search.Marks
	dark  bool
	built bool
	keys  []string // the item key each text was made from
	msgs  int      // the list's counts when last indexed
	skips int

	// Where the view was when the prompt opened, for esc.
	savedTop    pos
	savedFollow bool
	status      string // the status line the find wrote last

	pal palette.Model // the command palette (ctrl+p)
}

// finder returns the screen's find, making it the first time.
func (m *Model) finder() *finder {
	if m.find == nil {
		m.find = &finder{}
	}
	return m.find
}

// syncFind indexes new messages and enables n and N; called from syncKeys.
func (m *Model) syncFind() {
	f := m.finder()
	if f.built && (m.list.msgs != f.msgs || m.list.skips != f.skips || len(f.keys) != m.list.base) {
		m.indexItems()
		f.st.Refresh()
		if f.st.Active() && m.status == f.status {
			m.findStatus() // the new count; the view stays where the reader is
		}
	}
	if f.st.Typing() && m.status != f.status {
		m.findStatus() // the prompt stays in view while it is typed in
	}
	active := f.st.Active() && !f.st.Typing() && m.phase == phaseLive && !m.showSpec
	m.keys.NextMatch.SetEnabled(active && f.st.Total() > 0)
	m.keys.PrevMatch.SetEnabled(active && f.st.Total() > 0)
	m.keys.Search.SetEnabled(m.phase == phaseLive && !m.showSpec)
	if f.st.Active() && !f.st.Typing() && !m.showSpec {
		m.keys.Back.SetEnabled(true)
		m.keys.Back.SetHelp("esc", "clear search")
	} else {
		m.keys.Back.SetHelp("esc", "back")
	}
}

// indexItems brings the index to the list's items: text i is item i's
// message or note (empty for a warning), made again only where the item changed.
func (m *Model) indexItems() {
	f := m.finder()
	l := m.list
	for i := 0; i < l.base; i++ {
		it := &l.items[i]
		if i < len(f.keys) && f.keys[i] == it.key {
			continue
		}
		text := ""
		switch {
		case it.msg != nil:
			text = search.Plain(it.msg.Text)
		case it.note != nil:
			text = search.Plain(it.note.Text) // a steering note, found where its band is
		}
		f.st.Index.Set(i, text)
		if i < len(f.keys) {
			f.keys[i] = it.key
		} else {
			f.keys = append(f.keys, it.key)
		}
	}
	f.st.Index.Truncate(l.base)
	f.keys = f.keys[:l.base]
	f.msgs, f.skips, f.built = l.msgs, l.skips, true
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
			m.list.top, m.list.follow = f.savedTop, f.savedFollow
			m.setStatus("", true)
			return nil, true
		case search.Ignored:
			return nil, true
		case search.Edited, search.Accepted:
		}
		m.locateMatch()
		m.findStatus()
		return nil, true
	}
	if cmd, ok := f.pal.HandleKey(msg, k.Palette, k, m.styles.Dark); ok {
		return cmd, true
	}
	switch {
	case key.Matches(msg, k.Search) && k.Search.Enabled():
		if !f.built {
			m.indexItems()
		}
		f.savedTop, f.savedFollow = m.list.top, m.list.follow
		f.st.Open(m.list.top.item)
		m.findStatus()
		return nil, true
	case key.Matches(msg, k.NextMatch, k.PrevMatch) && k.NextMatch.Enabled():
		d := 1
		if key.Matches(msg, k.PrevMatch) {
			d = -1
		}
		f.st.Step(d)
		m.locateMatch()
		m.findStatus()
		return nil, true
	case msg.String() == "esc" && f.st.Active() && !m.showSpec:
		f.st.Clear()
		m.setStatus("", true)
		return nil, true
	}
	return nil, false
}

// findStatus shows the find's line in the status.
func (m *Model) findStatus() {
	f := m.finder()
	m.setStatus(f.st.Status(), true)
	f.status = m.status
}

// placeMatch is where the current match is drawn: its item, the line of
// the item and which match of the line it is (-1: not told apart).
func (m *Model) placeMatch() (item, line, occ int, ok bool) {
	f := m.finder()
	doc, nth, off, ok := f.st.Current()
	if !ok || doc >= m.list.base {
		return 0, 0, 0, false
	}
	lines := m.list.itemLines(doc)
	frac := 0.0
	if n := f.st.Index.DocLen(doc); n > 0 {
		frac = float64(off) / float64(n)
	}
	res := f.st.Result()
	line, occ = search.Place(lines, res.Query(), nth, res.InDoc(doc), frac)
	return doc, line, occ, true
}

// locateMatch scrolls the list to the current match, a third of the way
// down the view.
func (m *Model) locateMatch() {
	item, line, _, ok := m.placeMatch()
	if !ok {
		return
	}
	h := m.bodyHeight()
	m.list.follow = false
	m.list.top = pos{item, line}
	m.list.scroll(-h/3, h)
	m.list.follow = false
}

// markBody draws the matches in the lines of the list in view.
func (m *Model) markBody(lines []string) []string {
	f := m.find
	if f == nil || !f.st.Active() || f.st.Result().Query() == "" {
		return lines
	}
	if f.dark != m.styles.Dark || f.marks.Match == "" {
		f.marks, f.dark = search.NewMarks(m.styles.Dark), m.styles.Dark
	}
	doc, cline, cocc, ok := m.placeMatch()
	q := f.st.Result().Query()
	l := m.list
	// Walk the items shown as window did, to know which line is which.
	item, off := l.top.item, l.top.off
	for row := 0; row < len(lines) && item < len(l.items); {
		ls := l.itemLines(item)
		off = min(off, max(len(ls)-1, 0))
		for k := off; k < len(ls) && row < len(lines); k++ {
			cur := -1
			if ok && item == doc && k == cline {
				cur = cocc
			}
			lines[row] = search.Mark(lines[row], q, cur, f.marks)
			row++
		}
		off = 0
		item++
	}
	return lines
}

// overlay draws the palette, when open, over the screen's view.
func (m *Model) overlay(view string) string {
	if m.find == nil {
		return view
	}
	return m.find.pal.Overlay(view, m.width, m.height)
}
