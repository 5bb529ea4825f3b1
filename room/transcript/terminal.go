package transcript

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
)

// ForTerminal breaks the prose lines of a Markdown transcript at words to
// lines of at most width cells, for a terminal whose own wrap would cut
// words in two. A list item or a quote keeps its marker's indent on the
// lines it wraps onto. Code (fenced, or indented four spaces outside a
// list) and table rows are left as they are: a hard break would change
// them when copied. The words are the same, so a pipe and a terminal read
// alike; width 0 returns text unchanged.
func ForTerminal(text string, width int) string {
	if width <= 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + len(text)/20)
	fence := "" // the open code fence's opening run of ` or ~; "" outside one
	for line := range strings.SplitAfterSeq(text, "\n") {
		body := strings.TrimSuffix(line, "\n")
		trimmed := strings.TrimLeft(body, " ")
		indent := len(body) - len(trimmed)
		if run := fenceRun(trimmed); indent < 4 && run != "" && (fence == "" || strings.HasPrefix(run, fence) && strings.TrimLeft(trimmed, run[:1]) == "") {
			if fence == "" {
				fence = run
			} else {
				fence = ""
			}
			b.WriteString(line)
			continue
		}
		marker, cont := linePrefix(body)
		if fence != "" || ansi.StringWidth(body) <= width || strings.HasPrefix(trimmed, "|") ||
			indent >= 4 && marker == strings.Repeat(" ", indent) {
			b.WriteString(line)
			continue
		}
		words := room.WrapWords(body[len(marker):], max(width-ansi.StringWidth(marker), 16))
		for i, l := range words {
			if i == 0 {
				b.WriteString(marker)
			} else {
				b.WriteString("\n" + cont)
			}
			b.WriteString(l)
		}
		b.WriteString(line[len(body):])
	}
	return b.String()
}

// fenceRun is the run of three or more ` or ~ that opens s, the line's
// text after its indent; "" when s opens no code fence.
func fenceRun(s string) string {
	for _, c := range "`~" {
		n := len(s) - len(strings.TrimLeft(s, string(c)))
		if n >= 3 {
			return s[:n]
		}
	}
	return ""
}

// linePrefix splits a Markdown line's opening: its indent, its quote
// markers (">") and its list marker ("- ", "* ", "+ ", "1. ", "1) "),
// as marker; and what the lines it wraps onto start with, cont: the same
// quotes, spaces for the rest.
func linePrefix(line string) (marker, cont string) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	cont = line[:i]
	for i < len(line) && line[i] == '>' {
		j := i + 1
		if j < len(line) && line[j] == ' ' {
			j++
		}
		cont += line[i:j]
		i = j
		for i < len(line) && line[i] == ' ' {
			cont += " "
			i++
		}
	}
	rest := line[i:]
	n := 0
	switch {
	case len(rest) >= 2 && strings.ContainsRune("-*+", rune(rest[0])) && rest[1] == ' ':
		n = 2
	default:
		d := 0
		for d < len(rest) && d < 9 && rest[d] >= '0' && rest[d] <= '9' {
			d++
		}
		if d > 0 && d+1 < len(rest) && (rest[d] == '.' || rest[d] == ')') && rest[d+1] == ' ' {
			n = d + 2
		}
	}
	return line[:i+n], cont + strings.Repeat(" ", n)
}
