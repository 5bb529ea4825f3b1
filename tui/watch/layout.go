package watch

import (
	"fmt"
	"strconv"
	"strings"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/internal/hints"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// layout renders the screen into header, body and footer lines for View.
// It runs at the end of every Update, so View only joins strings.
func (m *Model) layout() {
	if m.width <= 0 || m.height <= 0 {
		m.header, m.body, m.footer = nil, nil, nil
		return
	}
	m.header = m.headerLines()
	foot := m.footerText()
	note := m.noteLines()
	h := max(m.height-len(m.header)-len(note)-foot.height(m.helpHeight())-m.takeHeight(), 1)
	m.sess.bodyHeight.Store(int64(h))
	switch {
	case m.phase == phaseOpening:
		m.body = m.centered(h, []string{m.styles.Muted.Render("opening the room…")})
	case m.phase == phaseWaiting:
		m.body = m.centered(h, m.waitingLines())
	case m.showSpec:
		m.body = m.specBody(h)
	case m.showColumns():
		m.body = m.columnsBody(h)
	case len(m.list.items) == 0:
		m.body = m.centered(h, m.emptyLines())
	default:
		m.body = m.markBody(m.list.window(h))
	}
	m.body = fitHeight(m.body, h)
	m.footer = append(append(note, m.takeLines()...), m.footerLines(foot)...)
}

// fitHeight pads or cuts lines to exactly h.
func fitHeight(lines []string, h int) []string {
	if len(lines) > h {
		return lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

// centered places lines in the middle of h rows, each centered in the width.
func (m *Model) centered(h int, lines []string) []string {
	out := make([]string, 0, h)
	for range max((h-len(lines))/2, 0) {
		out = append(out, "")
	}
	for _, l := range lines {
		lw := xansi.StringWidth(l)
		if lw >= m.width {
			out = append(out, xansi.Truncate(l, m.width, "…"))
			continue
		}
		out = append(out, strings.Repeat(" ", (m.width-lw)/2)+l)
	}
	return out
}

// wrapped word-wraps plain text to the screen (less a margin) and styles it.
func (m *Model) wrapped(text string, render func(...string) string) []string {
	lines := splitLines(cells.Wrap(text, max(min(m.width-4, 72), 10)))
	for i, l := range lines {
		lines[i] = render(l)
	}
	return lines
}

func (m *Model) waitingLines() []string {
	s := m.styles
	out := []string{s.Title.Render("waiting for the first seat"), ""}
	out = append(out, m.wrapped(fmt.Sprintf(
		"There is no room %q under %s yet. This screen attaches as soon as an agent's seat server (roundtable --room %s) or roundtable seed creates it.",
		m.opts.Room, mdrender.Inline(m.cwd), m.opts.Room), s.Muted.Render)...)
	if m.waitNote != "" {
		out = append(out, "")
		out = append(out, m.wrapped("The room's files are there but cannot be read yet: "+mdrender.Inline(m.waitNote), s.Warning.Render)...)
	}
	return out
}

func (m *Model) emptyLines() []string {
	s := m.styles
	if m.cfg.IsDebate() {
		return []string{s.Muted.Render("no turns yet")}
	}
	if m.st.Closed != nil {
		return []string{s.Muted.Render("the room closed without a message")}
	}
	return []string{s.Muted.Render("no messages yet: it is the lead's turn to post the brief")}
}

// statusRightWidth bounds the scroll position at the right of the status
// line.
const statusRightWidth = 48

// maxErrorLines bounds a read error's lines in the footer.
const maxErrorLines = 4

// footerText is the footer's text before the scroll position is known:
// the closed banner, the read error and the status, each wrapped.
type footerText struct {
	banner []string
	warn   []string // seatsGone's banner
	errs   []string
	status []string
	posAt  int // the status line the scroll position is shown beside
}

func (m *Model) footerText() footerText {
	var f footerText
	w := max(m.width-2, 10)
	if m.phase == phaseLive && m.st.Closed != nil {
		f.banner = splitLines(cells.Wrap(m.closedText(), w))
	}
	if m.seatsGone() {
		f.warn = splitLines(cells.Wrap(m.seatsGoneText(), w))
	}
	if m.err != "" {
		f.errs = splitLines(cells.Wrap("✖ "+m.err, w))
		if len(f.errs) > maxErrorLines {
			f.errs = append(f.errs[:maxErrorLines-1], xansi.Truncate(strings.Join(f.errs[maxErrorLines-1:], " "), w, "…"))
		}
	}
	status := m.status
	if status != "" && !m.statusOK {
		status = "✖ " + status
	}
	f.status = splitLines(cells.Wrap(status, max(m.width-2, 10)))
	if len(f.status) == 0 {
		f.status = []string{""}
	}
	// The position goes at the right of the first status line it fits
	// beside, three cells clear, so a wrapped status never reads on into
	// it; on a line of its own when none has the room.
	f.posAt = len(f.status) - 1
	if pw := m.positionWidth(); pw > 0 {
		f.posAt = -1
		for i, l := range f.status {
			if 1+xansi.StringWidth(l)+3+pw+1 <= m.width {
				f.posAt = i
				break
			}
		}
		if f.posAt < 0 {
			f.status = append(f.status, "")
			f.posAt = len(f.status) - 1
		}
	}
	return f
}

func (f footerText) height(helpLines int) int {
	return len(f.banner) + len(f.warn) + len(f.errs) + len(f.status) + helpLines
}

func (m *Model) helpHeight() int {
	return countLines(hints.View(m.help, m.helpKeys(), m.width))
}

// footerLines: the closed banner, the seats-gone banner, a read error, the status line (with the
// scroll position at its right) and the help.
func (m *Model) footerLines(f footerText) []string {
	s := m.styles
	out := make([]string, 0, f.height(2))
	for _, l := range f.banner {
		out = append(out, bannerLine(s.ClosedBanner.Render, l, m.width))
	}
	for _, l := range f.warn {
		out = append(out, bannerLine(s.WarnBanner.Render, l, m.width))
	}
	for _, l := range f.errs {
		out = append(out, bannerLine(s.ErrorBanner.Render, l, m.width))
	}
	render := s.StatusBar.Render
	if m.status != "" && !m.statusOK {
		render = s.StatusError.Render
	}
	right := xansi.Truncate(m.position(), m.positionWidth(), "…")
	for i, l := range f.status {
		r := ""
		if i == f.posAt {
			r = right + " "
		}
		out = append(out, render(fitLR(" "+l, r, m.width)))
	}
	return append(out, splitLines(hints.View(m.help, m.helpKeys(), m.width))...)
}

// bannerLine pads (or truncates) text to the full width in a banner style.
func bannerLine(render func(...string) string, text string, width int) string {
	text = " " + text + " "
	if w := xansi.StringWidth(text); w < width {
		text += strings.Repeat(" ", width-w)
	}
	return render(xansi.Truncate(text, width, "…"))
}

// closedText is the banner of a closed room: its reason and its spec.
func (m *Model) closedText() string {
	c := m.st.Closed
	reason := mdrender.Inline(c.Reason)
	if reason == "" {
		reason = "no reason given"
	}
	text := "CLOSED · " + reason
	if spec := m.specRel(); spec != "" && !m.cfg.IsDebate() {
		text += " · spec " + mdrender.Inline(spec)
		if !m.showSpec {
			text += " · s shows it"
		}
	}
	return text
}

// specRel is the spec path a closed room names, relative to the cwd and
// made safe the way the store settles it.
func (m *Model) specRel() string { return room.SpecFor(m.cfg, m.st.Closed) }

// positionWidth is the room the scroll position may take: its widest form
// in the current state, known before the view is laid out, so the status
// wraps the same way wherever the view is.
func (m *Model) positionWidth() int {
	n := m.list.base
	if n == 0 && !m.showSpec {
		return 0
	}
	// "n of n" plus the "–n" of a range.
	w := xansi.StringWidth(m.positionText(n, n, n)) + 1 + len(strconv.Itoa(n))
	return min(w, statusRightWidth, m.width/2)
}

// position says where the view is: following, or scrolled with new
// messages below, and which entries are in view.
func (m *Model) position() string {
	switch {
	case m.phase != phaseLive:
		return ""
	case m.showSpec:
		return fmt.Sprintf("spec %d%%", int(m.spec.ScrollPercent()*100))
	case m.list.base == 0:
		return ""
	case m.showColumns():
		n := m.list.base // the columns show the newest
		return m.positionText(n, n, n)
	}
	return m.positionText(m.list.shownRange())
}

// positionText is the scroll position for entries first to last of total.
func (m *Model) positionText(first, last, total int) string {
	if m.showSpec {
		return "spec 100%"
	}
	r := fmt.Sprintf("%d–%d of %d", first, last, total)
	if first == last {
		r = fmt.Sprintf("%d of %d", first, total)
	}
	switch {
	case m.list.follow:
		return "following · " + r
	case m.list.unseen > 0:
		return fmt.Sprintf("%s new below (G) · %s", plural(m.list.unseen, "message"), r)
	default:
		return "scrolled (f follows) · " + r
	}
}
