package debateview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// The peer ranking (debate.Config.Rank) shows in the verdict's pane: while
// the personas rank each other's final turns and once they have, a table
// of each persona's mean position heads the pane, above the verdict.

// rankTableHeader heads the table.
const rankTableHeader = debate.RankTableHeader

// ranks is what the verdict's pane knows of the peer ranking.
type ranks struct {
	given []debate.Ranking // the rankings so far, in speaking order
	// want is how many rankings the debate asks for: one per persona
	// once the rounds are over in a debate that ranks (its room says
	// so), 0 while none is awaited.
	want int

	lines []string // the table as drawn, for key
	key   rankKey
}

// rankKey is what the table was drawn from.
type rankKey struct {
	w, n int
	dark bool
}

// ranked takes a persona's ranking: its row in the table, its cost in its
// column's. The verdict is awaited from now on.
func (m *Model) ranked(ev debate.Event) {
	v := &m.verdict
	v.ranks.given = append(v.ranks.given, debate.Ranking{Agent: ev.Agent, Round: ev.Round, Model: ev.Model, Order: ev.Ranking})
	v.ranks.want = max(v.ranks.want, len(m.cols))
	if v.text == "" && v.err == "" {
		v.waiting = true
	}
	v.gen++
	if ev.Usage != nil {
		m.usage.Add(*ev.Usage)
		m.countTurn(ev.Agent, *ev.Usage)
	}
	if m.autoFocus {
		m.focus = len(m.cols)
	}
}

// awaitRanks notes, once the rounds are over, that the personas are about
// to rank each other: when the debate's room says it ranks.
func (m *Model) awaitRanks() {
	if m.room != nil && m.room.Config().Rank {
		m.verdict.ranks.want = max(m.verdict.ranks.want, len(m.cols))
	}
}

// ranking reports whether the personas are ranking each other now: some
// rankings are still to come and the moderator has not begun.
func (v *verdictPane) ranking() bool {
	return v.waiting && v.grow == nil && v.text == "" && len(v.ranks.given) < v.ranks.want
}

// rankingMessage is what the pane says while the personas rank.
func (v *verdictPane) rankingMessage() string {
	return fmt.Sprintf("The panel is ranking each other's final turns, shown without names (%d of %d in)…", len(v.ranks.given), v.ranks.want)
}

// rankLines is the table at inner width w, drawn again only when it
// changed; none before the first ranking.
func (m *Model) rankLines(w int) []string {
	r := &m.verdict.ranks
	if len(r.given) == 0 {
		return nil
	}
	key := rankKey{w: w, n: len(r.given), dark: m.styles.Dark}
	if key == r.key && r.lines != nil {
		return r.lines
	}
	r.key = key
	r.lines = r.lines[:0]
	r.lines = append(r.lines, cells.Fit(m.styles.Strong.Render(cells.Truncate(rankTableHeader, w)), w))
	for _, row := range rankRows(debate.AggregateRankings(r.given, m.agents), w) {
		name := row.name
		if i, ok := m.byName[row.who]; ok {
			name = m.cols[i].seat.Name.Render(name)
		}
		line := row.place + name + row.gap + row.mean
		if row.count != "" {
			line += m.styles.Muted.Render(row.count)
		}
		r.lines = append(r.lines, cells.Fit(line, w))
	}
	r.lines = append(r.lines, cells.Fit("", w))
	m.verdict.gen++
	return r.lines
}

// rankRow is one row of the table, in cells that join to at most the
// table's width: the place, the name (cut to fit), the gap that aligns
// the figures, the mean position and the number of rankers (left out
// when the width has no room for it).
type rankRow struct {
	who                           string // the persona's name, uncut
	place, name, gap, mean, count string
}

// Widths of the table's cells besides the name.
const (
	rankPlaceW = 4  // " 1. "
	rankMeanW  = 5  // "  1.5", "    –"
	rankCountW = 12 // "  2 rankers"
	rankNameW  = 4  // the least a name gets
)

// rankRows lays the table's rows out at width w, one per standing, best
// first: the names cut so every row fits, the figures aligned.
func rankRows(ss []debate.RankStanding, w int) []rankRow {
	withCount := w >= rankPlaceW+rankNameW+rankMeanW+rankCountW
	room := w - rankPlaceW - rankMeanW
	if withCount {
		room -= rankCountW
	}
	nameW := 0
	for _, s := range ss {
		nameW = max(nameW, ansi.StringWidth(mdrender.Inline(s.Name)))
	}
	nameW = max(min(nameW, room), 1)
	out := make([]rankRow, len(ss))
	for i, s := range ss {
		name := cells.Truncate(mdrender.Inline(s.Name), nameW)
		row := rankRow{
			who:   s.Name,
			place: fmt.Sprintf("%2d. ", i+1),
			name:  name,
			gap:   strings.Repeat(" ", max(nameW-ansi.StringWidth(name), 0)),
			mean:  fmt.Sprintf("%*s", rankMeanW, "–"),
		}
		if s.Rankers > 0 {
			row.mean = fmt.Sprintf("%*.1f", rankMeanW, s.Mean)
		}
		if withCount {
			word := "rankers"
			if s.Rankers == 1 {
				word = "ranker"
			}
			row.count = fmt.Sprintf("  %d %s", s.Rankers, word)
		}
		out[i] = row
	}
	return out
}
