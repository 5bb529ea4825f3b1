package home

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/internal/hints"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// Rows above the list.
const topRows = 3 // title, filter line, column heading

// maxStatusRows bounds the status line: a long error (an export or rename
// that failed, with the path and the cause at its end) wraps onto a
// second row instead of losing its cause.
const maxStatusRows = 2

// listRows is how many rooms fit on screen.
func (m *Model) listRows() int {
	return max(m.height-topRows-m.statusRows()-m.helpRows(), 1)
}

// statusRows is how many rows the status line takes.
func (m *Model) statusRows() int {
	if m.confirm != nil || (m.rename != nil && m.status == "") {
		return 1
	}
	return len(m.statusLines(max(m.width, 1)))
}

// statusLines is the status (or the hint) wrapped to at most
// maxStatusRows rows of width w, the last cut with "…" if need be.
func (m *Model) statusLines(w int) []string {
	status := m.status
	if status == "" {
		status = m.hint()
	}
	lines := strings.Split(cells.Wrap(status, max(w-2, 1)), "\n")
	if len(lines) > maxStatusRows {
		// Keep the start (what failed) and the end (why): the middle,
		// usually a long path, gives way.
		lines = append(lines[:maxStatusRows-1], "…"+tailCells(ansi.Strip(status), max(w-3, 1)))
	}
	return lines
}

// tailCells is the end of plain text s that fits in w cells.
func tailCells(s string, w int) string {
	r := []rune(s)
	n, used := len(r), 0
	for n > 0 {
		cw := ansi.StringWidth(string(r[n-1]))
		if used+cw > w {
			break
		}
		used += cw
		n--
	}
	return string(r[n:])
}

// helpRows is how many rows the help under the list takes, as footer
// draws it.
func (m *Model) helpRows() int {
	if m.showHelp && m.confirm == nil {
		h := m.help
		h.ShowAll = true
		return strings.Count(hints.View(h, m.keys, max(m.width, 20)-1), "\n") + 1
	}
	return 1
}

// columns is the width of each field of a row.
type columns struct {
	status, name, mode, rounds, activity, topic int
}

// gap is the space between two fields.
const gap = 2

// rowColumns lays a row out in width cells: fixed fields for status, mode,
// rounds and activity, the name as wide as the longest (up to a limit),
// the topic the rest. A narrow screen drops mode and activity first.
func rowColumns(width, longestName int) columns {
	c := columns{status: 7, mode: 6, rounds: 6, activity: 9}
	c.name = clamp(longestName, 4, max(width/3, 16))
	used := func() int {
		n := 2 + c.status + gap + c.name + gap + c.rounds + gap
		if c.mode > 0 {
			n += c.mode + gap
		}
		if c.activity > 0 {
			n += c.activity + gap
		}
		return n
	}
	if width-used() < 20 {
		c.activity = 0
	}
	if width-used() < 16 {
		c.mode = 0
	}
	if width-used() < 12 {
		c.name = max(width-used()+c.name-12, 4)
	}
	c.topic = max(width-used(), 0)
	return c
}

// ago says how long ago t was, briefly.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "?"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	case d < 7*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	case t.Year() == now.Year():
		return t.Local().Format("Jan 2")
	}
	return t.Local().Format("2006-01-02")
}

// rounds shows rounds used of budget.
func rounds(r Room) string {
	if r.Budget <= 0 {
		return fmt.Sprint(r.Used)
	}
	return fmt.Sprintf("%d/%d", r.Used, r.Budget)
}

// View is the screen as text.
func (m Model) View() string {
	w := max(m.width, 20)
	s := &m.styles
	var lines []string
	lines = append(lines, cells.Fit(m.title(w), w))
	switch {
	case m.filtering || m.filter.Value() != "":
		lines = append(lines, cells.Fit(" "+m.filter.View(), w))
	default:
		lines = append(lines, "")
	}
	// The footer is drawn first: the list takes the rows it leaves.
	foot := m.footer(w)
	body := m.height - 2 - len(foot)
	switch {
	case !m.loaded:
		lines = append(lines, cells.Fit(s.Muted.Render("  Reading the rooms…"), w))
	case m.err != "" && len(m.rooms) == 0:
		for _, l := range strings.Split(ansi.Wordwrap("Cannot list the rooms: "+m.err, w-4, ""), "\n") {
			lines = append(lines, cells.Fit("  "+s.Error.Render(l), w))
		}
	case len(m.rooms) == 0:
		lines = append(lines, m.welcome(w)...)
	default:
		lines = append(lines, m.table(w, body)...)
	}
	for len(lines) < m.height-len(foot) {
		lines = append(lines, "")
	}
	lines = lines[:max(m.height-len(foot), 0)]
	lines = append(lines, foot...)
	return m.overlay(strings.Join(lines, "\n"))
}

