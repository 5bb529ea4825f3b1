package seatcmd

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Shell is argv as one POSIX shell command line: each argument quoted when
// it needs it, so that a shell reads back exactly argv.
func Shell(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}

// Quote quotes s for a POSIX shell when it needs it. A "--flag=value"
// argument keeps its flag outside the quotes (--topic='Is it?'), which a
// shell reads as the same single word and a person reads more easily.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	if !strings.ContainsFunc(s, needsQuote) {
		return s
	}
	if name, value, ok := strings.Cut(s, "="); ok && strings.HasPrefix(name, "--") && !strings.ContainsFunc(name, needsQuote) {
		return name + "=" + quoteAlways(value)
	}
	return quoteAlways(s)
}

func quoteAlways(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// needsQuote reports a rune a POSIX shell would read as more than itself.
func needsQuote(r rune) bool {
	plain := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)
	return !plain
}

// Continuation ends every line of a wrapped command but the last: a space
// and a backslash, which a POSIX shell reads as "the command goes on".
const Continuation = " \\"

// Wrap lays a command out in lines of at most width cells, breaking only
// between arguments (and not between an option and its value, such as
// "--scope project"): every line but the last ends with Continuation, and
// the lines after the first start with indent spaces. Pasted into a shell,
// the lines run exactly Shell(argv). An argument too wide for any line
// gets a line of its own and is the only way a line exceeds width.
func Wrap(argv []string, width, indent int) []string {
	var units []string
	for i := 0; i < len(argv); i++ {
		u := Quote(argv[i])
		if a := argv[i]; strings.HasPrefix(a, "-") && a != "--" && !strings.Contains(a, "=") &&
			i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
			i++
			u += " " + Quote(argv[i])
		}
		units = append(units, u)
	}
	var lines []string
	var cur strings.Builder
	curW := 0
	for i, u := range units {
		uw := ansi.StringWidth(u)
		// Room this unit needs on the current line: itself, and the
		// continuation unless it ends the command.
		need := uw
		if i < len(units)-1 {
			need += len(Continuation)
		}
		switch {
		case cur.Len() == 0:
		case curW+1+need <= width:
			cur.WriteByte(' ')
			curW++
		default:
			lines = append(lines, cur.String()+Continuation)
			cur.Reset()
			cur.WriteString(strings.Repeat(" ", indent))
			curW = indent
		}
		cur.WriteString(u)
		curW += uw
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
