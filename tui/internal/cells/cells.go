// Package cells sizes text by terminal cells for the screens: a line cut or
// padded to an exact width, a value cut with an ellipsis.
package cells

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Fit pads or cuts a line (styled or not) to exactly w cells. A wide rune
// that would straddle the edge is dropped and the cell padded.
func Fit(line string, w int) string {
	if w <= 0 {
		return ""
	}
	lw := ansi.StringWidth(line)
	switch {
	case lw == w:
		return line
	case lw < w:
		return line + strings.Repeat(" ", w-lw)
	}
	cut := ansi.Truncate(line, w, "")
	if cw := ansi.StringWidth(cut); cw < w {
		cut += strings.Repeat(" ", w-cw)
	}
	return cut
}

// Truncate cuts a one-line value to at most w cells, ending in an ellipsis
// when it was cut.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// TruncateWords cuts plain text to at most w cells at a space, ending in
// an ellipsis when it was cut, so no word is cut in two; "" when not even
// its first word and the ellipsis fit.
func TruncateWords(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	if w <= 1 {
		return ""
	}
	cut := ansi.Truncate(s, w-1, "")
	i := strings.LastIndexAny(cut, " ·;,")
	if i <= 0 {
		return ""
	}
	return strings.TrimRight(cut[:i], " ·;,") + "…"
}

// Pad is Truncate, then padded to exactly w cells.
func Pad(s string, w int) string { return Fit(Truncate(s, w), w) }

// TruncateMiddle cuts a one-line value to at most w cells by leaving out
// its middle ("…" marks where): an error's start says what failed and its
// end why, and a long path between them is what gives way. Styles are
// dropped when it cuts.
func TruncateMiddle(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	if w < 8 {
		return Truncate(s, w)
	}
	plain := ansi.Strip(s)
	total := ansi.StringWidth(plain)
	tail := (w - 1) / 2
	head := w - 1 - tail
	return ansi.Truncate(plain, head, "") + "…" + ansi.TruncateLeft(plain, total-tail, "")
}

// Columns divides width among k columns separated by gap; the first columns
// take the remainder, so the widths and the gaps add up to width exactly
// (each column at least 1 wide). nil for no column.
func Columns(width, k, gap int) []int {
	if k <= 0 {
		return nil
	}
	avail := max(width-(k-1)*gap, k)
	out := make([]int, k)
	for i := range out {
		out[i] = avail / k
		if i < avail%k {
			out[i]++
		}
	}
	return out
}