// title is the first line: the app and where the rooms are.
func (m *Model) title(w int) string {
	s := &m.styles
	where := shortPath(filepath.Join(m.opts.Cwd, room.Folder))
	var what string
	switch n := len(m.rooms); {
	case !m.loaded:
		what = "rooms in " + where
	case n == 0:
		what = "no rooms yet in " + where
	case n == 1:
		what = "1 room in " + where
	default:
		what = fmt.Sprintf("%d rooms in %s", n, where)
	}
	if f := m.filter.Value(); f != "" && m.loaded {
		what += fmt.Sprintf(" · %d shown", len(m.shown))
	}
	return s.Strong.Render("roundtable") + s.Faint.Render(" │ ") + s.Muted.Render(cells.Truncate(mdrender.Inline(what), max(w-13, 1)))
}

// table is the column heading and the rows that fit in rows lines.
func (m *Model) table(w, rows int) []string {
	s := &m.styles
	longest := 4
	for _, i := range m.shown {
		longest = max(longest, ansi.StringWidth(mdrender.Inline(m.rooms[i].Name)))
	}
	c := rowColumns(w, longest)
	out := []string{cells.Fit(s.Heading.Render(m.row(c, "", "STATUS", "ROOM", "MODE", "ROUNDS", "ACTIVITY", "TOPIC")), w)}
	if len(m.shown) == 0 {
		msg := fmt.Sprintf("No room matches “%s”. esc clears the filter.", mdrender.Inline(m.filter.Value()))
		return append(out, cells.Fit("  "+s.Muted.Render(msg), w))
	}
	for i := m.offset; i < len(m.shown) && len(out) <= rows-1; i++ {
		r := m.rooms[m.shown[i]]
		out = append(out, m.roomRow(c, r, i == m.cursor, w))
	}
	return out
}

// roomRow draws one room.
func (m *Model) roomRow(c columns, r Room, selected bool, w int) string {
	s := &m.styles
	status := r.Status()
	st := s.Done
	switch status {
	case "open", "paused":
		st = s.Open
	case "stopped":
		st = s.Stopped
	case "failed":
		st = s.Failed
	case "junk":
		st = s.Muted
	}
	topic := mdrender.Inline(r.Topic)
	if r.Err != "" {
		topic = "⚠ " + mdrender.Inline(r.Err)
	}
	text := s.Text
	cursor := "  "
	if selected {
		text = s.Selected
		cursor = s.Cursor.Render("▌ ")
	}
	var b strings.Builder
	b.WriteString(cursor)
	b.WriteString(st.Render(cells.Pad(status, c.status)))
	b.WriteString(strings.Repeat(" ", gap))
	b.WriteString(text.Render(cells.Pad(truncateMiddle(mdrender.Inline(r.Name), c.name), c.name)))
	b.WriteString(strings.Repeat(" ", gap))
	if c.mode > 0 {
		b.WriteString(s.Muted.Render(cells.Pad(r.Mode, c.mode)))
		b.WriteString(strings.Repeat(" ", gap))
	}
	b.WriteString(s.Muted.Render(padLeft(rounds(r), c.rounds)))
	b.WriteString(strings.Repeat(" ", gap))
	if c.activity > 0 {
		b.WriteString(s.Muted.Render(cells.Pad(ago(m.now, r.Last), c.activity)))
		b.WriteString(strings.Repeat(" ", gap))
	}
	if c.topic > 0 {
		style := text
		if r.Err != "" {
			style = s.Warning
		}
		b.WriteString(style.Render(cells.Truncate(topic, c.topic)))
	}
	return cells.Fit(b.String(), w)
}

// row lays plain fields out (the heading).
func (m *Model) row(c columns, cursor, status, name, mode, rnds, activity, topic string) string {
	var b strings.Builder
	b.WriteString(cells.Pad(cursor, 2))
	b.WriteString(cells.Pad(status, c.status) + strings.Repeat(" ", gap))
	b.WriteString(cells.Pad(name, c.name) + strings.Repeat(" ", gap))
	if c.mode > 0 {
		b.WriteString(cells.Pad(mode, c.mode) + strings.Repeat(" ", gap))
	}
	b.WriteString(padLeft(rnds, c.rounds) + strings.Repeat(" ", gap))
	if c.activity > 0 {
		b.WriteString(cells.Pad(activity, c.activity) + strings.Repeat(" ", gap))
	}
	if c.topic > 0 {
		b.WriteString(cells.Truncate(topic, c.topic))
	}
	return b.String()
}

