package watch

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// itemKind is what one entry of the message list shows.
type itemKind int

const (
	kindMessage itemKind = iota // a message, in its seat's colour
	kindSkipped                 // a file that could not be read: a warning line
	kindVerdict                 // the moderator's verdict, in a panel of its own
	kindDraft                   // a seat's message being written, dim, last
	kindNote                    // a note from the host (or user), as a band (note.go)
)

// item is one entry of the message list.
type item struct {
	kind    itemKind
	key     string        // stable across refreshes: the file name
	msg     *room.Message // kindMessage, kindVerdict
	skipped room.Skipped  // kindSkipped
	draft   *room.Draft   // kindDraft
	note    *room.Note    // kindNote
	round   int           // > 0: a round starts here
}

// seatLook is a seat's styles and the fragments rendered with them.
type seatLook struct {
	name    string         // the seat's name, in its colour
	bar     string         // the bar before each line of its messages
	barOnly string         // the bar alone, for an empty line
	border  lipgloss.Style // the seat's colour, for panel borders
}

func isVerdict(m *room.Message) bool {
	return m.Seat == room.SeatModerator && m.Kind == room.KindSummary
}

func countLines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

// buildItems lays out a room's state: messages in order with round
// dividers, each unreadable file as a warning where its number puts it, and
// the moderator's verdicts last, set apart.
func buildItems(st room.State, debate bool, r *room.Room) []item {
	items := make([]item, 0, len(st.Messages)+len(st.Skipped))
	skipped := sortedSkipped(st.Skipped, r)
	var verdicts []item
	round, prevRound, si := 0, 0, 0
	for i := range st.Messages {
		m := &st.Messages[i]
		for si < len(skipped) && skippedSeq(skipped[si]) < m.Seq {
			items = append(items, skippedItem(skipped[si]))
			si++
		}
		if isVerdict(m) {
			verdicts = append(verdicts, item{kind: kindVerdict, key: "v:" + m.File, msg: m})
			continue
		}
		it := item{kind: kindMessage, key: "m:" + m.File, msg: m}
		switch {
		case !debate && m.Seat == room.SeatLead:
			round++
			it.round = round
		case debate && m.Round != prevRound:
			prevRound = m.Round
			it.round = max(m.Round, 0)
		}
		items = append(items, it)
	}
	for ; si < len(skipped); si++ {
		items = append(items, skippedItem(skipped[si]))
	}
	return append(placeNotes(items, st.Notes), verdicts...)
}

func skippedItem(s room.Skipped) item {
	return item{kind: kindSkipped, key: "s:" + s.File, skipped: s}
}

func skippedSeq(s room.Skipped) int {
	seq, _ := room.ParseMessageFileName(s.File)
	return seq
}

// sortedSkipped orders unreadable files by number and makes them
// presentable: sanitized, and the room's folder trimmed from reasons.
func sortedSkipped(in []room.Skipped, r *room.Room) []room.Skipped {
	out := make([]room.Skipped, len(in))
	for i, s := range in {
		reason := s.Reason
		if r != nil {
			reason = strings.ReplaceAll(reason, r.MessagesDir()+string(filepath.Separator), "")
			reason = strings.ReplaceAll(reason, r.Dir()+string(filepath.Separator), "")
		}
		out[i] = room.Skipped{File: mdrender.Inline(s.File), Reason: mdrender.Inline(reason)}
	}
	// Few files are ever skipped: an insertion sort keeps it simple.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && lessSkipped(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func lessSkipped(a, b room.Skipped) bool {
	if sa, sb := skippedSeq(a), skippedSeq(b); sa != sb {
		return sa < sb
	}
	return a.File < b.File
}

// render draws one item at the list's width.
func (l *msgList) render(it *item) []string {
	switch it.kind {
	case kindSkipped:
		return l.renderSkipped(it.skipped)
	case kindVerdict:
		return l.renderVerdict(it.msg)
	case kindDraft:
		return l.renderDraft(it.draft)
	case kindNote:
		return l.renderNote(it.note)
	default:
		return l.renderMessage(it)
	}
}

