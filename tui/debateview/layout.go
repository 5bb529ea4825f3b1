package debateview

import (
	"strings"

	"github.com/roundtable-dev/roundtable/tui/internal/cells"
)

// Layout constants.
const (
	// narrowWidth: below it the screen shows one persona at a time, with
	// tabs.
	narrowWidth = 100
	// minColumnWidth is the narrowest column (frame included) worth
	// showing side by side; when the personas do not all fit, the screen
	// shows as many as fit and tabs for the rest.
	minColumnWidth = 30
	// columnGap is the space between two columns.
	columnGap = 1
	// frameWidth is what a column's frame and padding take from its width:
	// a border and a space on each side.
	frameWidth = 4
	// headerRows and footerRows are the rows above and below the body.
	headerRows = 2
	footerRows = 2
	// minPaneRows is the least height of the columns under a verdict.
	minPaneRows = 6
)

// visibleColumns is how many of n columns are shown side by side in width
// columns of terminal.
func visibleColumns(width, n int) int {
	if n <= 0 {
		return 0
	}
	if width < narrowWidth {
		return 1
	}
	k := (width + columnGap) / (minColumnWidth + columnGap)
	return clamp(k, 1, n)
}

// splitWidths divides width among k columns separated by gap (cells.Columns).
func splitWidths(width, k, gap int) []int { return cells.Columns(width, k, gap) }

// windowStart is the first of k visible columns out of n: the previous
// start when the focused column is still inside that window, else the
// nearest start that shows it.
func windowStart(prev, focus, k, n int) int {
	if k >= n {
		return 0
	}
	start := clamp(prev, 0, n-k)
	if focus < start {
		start = focus
	}
	if focus >= start+k {
		start = focus - k + 1
	}
	return clamp(start, 0, n-k)
}

// splitBody divides the rows of the body between the columns and the
// verdict panel below them: the panel gets what its text needs (want lines
// plus its frame), at most about half the body, and the columns keep at
// least minPaneRows.
func splitBody(rows, want int) (cols, panel int) {
	if rows <= 0 {
		return 0, 0
	}
	panel = clamp(want+2, 3, max(rows/2, 8))
	if rows-panel < minPaneRows {
		panel = rows - minPaneRows
	}
	if panel < 3 {
		return rows, 0
	}
	return rows - panel, panel
}

// fitLines splits rendered text into lines of exactly w cells.
func fitLines(text string, w int) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = cells.Fit(l, w)
	}
	return lines
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}
