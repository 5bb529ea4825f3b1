package search

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Marks are the looks of matches in the screen's lines: every match, and
// the current one. Each is the escape sequence that starts it.
type Marks struct {
	Match   string
	Current string
}

// NewMarks builds the marks for a dark or a light background.
func NewMarks(dark bool) Marks {
	pick := func(light, darkC string) color.Color {
		if dark {
			return lipgloss.Color(darkC)
		}
		return lipgloss.Color(light)
	}
	return Marks{
		Match:   ansi.Style{}.ForegroundColor(pick("#1f2328", "#e6edf3")).BackgroundColor(pick("#fff8c5", "#5a4a12")).String(),
		Current: ansi.Style{}.Bold().ForegroundColor(pick("#1f2328", "#0d1117")).BackgroundColor(pick("#f2cc60", "#e3b341")).String(),
	}
}

// reset ends every style.
const reset = "\x1b[m"

// Line is what a line shows of a query: how many matches, in its text
// without escape sequences.
func Line(line, query string) int {
	if query == "" {
		return 0
	}
	return count(Fold(strip(line)), query)
}

// Mark draws the matches of query (folded) in line, a line of the screen
// with its escape sequences: each in the Match look, the cur-th one (0-based;
// -1 for none) in the Current look. The line's own styles resume after each
// match. A line without a match comes back as it was.
func Mark(line, query string, cur int, m Marks) string {
	if query == "" {
		return line
	}
	plain := strip(line)
	folded := Fold(plain)
	if !strings.Contains(folded, query) {
		return line
	}
	// The matches as byte ranges of plain.
	type span struct{ a, b int }
	var spans []span
	for off := 0; ; {
		j := strings.Index(folded[off:], query)
		if j < 0 {
			break
		}
		spans = append(spans, span{off + j, off + j + len(query)})
		off += j + len(query)
	}
	var out strings.Builder
	out.Grow(len(line) + len(spans)*(len(m.Current)+16))
	var active strings.Builder // the line's SGR sequences since its last reset
	p := 0                     // bytes of plain text copied
	si := 0                    // the next (or current) span
	in := false
	look := func() string {
		if si == cur {
			return m.Current
		}
		return m.Match
	}
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			n := escLen(line[i:])
			seq := line[i : i+n]
			out.WriteString(seq)
			if isSGR(seq) {
				if isReset(seq) {
					active.Reset()
				} else {
					active.WriteString(seq)
				}
				if in {
					out.WriteString(look()) // the line's style must not hide the match
				}
			}
			i += n
			continue
		}
		if !in && si < len(spans) && p == spans[si].a {
			out.WriteString(look())
			in = true
		}
		out.WriteByte(line[i])
		i++
		p++
		if in && p == spans[si].b {
			out.WriteString(reset)
			out.WriteString(active.String())
			in = false
			si++
		}
	}
	if in {
		out.WriteString(reset)
	}
	return out.String()
}

// strip is line without its escape sequences, as Mark walks it.
func strip(line string) string {
	if strings.IndexByte(line, 0x1b) < 0 {
		return line
	}
	var b strings.Builder
	b.Grow(len(line))
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			i += escLen(line[i:])
			continue
		}
		b.WriteByte(line[i])
		i++
	}
	return b.String()
}

// escLen is the length of the escape sequence at the start of s: CSI
// (ESC [ … final), OSC (ESC ] … BEL or ESC \), or ESC and one byte.
func escLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			}
		}
		return len(s)
	case ']':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
		}
		return len(s)
	}
	return 2
}

func isSGR(seq string) bool { return len(seq) >= 3 && seq[1] == '[' && seq[len(seq)-1] == 'm' }

func isReset(seq string) bool { return seq == "\x1b[m" || seq == "\x1b[0m" }

// Place finds match nth of a text's total matches in the lines the text
// is drawn as: the line and which match of that line it is. When the lines
// do not show the text's matches one for one (a phrase cut by a wrap,
// Markdown drawn differently), the line is estimated from where the match
// sits in the text (frac, 0 to 1) and occ is -1.
func Place(lines []string, query string, nth, total int, frac float64) (line, occ int) {
	counts := make([]int, len(lines))
	sum := 0
	for i, l := range lines {
		counts[i] = Line(l, query)
		sum += counts[i]
	}
	if sum == total {
		for i, n := range counts {
			if nth < n {
				return i, nth
			}
			nth -= n
		}
	}
	if len(lines) == 0 {
		return 0, -1
	}
	return min(max(int(frac*float64(len(lines))), 0), len(lines)-1), -1
}
