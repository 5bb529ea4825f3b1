package debateview

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/internal/hints"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// headerLines is the topic, then the debate's progress on one line.
func (m *Model) headerLines(w int) []string {
	s := &m.styles
	topic := mdrender.Inline(m.topic)
	brand := "roundtable"
	first := s.Strong.Render(brand) + s.Faint.Render(" │ ") + s.Title.Render(cells.Truncate(topic, max(w-len(brand)-3, 1)))

	// The progress, then what is happening now. On a narrow screen the
	// details give way (the provider first, then the cost, the time and
	// the tokens) so that the speaker's name stays whole; what still does
	// not fit ends in "…".
	var parts []headerPart
	if m.round > 0 {
		parts = append(parts, headerPart{s.Text.Render(fmt.Sprintf("Round %d of %d", m.round, m.rounds)), 0})
	} else {
		parts = append(parts, headerPart{s.Text.Render(fmt.Sprintf("%d %s", m.rounds, plural(m.rounds, "round", "rounds"))), 0})
	}
	if m.provider != "" {
		parts = append(parts, headerPart{s.Muted.Render(mdrender.Inline(m.provider)), 1})
	}
	if el := m.elapsed(); el >= 0 {
		parts = append(parts, headerPart{s.Muted.Render(formatElapsed(el)), 3})
	}
	if tok := m.usage.PromptTokens + m.usage.CompletionTokens + m.live; tok > 0 {
		parts = append(parts, headerPart{s.Muted.Render(formatCount(tok) + " tokens"), 4})
	}
	if m.usage.Cost > 0 {
		parts = append(parts, headerPart{s.Muted.Render(debate.FormatDollars(m.usage.Cost)), 2})
	}
	parts = append(parts, headerPart{m.stateLabel(), 0})
	second := joinHeader(parts, s.Faint.Render(" · "), w)
	return []string{cells.Fit(first, w), cells.Fit(cells.Truncate(second, w), w)}
}

// headerPart is one part of the progress line; parts with a drop rank give
// way, lowest rank first, when the line is too wide (0: never).
type headerPart struct {
	s    string
	drop int
}

// joinHeader joins parts with sep, leaving out droppable parts until the
// line fits in w cells or none is left.
func joinHeader(parts []headerPart, sep string, w int) string {
	for {
		strs := make([]string, 0, len(parts))
		lowest := -1
		for i, p := range parts {
			strs = append(strs, p.s)
			if p.drop > 0 && (lowest < 0 || p.drop < parts[lowest].drop) {
				lowest = i
			}
		}
		line := strings.Join(strs, sep)
		if ansi.StringWidth(line) <= w || lowest < 0 {
			return line
		}
		parts = append(parts[:lowest:lowest], parts[lowest+1:]...)
	}
}

// stateLabel says what is happening now.
func (m *Model) stateLabel() string {
	s := &m.styles
	frame := s.Spinner.Render(spin.Frames[m.frame])
	if l, ok := m.noteStatusLabel(); ok {
		return l
	}
	switch m.phase {
	case phaseStarting:
		return frame + s.Muted.Render("starting")
	case phaseRunning:
		for _, c := range m.cols {
			if c.speaking && c.retry != nil {
				return frame + c.seat.Name.Render(c.label) + s.Warning.Render(" · "+retryLabel(c.retry))
			}
			if c.speaking {
				return frame + c.seat.Name.Render(c.label) + s.Muted.Render(" is speaking")
			}
		}
		if m.verdict.retry != nil {
			return frame + m.verdict.seat.Name.Render("Moderator") + s.Warning.Render(" · "+retryLabel(m.verdict.retry))
		}
		return frame + s.Muted.Render("waiting")
	case phaseWeighing:
		if m.verdict.retry != nil {
			return frame + m.verdict.seat.Name.Render("Moderator") + s.Warning.Render(" · "+retryLabel(m.verdict.retry))
		}
		if m.verdict.ranking() {
			return frame + s.Muted.Render("the panel is ranking")
		}
		return frame + m.verdict.seat.Name.Render("Moderator") + s.Muted.Render(" is weighing the debate")
	case phaseDone:
		return s.Success.Render("✓ verdict in")
	case phaseStopped:
		return s.Warning.Render("■ stopped")
	case phaseFailed:
		return s.Error.Render("✗ failed")
	case phaseReplay:
		if m.watching() {
			return m.elsewhereLabel()
		}
		if m.closed != "" {
			return s.Muted.Render("replay · " + m.closed)
		}
		return s.Muted.Render("replay")
	}
	return ""
}

// retryLabel is a retry event as the screen says it:
// "retrying after HTTP 429 · attempt 2/4".
func retryLabel(ev *debate.Event) string { return mdrender.Inline(ev.RetryLabel()) }

// withRetry adds a pending retry to a pane's title (titleW cells wide),
// in the longest form that fits in room cells with the title: "· retrying
// after HTTP 429 · attempt 2/4", "· retry 2/4 · HTTP 429" or "· retry 2/4",
// the last shortening the title if it must, so a narrow column still
// shows that it waits and for which attempt.
func (m *Model) withRetry(title string, titleW int, ev *debate.Event, room int) (string, int) {
	if ev == nil {
		return title, titleW
	}
	short := fmt.Sprintf(" · retry %d/%d", ev.Attempt, ev.Attempts)
	for _, note := range []string{" · " + retryLabel(ev), short + " · " + mdrender.Inline(ev.Text)} {
		if w := ansi.StringWidth(note); titleW+w <= room {
			return title + m.styles.Warning.Render(note), titleW + w
		}
	}
	w := ansi.StringWidth(short)
	if titleW+w > room {
		title = ansi.Truncate(title, max(room-w, 1), "…")
		titleW = ansi.StringWidth(title)
	}
	return title + m.styles.Warning.Render(short), titleW + w
}