func (l *msgList) renderMessage(it *item) []string {
	m := it.msg
	look := l.look(m.Seat)
	var out []string
	if it.round > 0 {
		out = append(out, l.roundRule(it.round))
	}
	left := look.name
	if agent := mdrender.Inline(m.Agent); agent != "" {
		left += " " + l.styles.Text.Render(agent)
	}
	if kind := mdrender.Inline(m.Kind); kind != "" {
		left += "  " + l.styles.Muted.Render(kind)
	}
	right := l.styles.Faint.Render(fmt.Sprintf("#%d · %s", m.Seq, l.clock(m)))
	out = append(out, fitLR(left, right, l.width))
	if line := l.activityLine(m.Activity); line != "" {
		out = append(out, line)
	}
	body := l.md().Render(m.Text, l.bodyWidth())
	if body == "" {
		out = append(out, look.bar+l.styles.Faint.Render("(no text)"))
	}
	for _, line := range splitLines(body) {
		if line == "" {
			out = append(out, look.barOnly)
			continue
		}
		out = append(out, look.bar+line)
	}
	return append(out, "")
}

func (l *msgList) renderVerdict(m *room.Message) []string {
	look := l.look(m.Seat)
	b := look.border
	inner := max(l.width-4, 1)
	title := l.styles.Strong.Render("Moderator's verdict")
	if agent := mdrender.Inline(m.Agent); agent != "" {
		title += " " + l.styles.Muted.Render(agent)
	}
	stamp := l.styles.Faint.Render(fmt.Sprintf("#%d · %s", m.Seq, l.clock(m)))
	// "╭─ title ──── stamp ─╮": the fixed parts take 8 columns.
	fill := l.width - 8 - xansi.StringWidth(title) - xansi.StringWidth(stamp)
	var top string
	if fill >= 1 {
		top = b.Render("╭─ ") + title + " " + b.Render(strings.Repeat("─", fill)) + " " + stamp + b.Render(" ─╮")
	} else {
		top = b.Render("╭─ ") + xansi.Truncate(title, max(l.width-5, 1), "…") + b.Render(" ╮")
	}
	out := []string{top}
	side := b.Render("│")
	body := l.md().Render(m.Text, inner)
	for _, line := range splitLines(body) {
		pad := max(inner-xansi.StringWidth(line), 0)
		out = append(out, side+" "+line+strings.Repeat(" ", pad)+" "+side)
	}
	out = append(out, b.Render("╰"+strings.Repeat("─", max(l.width-2, 0))+"╯"), "")
	return out
}

func (l *msgList) renderSkipped(s room.Skipped) []string {
	text := fmt.Sprintf("message file %s could not be read and is left out: %s", s.File, s.Reason)
	wrapped := splitLines(cells.Wrap(text, max(l.width-2, 10)))
	out := make([]string, 0, len(wrapped)+1)
	for i, line := range wrapped {
		prefix := "  "
		if i == 0 {
			prefix = "⚠ "
		}
		out = append(out, l.styles.Warning.Render(prefix+line))
	}
	return append(out, "")
}

// roundRule is the divider that opens a round: "── round 2 of 4 ────".
func (l *msgList) roundRule(round int) string {
	label := fmt.Sprintf(" round %d ", round)
	if limit := l.roundLimit(); limit > 0 {
		label = fmt.Sprintf(" round %d of %d ", round, limit)
	}
	fill := max(l.width-2-xansi.StringWidth(label), 0)
	return l.styles.Rule.Render("──" + label + strings.Repeat("─", fill))
}

func (l *msgList) roundLimit() int {
	if l.cfg.IsDebate() {
		return l.cfg.Rounds
	}
	return l.cfg.Budget
}

// clock formats a message's time: the time of day, with the date when the
// room spans more than one day.
func (l *msgList) clock(m *room.Message) string {
	t := m.Time()
	if t.IsZero() {
		return "time unknown"
	}
	if l.multiDay {
		return t.In(l.loc).Format("2006-01-02 15:04:05")
	}
	return t.In(l.loc).Format(time.TimeOnly)
}

// splitLines splits rendered text into lines; "" has none.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// fitLR puts left and right on one line of width columns, right-aligned,
// truncating left when they do not fit.
func fitLR(left, right string, width int) string {
	lw, rw := xansi.StringWidth(left), xansi.StringWidth(right)
	if lw+1+rw <= width {
		return left + strings.Repeat(" ", width-lw-rw) + right
	}
	if rw+2 > width {
		return xansi.Truncate(left, width, "…")
	}
	return xansi.Truncate(left, width-rw-1, "…") + " " + right
}
