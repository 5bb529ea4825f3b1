package cells

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap word-wraps s (styled or not, newlines kept) to lines of at most w
// cells, breaking a word longer than a line. ansi.Wrap alone can leave a
// line one cell or more too wide when it ends in a hyphen (a word and the
// breakpoint after it are written without a width check,
// charmbracelet/x#785); Wrap splits such a line again, so a screen that
// fits its lines to w never cuts text. A hyphen that starts a word (a
// flag: --room, -v) is no place to break, as ansi.Wrap takes every hyphen
// to be: "roundtable -" then "-room cache" is a line a user copies wrong.
func Wrap(s string, w int) string {
	if w <= 0 || s == "" {
		return s
	}
	p, held := holdFlagHyphens(s)
	wrapped := ansi.Wrap(p, w, "")
	if Widest(wrapped) > w {
		wrapped = strings.Join(SplitAll(strings.Split(wrapped, "\n"), w), "\n")
	}
	if held {
		wrapped = strings.ReplaceAll(wrapped, string(heldHyphen), "-")
	}
	return wrapped
}

// heldHyphen stands in for a hyphen that starts a word while ansi.Wrap
// runs: a non-breaking hyphen, one cell wide as a hyphen is.
const heldHyphen = '\u2011'

// holdFlagHyphens is s with each hyphen that starts a word (after a
// space, a line's start, an opening bracket or quote, or another such
// hyphen) held as heldHyphen, and whether any was; s as it is when it
// holds a heldHyphen of its own, which could not be told apart after.
func holdFlagHyphens(s string) (string, bool) {
	if !strings.Contains(s, "-") || strings.ContainsRune(s, heldHyphen) {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	prev, prevHeld, any := ' ', false, false
	for _, r := range s {
		if r == '-' && (prevHeld || strings.ContainsRune(wordStarts, prev)) {
			b.WriteRune(heldHyphen)
			prev, prevHeld, any = r, true, true
			continue
		}
		b.WriteRune(r)
		prev, prevHeld = r, false
	}
	if !any {
		return s, false
	}
	return b.String(), true
}

// wordStarts are the characters after which a hyphen starts a word.
const wordStarts = " \n\t([{\"'`"

// Widest is the width in cells of the widest line of s.
func Widest(s string) int {
	most := 0
	for line := range strings.SplitSeq(s, "\n") {
		most = max(most, ansi.StringWidth(line))
	}
	return most
}

// SplitAll is lines with every line wider than w split by Split.
func SplitAll(lines []string, w int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, Split(l, w)...)
	}
	return out
}

// Split breaks one line (styled or not) wider than w cells into lines of at
// most w cells: at the last space that fits, else after w cells (or fewer,
// when a wide character would straddle the edge). The lines after the
// first start with the line's indentation (its leading spaces and quote
// bars) when that leaves room, so a quoted or indented paragraph stays in
// place. A line that fits is returned as it is.
func Split(line string, w int) []string {
	if w <= 0 || ansi.StringWidth(line) <= w {
		return []string{line}
	}
	plain := ansi.Strip(line)
	indent := leadingIndent(plain)
	iw := ansi.StringWidth(indent)
	if iw > w/2 {
		indent, iw = "", 0
	}
	var out []string
	cur, from := line, 0
	for ansi.StringWidth(cur) > w {
		cut, skip := breakAt(ansi.Strip(cur), w, from)
		head := ansi.Truncate(cur, cut, "")
		if strings.Contains(head, "\x1b[") {
			head += "\x1b[m" // the style goes on in the next piece
		}
		out = append(out, head)
		cur = indent + ansi.TruncateLeft(cur, cut+skip, "")
		from = iw
	}
	return append(out, cur)
}

// breakAt finds where to break plain, a line wider than w: the cell before
// the last space that leaves the first line no wider than w and with text
// after its first from cells (the indentation), and how many cells of
// spaces to drop there; without such a space, the most cells of whole
// characters that fit (at least one character).
func breakAt(plain string, w, from int) (cut, skip int) {
	pos, lastSpace, fit := 0, -1, 0
	for rest := plain; rest != ""; {
		cluster, cw := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		rest = rest[len(cluster):]
		if cluster == " " && pos > from {
			lastSpace = pos // a space just past the edge is a break too
		}
		if pos+cw > w {
			break
		}
		pos += cw
		fit = pos
	}
	if lastSpace > 0 {
		skip = 0
		for _, r := range plain[byteAt(plain, lastSpace):] {
			if r != ' ' {
				break
			}
			skip++
		}
		return lastSpace, skip
	}
	if fit == 0 {
		// A character wider than the whole line: it goes alone.
		_, cw := ansi.FirstGraphemeCluster(plain, ansi.GraphemeWidth)
		return max(cw, 1), 0
	}
	return fit, 0
}

// byteAt is the byte offset of the cell at pos in plain (pos falls on a
// character's first cell).
func byteAt(plain string, pos int) int {
	at, i := 0, 0
	for i < len(plain) && at < pos {
		cluster, cw := ansi.FirstGraphemeCluster(plain[i:], ansi.GraphemeWidth)
		i += len(cluster)
		at += cw
	}
	return i
}

// leadingIndent is the run of spaces and quote bars ("│") that starts a
// line.
func leadingIndent(plain string) string {
	end := 0
	for i, r := range plain {
		if r != ' ' && r != '│' {
			break
		}
		end = i + len(string(r))
	}
	return plain[:end]
}