// elapsed is the debate's running time so far (or in all, once ended);
// negative before it started.
func (m *Model) elapsed() time.Duration {
	switch {
	case m.started.IsZero():
		return -1
	case !m.ended.IsZero():
		return m.ended.Sub(m.started)
	}
	return max(m.now.Sub(m.started), 0)
}

// footerKey is everything the footer is drawn from: the status, and what
// decides which keys the help shows (see syncKeys).
type footerKey struct {
	w                                     int
	status                                string
	statusErr, showHelp, dark             bool
	phase                                 phase
	quitting, hasRoom, manyPanes, running bool
	usage                                 string
}

// footerLines is the status line and the help under it, drawn again only
// when what they show changed.
func (m *Model) footerLines(w int) []string {
	key := footerKey{
		w: w, status: m.status, statusErr: m.statusErr, showHelp: m.showHelp, dark: m.styles.Dark,
		phase: m.phase, quitting: m.quitting, hasRoom: m.room != nil, manyPanes: m.panes() > 1, running: m.Running(),
	}
	usage := m.usageStatus()
	if len(usage) > 0 {
		key.usage = usage[0]
	}
	if key == m.footKey && m.footer != nil {
		return m.footer
	}
	m.footKey = key
	s := &m.styles
	style := s.StatusBar
	if m.statusErr {
		style = s.StatusError
	}
	var out []string
	// A status too long for the bar wraps, so what must be read (the
	// room a debate is saved in, the file an export wrote, an error's
	// cause) is read whole: on up to three rows, an error four.
	rows := 3
	if m.statusErr {
		rows = 4
	}
	if wrapped := cells.Split(m.status, max(w-2, 1)); len(wrapped) > 1 && len(wrapped) <= rows {
		for _, l := range wrapped {
			out = append(out, style.Render(cells.Fit(" "+l, w)))
		}
	} else {
		text := m.status
		if m.statusErr {
			// Longer still, an error loses its middle (a path), not its
			// end (the cause).
			text = cells.TruncateMiddle(text, max(w-2, 1))
		}
		out = append(out, style.Render(cells.Fit(statusLine(text, usage, w), w)))
	}
	m.help.ShowAll = m.showHelp
	for _, l := range strings.Split(hints.View(m.help, m.keys, w-1), "\n") {
		out = append(out, cells.Fit(" "+l, w))
	}
	if m.showHelp && m.room != nil {
		// How to share the debate: its page in a browser, served by host.
		// Wrapped, not cut: the command is to be typed as it is.
		share := "share in a browser: roundtable host --room " + m.room.Config().Room + ", then open the page it prints"
		for _, l := range cells.Split(share, max(w-2, 1)) {
			out = append(out, cells.Fit(" "+s.Faint.Render(l), w))
		}
	}
	return out
}

// tabStrip is the row of tabs shown when not every persona fits: the
// focused pane marked, the speaker with its spinner. It returns the strip
// and each tab's span for the mouse.
func (m *Model) tabStrip(w int, shown []int) (string, [][2]int) {
	s := &m.styles
	type tab struct {
		label string
		pane  int
	}
	var tabs []tab
	for i, c := range m.cols {
		tabs = append(tabs, tab{c.label, i})
	}
	if m.verdict.shown() && m.lay.narrow || m.verdict.shown() && w < narrowWidth {
		tabs = append(tabs, tab{"Verdict", len(m.cols)})
	}
	names := make([]string, len(tabs))
	for i, t := range tabs {
		names[i] = t.label
	}
	labels := tabLabels(names, w, 4)
	var b strings.Builder
	spans := make([][2]int, len(tabs))
	x := 0
	for i, t := range tabs {
		if i > 0 {
			b.WriteString(s.Faint.Render("│"))
			x++
		}
		mark := "  "
		if t.pane < len(m.cols) && m.cols[t.pane].speaking || t.pane == len(m.cols) && m.verdict.waiting {
			mark = spin.Frames[m.frame]
		}
		cell := " " + mark + labels[i] + " "
		cw := ansi.StringWidth(cell)
		spans[i] = [2]int{x, x + cw}
		x += cw
		switch {
		case t.pane == m.focus:
			b.WriteString(s.TabActive.Render(cell))
		case contains(shown, t.pane):
			b.WriteString(s.TabIdle.Render(cell))
		default:
			b.WriteString(s.Faint.Render(cell))
		}
	}
	return cells.Fit(b.String(), w), spans
}

// tabLabels shortens names so that tabs of them, each taking pad cells
// more than its label plus a separator, fit in w cells.
func tabLabels(names []string, w, pad int) []string {
	out := make([]string, len(names))
	copy(out, names)
	if len(names) == 0 {
		return out
	}
	total := func() int {
		n := len(out) - 1
		for _, s := range out {
			n += ansi.StringWidth(s) + pad
		}
		return n
	}
	for total() > w {
		// Shorten the longest label by one cell.
		longest, lw := -1, 1
		for i, s := range out {
			if sw := ansi.StringWidth(s); sw > lw {
				longest, lw = i, sw
			}
		}
		if longest < 0 {
			break
		}
		out[longest] = ansi.Truncate(names[longest], lw-1, "…")
	}
	return out
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// formatElapsed is a duration as 0:42, 12:05 or 1:02:03.
func formatElapsed(d time.Duration) string {
	s := int(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// formatCount is a count of tokens as 950, 12.3k or 1.2M.
func formatCount(n int) string { return debate.FormatTokens(n) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