// welcome is the empty state: what roundtable does and what to press.
func (m *Model) welcome(w int) []string {
	s := &m.styles
	inner := min(w-8, 64)
	if inner < 20 {
		inner = max(w-2, 10)
	}
	wrap := func(text string, indent int) []string {
		var out []string
		for i, l := range strings.Split(ansi.Wordwrap(text, max(inner-indent, 8), ""), "\n") {
			if i > 0 {
				l = strings.Repeat(" ", indent) + l
			}
			out = append(out, l)
		}
		return out
	}
	provider := m.opts.Provider
	if provider == "" {
		provider = "mock"
	}
	keyed := func(k, text string) []string {
		ls := wrap(text, 5)
		ls[0] = s.Key.Render(" "+k+"   ") + s.Text.Render(ls[0])
		for i := 1; i < len(ls); i++ {
			ls[i] = s.Text.Render(ls[i])
		}
		return ls
	}
	var body []string
	body = append(body, s.Title.Render("Welcome to roundtable."), "")
	for _, l := range wrap("Argue a decision through before anyone builds it. Nothing has been argued in this folder yet.", 0) {
		body = append(body, s.Text.Render(l))
	}
	body = append(body, "")
	debateText := "Start a persona debate: a product manager, an architect and a security reviewer argue your topic round by round, then a moderator gives a verdict."
	if strings.HasPrefix(provider, "mock") {
		debateText += " It runs on the built-in mock provider, so no API key is needed."
	} else {
		debateText += " Provider: " + provider + "."
	}
	body = append(body, keyed("n", debateText)...)
	body = append(body, "")
	body = append(body, keyed("m", "Open an MCP room: two to eight minds take its seats and talk it through: coding agents you start (Claude Code, Codex, …), or a model or an agent roundtable plays.")...)
	body = append(body, "")
	body = append(body, keyed("q", "Quit.")...)
	box := s.Welcome.Width(inner + 6).Render(strings.Join(body, "\n"))
	indent := strings.Repeat(" ", max((w-inner-6)/2, 2))
	var out []string
	for _, l := range strings.Split(box, "\n") {
		out = append(out, cells.Fit(indent+l, w))
	}
	return out
}

// footer is the status line and the help; while a delete waits for its
// answer, the question and what the delete would cut short.
func (m *Model) footer(w int) []string {
	s := &m.styles
	if m.confirm != nil {
		question, detail, warn := m.confirmLines()
		style := s.Muted
		if warn {
			style = s.Warning
		}
		return []string{
			s.StatusBar.Render(cells.Fit(" "+cells.Truncate(question, w-2), w)),
			cells.Fit(" "+style.Render(cells.Truncate(detail, w-2)), w),
		}
	}
	if m.rename != nil {
		return m.renameLines(w)
	}
	var out []string
	for _, l := range m.statusLines(w) {
		out = append(out, s.StatusBar.Render(cells.Fit(" "+cells.Truncate(l, w-2), w)))
	}
	m.help.ShowAll = m.showHelp
	for _, l := range strings.Split(hints.View(m.help, m.keys, w-1), "\n") {
		out = append(out, cells.Fit(" "+l, w))
	}
	return out
}

// hint is the status line when nothing happened: what enter would do.
func (m *Model) hint() string {
	r, ok := m.Selected()
	switch {
	case m.filtering:
		return "Type to filter; enter keeps the filter, esc clears it."
	case !ok:
		return "n starts a persona debate, m opens an MCP room for agents."
	case r.failedEmpty():
		return "This debate failed before anything was said: enter shows why; d deletes it (u undoes that)."
	case r.Junk:
		return "This room holds nothing worth keeping: d deletes it (u undoes that)."
	case r.Mode == ModeMCP:
		return "enter watches this MCP room live; d deletes it."
	case !r.Closed && r.Abandoned:
		return "Its process ended without closing it: enter opens it (R goes on from the cut turn); d deletes it."
	case !r.Closed:
		return "enter watches this debate live; d deletes it."
	}
	return "enter replays this debate; d deletes it."
}

// shortPath writes the home folder as ~.
func shortPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && home != "/" {
		if rel, err := filepath.Rel(home, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return p
}

func padLeft(s string, w int) string {
	s = cells.Truncate(s, w)
	return strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) + s
}

// truncateMiddle cuts s to w cells by dropping its middle, so both the
// start and the end of a room name (a debate's time stamp) stay visible.
func truncateMiddle(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw <= w {
		return s
	}
	if w < 5 {
		return cells.Truncate(s, w)
	}
	head := (w - 1) / 2
	tail := w - 1 - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, sw-tail, "")
}
