// Package hints draws the key hints under a screen, the one-line short
// help or the full help, within the screen's width.
//
// Bubbles' help cuts the short line from its end, so `q quit`, listed last,
// was the first hint to go on a narrow screen, and when even its ellipsis
// did not fit it gave up and wrote every hint past the edge. Here the hint
// of q and then the hint of ? stay; the others give way, the last listed
// first, and " … " marks where hints were left out. The full help's
// columns flow onto more rows instead of running off the screen.
package hints

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"

	"github.com/roundtable-dev/roundtable/tui/internal/cells"
)

// View is m's help for k, short or full (m.ShowAll), in lines of at most
// width cells, with m's styles and separators. A key map with a MainHelp
// (Mainer) keeps those hints on a narrow line right after q's and ?'s.
func View(m help.Model, k help.KeyMap, width int) string {
	if m.ShowAll {
		return Full(m, k.FullHelp(), width)
	}
	var main []key.Binding
	if mk, ok := k.(Mainer); ok {
		main = mk.MainHelp()
	}
	return ShortMain(m, k.ShortHelp(), main, width)
}

// Mainer is a key map that names its screen's main actions: their hints
// stay on the short line as long as q's and ?'s do, before the palette's
// and the rest, so a narrow screen still shows what it is for.
type Mainer interface {
	MainHelp() []key.Binding
}

// kept ranks the hints that stay longest: q first, then ?, then the
// palette's ctrl+p (every command is one key away from it).
var kept = []string{"q", "?", "ctrl+p"}

// ShortMain is Short keeping main's hints (bindings among those listed)
// right after q's and ?'s, before ctrl+p's and the rest.
func ShortMain(m help.Model, bindings, main []key.Binding, width int) string {
	enabled := slices.DeleteFunc(slices.Clone(bindings), func(b key.Binding) bool { return !b.Enabled() })
	if len(enabled) == 0 {
		return ""
	}
	items := make([]string, len(enabled))
	for i, b := range enabled {
		items[i] = m.Styles.ShortKey.Inline(true).Render(b.Help().Key) + " " +
			m.Styles.ShortDesc.Inline(true).Render(b.Help().Desc)
	}
	var rank []int // the order in which items are given room
	take := func(match func(b key.Binding) bool) {
		for i, b := range enabled {
			if match(b) && !slices.Contains(rank, i) {
				rank = append(rank, i)
			}
		}
	}
	for _, k := range kept[:2] { // q, ?
		take(func(b key.Binding) bool { return b.Help().Key == k })
	}
	for _, mb := range main {
		take(func(b key.Binding) bool { return b.Help() == mb.Help() })
	}
	for _, k := range kept[2:] {
		take(func(b key.Binding) bool { return b.Help().Key == k })
	}
	keptN := len(rank)
	for i := range items {
		if !slices.Contains(rank, i) {
			rank = append(rank, i)
		}
	}
	ell := m.Styles.Ellipsis.Inline(true)
	j := joiner{
		sep:  m.Styles.ShortSeparator.Inline(true).Render(m.ShortSeparator),
		gap:  ell.Render(" " + m.Ellipsis + " "),
		head: ell.Render(m.Ellipsis + " "),
		tail: ell.Render(" " + m.Ellipsis),
	}
	shown := make([]bool, len(items))
	line := ""
	for n, i := range rank {
		shown[i] = true
		candidate := j.join(items, shown, true)
		if lipgloss.Width(candidate) > width {
			// The hints before the marks of what is left out.
			candidate = j.join(items, shown, false)
		}
		if lipgloss.Width(candidate) > width {
			shown[i] = false
			if n >= keptN {
				break // the rest give way in the order listed
			}
			continue
		}
		line = candidate
	}
	if line == "" {
		// Not even q's hint fits: show what does.
		return cells.Truncate(items[rank[0]], width)
	}
	return line
}

// joiner joins hints: sep between two, gap where hints were left out
// between them, head and tail where they were left out before the first
// or after the last.
type joiner struct{ sep, gap, head, tail string }

// join joins the shown items, marking what is left out when marks is set.
func (j joiner) join(items []string, shown []bool, marks bool) string {
	var b strings.Builder
	skipped, started := false, false
	for i, it := range items {
		if !shown[i] {
			skipped = true
			continue
		}
		switch {
		case started && skipped && marks:
			b.WriteString(j.gap)
		case started:
			b.WriteString(j.sep)
		case skipped && marks:
			b.WriteString(j.head)
		}
		b.WriteString(it)
		skipped, started = false, true
	}
	if skipped && started && marks {
		b.WriteString(j.tail)
	}
	return b.String()
}

// flow lays every enabled hint of groups out in lines of at most width
// cells, in order, separated as on the short line.
func flow(m help.Model, groups [][]key.Binding, width int) string {
	sep := m.Styles.ShortSeparator.Inline(true).Render(m.ShortSeparator)
	var lines []string
	line := ""
	for _, g := range groups {
		for _, b := range g {
			if !b.Enabled() {
				continue
			}
			it := m.Styles.FullKey.Inline(true).Render(b.Help().Key) + " " + m.Styles.FullDesc.Inline(true).Render(b.Help().Desc)
			switch {
			case line == "":
				line = it
			case lipgloss.Width(line+sep+it) <= width:
				line += sep + it
			default:
				lines = append(lines, line)
				line = it
			}
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	for i, l := range lines {
		lines[i] = cells.Truncate(l, width)
	}
	return strings.Join(lines, "\n")
}

// Full is the full help: one column per group, side by side, flowing onto
// more rows (a blank line between) when they do not fit in width cells.
func Full(m help.Model, groups [][]key.Binding, width int) string {
	var cols []string
	for _, g := range groups {
		var keys, descs []string
		for _, b := range g {
			if b.Enabled() {
				keys = append(keys, b.Help().Key)
				descs = append(descs, b.Help().Desc)
			}
		}
		if len(keys) == 0 {
			continue
		}
		cols = append(cols, lipgloss.JoinHorizontal(lipgloss.Top,
			m.Styles.FullKey.Render(strings.Join(keys, "\n")), " ",
			m.Styles.FullDesc.Render(strings.Join(descs, "\n"))))
	}
	sep := m.Styles.FullSeparator.Inline(true).Render(m.FullSeparator)
	var rows []string
	var row []string
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowW = nil, 0
		}
	}
	for _, c := range cols {
		cw := lipgloss.Width(c)
		if len(row) > 0 && rowW+lipgloss.Width(sep)+cw > width {
			flush()
		}
		if len(row) > 0 {
			row = append(row, sep)
			rowW += lipgloss.Width(sep)
		}
		row = append(row, c)
		rowW += cw
	}
	flush()
	if len(rows) > 1 {
		// The columns do not fit side by side: every hint flows in lines
		// instead, as many as fit in a line, which takes far fewer rows
		// than columns stacked, so a small screen shows all of them.
		return flow(m, groups, width)
	}
	out := strings.Join(rows, "\n\n")
	if cells.Widest(out) <= width {
		return out
	}
	// A column wider than the screen itself is cut with an ellipsis.
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = cells.Truncate(l, width)
	}
	return strings.Join(lines, "\n")
}
