package watch

import (
	"fmt"
	"strings"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// budgetCells is the width of the budget bar.
const budgetCells = 12

// headerLines is the top of the screen: topic, the room's line (name, mode,
// budget bar, turn, elapsed time) and one line per seat, then a rule.
func (m *Model) headerLines() []string {
	s := m.styles
	w := max(m.width, 1)
	var out []string
	switch m.phase {
	case phaseLive:
		topic := mdrender.Inline(m.cfg.Topic)
		if topic == "" {
			topic = "(no topic)"
		}
		out = append(out, xansi.Truncate(s.Title.Render(topic), w, "…"))
		out = append(out, wrapSegments(m.roomSegments(), s.Faint.Render(" · "), w)...)
		switch {
		case m.cfg.IsDebate():
			out = append(out, wrapSegments(m.personaSegments(), "  ", w)...)
		case m.council():
			out = append(out, m.orderLines(w)...)
			out = append(out, m.seatLines(w)...)
		default:
			out = append(out, m.seatLines(w)...)
		}
	default:
		out = append(out, xansi.Truncate(s.Title.Render("roundtable watch"), w, "…"))
		out = append(out, wrapSegments([]string{
			s.Muted.Render("room ") + s.Strong.Render(m.opts.Room),
			s.Muted.Render(mdrender.Inline(m.cwd)),
		}, s.Faint.Render(" · "), w)...)
	}
	return append(out, s.Rule.Render(strings.Repeat("─", w)))
}

// roomSegments are the parts of the room's line.
func (m *Model) roomSegments() []string {
	s := m.styles
	segs := []string{s.Muted.Render("room ") + s.Strong.Render(mdrender.Inline(m.opts.Room))}
	segs = append(segs, m.remoteSegment()...)
	used, limit, unit := m.st.Round, m.cfg.Budget, "rounds"
	if m.cfg.IsDebate() {
		segs = append(segs, s.Muted.Render("persona debate"))
		used, limit, unit = maxRound(m.st.Messages), m.cfg.Rounds, "rounds"
	} else if m.council() {
		segs = append(segs, s.Muted.Render(fmt.Sprintf("MCP council of %d seats", len(m.seatOrder()))))
	} else {
		segs = append(segs, s.Muted.Render("MCP room"))
	}
	segs = append(segs, m.budgetBar(used, limit, unit))
	switch {
	case m.st.Closed != nil:
		segs = append(segs, s.Muted.Render("closed"))
	case m.cfg.IsDebate() && m.runGone:
		segs = append(segs, s.Warning.Render("its process ended: not running"))
	case m.cfg.IsDebate() && m.st.Paused != nil:
		// Its run waits for the person at its screen (enter goes on).
		segs = append(segs, s.Warning.Render(fmt.Sprintf("paused after round %d", m.st.Paused.Round)))
	case m.cfg.IsDebate():
		// A debate has no turns to take; its seats line says who spoke.
	case m.st.OutOfBudget && m.st.Turn == room.SeatLead:
		segs = append(segs, s.Warning.Render("budget spent: the lead writes the spec and closes"))
	default:
		segs = append(segs, s.Muted.Render("turn ")+m.list.look(m.st.Turn).name)
	}
	return append(segs, s.Muted.Render(m.elapsed()))
}

// budgetBar draws rounds used of the budget: "████░░░░ 3 of 8 rounds".
func (m *Model) budgetBar(used, limit int, unit string) string {
	s := m.styles
	if limit <= 0 {
		return s.Muted.Render(fmt.Sprintf("%d %s (no limit)", used, unit))
	}
	filled := barCells(used, limit, budgetCells)
	fill := s.BudgetUsed
	if used >= limit {
		fill = s.BudgetSpent
	}
	bar := fill.Render(strings.Repeat("█", filled)) + s.BudgetLeft.Render(strings.Repeat("░", budgetCells-filled))
	return bar + " " + s.Text.Render(fmt.Sprintf("%d of %d %s", used, limit, unit))
}

// barCells is how many of cells a bar fills for used of limit: rounded
// down, at least one once anything is used, all of them when used reaches
// the limit.
func barCells(used, limit, cells int) int {
	switch {
	case limit <= 0 || used <= 0:
		return 0
	case used >= limit:
		return cells
	}
	return max(used*cells/limit, 1)
}

func maxRound(msgs []room.Message) int {
	top := 0
	for i := range msgs {
		top = max(top, msgs[i].Round)
	}
	return top
}

// elapsed says how long the room has run: since the first message while it
// is open, from the first message to the close once it is closed.
func (m *Model) elapsed() string {
	first, ok := firstTime(m.st.Messages)
	if !ok {
		return "no messages yet"
	}
	if c := m.st.Closed; c != nil {
		end, err := time.Parse(time.RFC3339Nano, c.At)
		if err != nil || end.Before(first) {
			return "closed"
		}
		return "lasted " + formatDuration(end.Sub(first))
	}
	return formatDuration(m.now.Sub(first)) + " since the first message"
}

func firstTime(msgs []room.Message) (time.Time, bool) {
	var first time.Time
	for i := range msgs {
		if t := msgs[i].Time(); !t.IsZero() && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	return first, !first.IsZero()
}

// formatDuration is a short human duration: 42s, 3m, 2h07m, 3d04h.
// Seconds show only in the first minute, so a screen left open ticks once
// a minute after that (an idle watch costs a repaint a minute, not one a
// second).
func formatDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Truncate(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}

// untilChange is how long until formatDuration(d) reads differently. It
// asks formatDuration itself at the next whole second, minute and hour, so
// it follows any change to the format.
func untilChange(d time.Duration) time.Duration {
	if d < 0 {
		return time.Second - d // shown as 0s until a second has passed
	}
	cur := formatDuration(d)
	for _, unit := range []time.Duration{time.Second, time.Minute, time.Hour} {
		step := unit - d%unit
		if formatDuration(d+step) != cur {
			return step
		}
	}
	return maxTickWait
}

// seatLines says, per seat, who holds it and what it is doing, from
// server.log. A state too long for the line wraps under itself, unless
// that leaves a short screen too few rows for the messages: then each
// seat takes one line, cut, and past a quarter of the screen the rest are
// counted on one line.
func (m *Model) seatLines(w int) []string {
	budget := max(m.height/4, 2)
	full := m.seatLinesAt(w, false)
	if len(full) <= budget || m.height == 0 {
		return full
	}
	compact := m.seatLinesAt(w, true)
	if len(compact) <= budget {
		return compact
	}
	more := len(compact) - (budget - 1)
	return append(compact[:budget-1:budget-1], m.styles.Muted.Render(fmt.Sprintf("… and %d more seats", more)))
}

// seatLinesAt is seatLines, each seat on one line when compact.
func (m *Model) seatLinesAt(w int, compact bool) []string {
	s := m.styles
	seats := m.seats
	if m.council() {
		seats = m.councilSeats()
	}
	if len(seats) == 0 {
		seats = []room.SeatInfo{{Seat: room.SeatLead, State: room.StateAbsent}, {Seat: room.SeatPeer, State: room.StateAbsent}}
	}
	nameW, agentW := 4, 1
	who := make([]string, len(seats))
	for i, si := range seats {
		proc, started := m.procs[si.Seat]
		who[i] = whoFills(si, proc, started)
		nameW = max(nameW, xansi.StringWidth(mdrender.Inline(si.Seat)))
		agentW = max(agentW, xansi.StringWidth(who[i]))
	}
	nameW, agentW = min(nameW, 16), min(agentW, maxWhoWidth)
	indent := nameW + 2 + agentW + 2
	out := make([]string, 0, len(seats))
	for i, si := range seats {
		name := xansi.Truncate(mdrender.Inline(si.Seat), nameW, "…")
		lead := m.list.look(si.Seat).name
		if name != mdrender.Inline(si.Seat) {
			lead = xansi.Truncate(lead, nameW, "…")
		}
		prefix := lead + strings.Repeat(" ", nameW-xansi.StringWidth(name)) + "  " +
			s.Text.Render(padRight(xansi.Truncate(who[i], agentW, "…"), agentW)) + "  "
		state := m.procState(si)
		if state == "" {
			state = m.seatState(si)
		}
		if compact || indent+10 > w {
			out = append(out, xansi.Truncate(prefix+state, w, "…"))
			continue
		}
		if w-indent < minStateWidth {
			// Narrow: who holds the seat on its line, the state under it.
			out = append(out, xansi.Truncate(strings.TrimRight(prefix, " "), w, "…"))
			under := nameW + 2
			for _, line := range splitLines(cells.Wrap(state, w-under)) {
				out = append(out, strings.Repeat(" ", under)+line)
			}
			continue
		}
		for i, line := range splitLines(cells.Wrap(state, w-indent)) {
			if i == 0 {
				out = append(out, prefix+line)
			} else {
				out = append(out, strings.Repeat(" ", indent)+line)
			}
		}
	}
	return out
}

// minStateWidth is the narrowest a seat's state goes beside who holds
// it; narrower, it goes under.
const minStateWidth = 36

// maxWhoWidth bounds the column saying who holds each seat.
const maxWhoWidth = 40

func padRight(s string, w int) string {
	return s + strings.Repeat(" ", max(w-xansi.StringWidth(s), 0))
}

// personaSegments list a debate's personas with their turns, and the
// moderator.
func (m *Model) personaSegments() []string {
	s := m.styles
	turns := map[string]int{}
	verdict := false
	for i := range m.st.Messages {
		msg := &m.st.Messages[i]
		if isVerdict(msg) {
			verdict = true
			continue
		}
		if msg.Kind == room.KindRanking {
			continue // a peer ranking (--rank) is no turn
		}
		turns[msg.Seat]++
	}
	seen := map[string]bool{}
	var segs []string
	add := func(seat, note string) {
		if seen[seat] {
			return
		}
		seen[seat] = true
		segs = append(segs, m.list.look(seat).name+" "+s.Muted.Render(note))
	}
	for _, a := range m.cfg.Agents {
		note := plural(turns[a], "turn")
		if st := m.cfg.StanceOf(a); st != "" {
			note = mdrender.Inline(st) + " · " + note // debate --stances
		}
		add(a, note)
	}
	for i := range m.st.Messages {
		if seat := m.st.Messages[i].Seat; !isVerdict(&m.st.Messages[i]) {
			add(seat, plural(turns[seat], "turn"))
		}
	}
	switch {
	case verdict:
		add(room.SeatModerator, "verdict given")
	case m.st.Closed == nil:
		add(room.SeatModerator, "verdict to come")
	default:
		add(room.SeatModerator, "no verdict")
	}
	return segs
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// wrapSegments joins segments with sep into lines of at most width
// columns, starting a new line rather than splitting a segment; a segment
// wider than a line is truncated.
func wrapSegments(segs []string, sep string, width int) []string {
	var lines []string
	cur, curW := "", 0
	sepW := xansi.StringWidth(sep)
	for _, seg := range segs {
		segW := xansi.StringWidth(seg)
		if segW > width {
			seg, segW = xansi.Truncate(seg, width, "…"), width
		}
		switch {
		case cur == "":
			cur, curW = seg, segW
		case curW+sepW+segW <= width:
			cur += sep + seg
			curW += sepW + segW
		default:
			lines = append(lines, cur)
			cur, curW = seg, segW
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
