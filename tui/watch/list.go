package watch

import (
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
	"github.com/roundtable-dev/roundtable/tui/theme"
)

// maxCachedItems bounds the rendered items the list keeps at one width;
// past it the cache starts over (Glamour's own cache still holds the
// Markdown renders).
const maxCachedItems = 4000

// pos is a scroll position: the first line shown is line off of item.
type pos struct{ item, off int }

func (p pos) before(q pos) bool {
	return p.item < q.item || p.item == q.item && p.off < q.off
}

// msgList is the scrolling list of a room's messages. It renders only the
// items it shows, so opening a room of ten thousand messages renders one
// screenful; it follows the newest message unless the user scrolled up.
type msgList struct {
	sess     *session
	styles   theme.Styles
	loc      *time.Location
	cfg      room.Config
	width    int
	multiDay bool

	items []item
	// base counts the items that are the room's own (messages, warnings,
	// verdicts); the drafts being written follow them.
	base   int
	drafts []room.Draft
	lastAt map[string]time.Time // each seat's latest message
	index  map[string]int       // item key → index
	looks  map[string]seatLook
	lines  map[string][]string // rendered items at width

	msgs, skips, notes int // counts behind items, to skip needless rebuilds
	gen                int // counts changes to items (the council's columns follow it)

	follow bool
	top    pos // first line shown (kept up to date while following too)
	unseen int // messages that arrived while scrolled up

	// The items in view after the last window, for the status line.
	firstShown, lastShown int
}

func newList(s *session, loc *time.Location) *msgList {
	return &msgList{
		sess: s, loc: loc, follow: true,
		index: map[string]int{}, looks: map[string]seatLook{}, lines: map[string][]string{},
	}
}

func (l *msgList) md() *mdrender.Renderer { return l.sess.renderer() }

func (l *msgList) setStyles(s theme.Styles) {
	l.styles = s
	l.looks = map[string]seatLook{}
	l.invalidate()
}

// invalidate drops the rendered items (new width or styles).
func (l *msgList) invalidate() { clear(l.lines) }

func (l *msgList) setWidth(w int) {
	if w != l.width {
		l.width = w
		l.invalidate()
	}
}

// bodyWidth is the width message text is wrapped to, after the bar.
func (l *msgList) bodyWidth() int { return max(l.width-2, mdrender.MinWidth) }

func (l *msgList) setRoom(cfg room.Config) { l.cfg = cfg }

// look returns a seat's styles, building them the first time.
func (l *msgList) look(seat string) seatLook {
	if lk, ok := l.looks[seat]; ok {
		return lk
	}
	s := l.styles.Seat(seat, l.cfg.Agents)
	lk := seatLook{
		name:    s.Name.Render(mdrender.Inline(seat)),
		bar:     s.Bar.Render("│") + " ",
		barOnly: s.Bar.Render("│"),
		border:  s.Bar,
	}
	l.looks[seat] = lk
	return lk
}

// setState rebuilds the items when the room gained messages or unreadable
// files, keeping the scroll position on the same item.
func (l *msgList) setState(st room.State, r *room.Room) {
	if len(st.Messages) == l.msgs && len(st.Skipped) == l.skips && len(st.Notes) == l.notes && l.items != nil {
		return
	}
	added := len(st.Messages) - l.msgs
	topKey := ""
	if l.top.item < len(l.items) {
		topKey = l.items[l.top.item].key
	}
	l.msgs, l.skips, l.notes = len(st.Messages), len(st.Skipped), len(st.Notes)
	l.gen++
	l.items = buildItems(st, l.cfg.IsDebate(), r)
	l.base = len(l.items)
	l.lastAt = lastBySeat(st.Messages)
	l.items = append(l.items, l.draftItems()...)
	l.multiDay = spansDays(st.Messages)
	l.reindex()
	if i, ok := l.index[topKey]; ok {
		l.top.item = i
	} else {
		l.top = pos{}
	}
	if !l.follow && added > 0 {
		l.unseen += added
	}
}

// reindex maps the items' keys to their places.
func (l *msgList) reindex() {
	clear(l.index)
	for i := range l.items {
		l.index[l.items[i].key] = i
	}
}

// spansDays reports whether the messages' times fall on more than one
// (UTC) day, so that times need their dates.
func spansDays(msgs []room.Message) bool {
	day := ""
	for i := range msgs {
		t := msgs[i].Time()
		if t.IsZero() {
			continue
		}
		d := t.UTC().Format(time.DateOnly)
		if day != "" && d != day {
			return true
		}
		day = d
	}
	return false
}

// itemLines is an item rendered at the list's width, from the cache when
// it was shown before.
func (l *msgList) itemLines(i int) []string {
	it := &l.items[i]
	if ls, ok := l.lines[it.key]; ok {
		return ls
	}
	ls := l.render(it)
	if len(l.lines) >= maxCachedItems {
		clear(l.lines)
	}
	l.lines[it.key] = ls
	return ls
}

// bottom is the position that shows the last h lines.
func (l *msgList) bottom(h int) pos {
	need := h
	for i := len(l.items) - 1; i >= 0; i-- {
		n := len(l.itemLines(i))
		if n >= need {
			return pos{i, n - need}
		}
		need -= n
	}
	return pos{}
}

// window returns the h lines in view and records what they show.
func (l *msgList) window(h int) []string {
	if len(l.items) == 0 || h <= 0 {
		l.firstShown, l.lastShown = -1, -1
		return nil
	}
	if b := l.bottom(h); l.follow || b.before(l.top) {
		l.top = b
	}
	if l.top.item >= len(l.items) {
		l.top = pos{len(l.items) - 1, 0}
	}
	out := make([]string, 0, h)
	l.firstShown = l.top.item
	off := l.top.off
	i := l.top.item
	for ; i < len(l.items) && len(out) < h; i++ {
		ls := l.itemLines(i)
		off = min(off, max(len(ls)-1, 0))
		for _, line := range ls[off:] {
			if len(out) == h {
				break
			}
			out = append(out, line)
		}
		off = 0
	}
	l.lastShown = i - 1
	return out
}

// scroll moves the view n lines (up when negative) in a view h lines high.
// Scrolling up stops following; reaching the bottom follows again.
func (l *msgList) scroll(n, h int) {
	if len(l.items) == 0 || n == 0 {
		return
	}
	p := l.top
	if n < 0 {
		l.follow = false
		p.off += n
		for p.off < 0 && p.item > 0 {
			p.item--
			p.off += len(l.itemLines(p.item))
		}
		p.off = max(p.off, 0)
		l.top = p
		return
	}
	p.off += n
	for p.item < len(l.items)-1 {
		size := len(l.itemLines(p.item))
		if p.off < size {
			break
		}
		p.off -= size
		p.item++
	}
	if b := l.bottom(h); !p.before(b) {
		l.toBottom()
		return
	}
	l.top = p
}

func (l *msgList) toTop() {
	l.follow = false
	l.top = pos{}
}

func (l *msgList) toBottom() {
	l.follow = true
	l.unseen = 0
}

// setFollow turns following on (jumping to the newest) or off (staying).
func (l *msgList) setFollow(on bool) {
	if on {
		l.toBottom()
		return
	}
	l.follow = false
}

// shownMessages counts the items in view and in all, for the status line:
// "messages a–b of n" counts list entries, warnings and verdict included.
func (l *msgList) shownRange() (first, last, total int) {
	return min(l.firstShown, l.base-1) + 1, min(l.lastShown, l.base-1) + 1, l.base
}
