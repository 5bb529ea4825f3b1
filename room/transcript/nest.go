package transcript

import (
	"regexp"
	"strings"
	"sync"
)

// autolink matches a line that starts with a CommonMark autolink (a URI or
// an e-mail address in angle brackets), which opens no HTML block.
var autolink = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>`)
})

// nestMarkdown prepares one message's Markdown for a place inside the
// transcript's own structure, without changing how its content reads:
//   - ATX headings move down by levels (capped at six), so a message's
//     "## Brief" sits under the transcript's round and message headings
//     instead of beside them;
//   - a code fence left open is closed, so one truncated message cannot turn
//     the rest of the transcript into code;
//   - a "<" that starts a line is escaped (unless it starts an autolink), so
//     an HTML block the message opens (a comment, <script>, <pre>, ...)
//     cannot swallow the messages after it.
//
// Lines inside code fences are left alone.
func nestMarkdown(text string, levels int) string {
	lines := strings.Split(text, "\n")
	var fence string // the open fence's marker ("```", "~~~~", ...), "" outside
	for i, line := range lines {
		indent, rest := splitIndent(line)
		if fence != "" {
			if indent <= 3 && closesFence(rest, fence) {
				fence = ""
			}
			continue
		}
		if indent > 3 {
			continue
		}
		if f := fenceMarker(rest); f != "" {
			fence = f
			continue
		}
		if n := atxLevel(rest); n > 0 {
			lines[i] = line[:len(line)-len(rest)] + strings.Repeat("#", min(n+levels, 6)-n) + rest
			continue
		}
		if strings.HasPrefix(rest, "<") && !autolink().MatchString(rest) {
			lines[i] = line[:len(line)-len(rest)] + `\` + rest
		}
	}
	out := strings.Join(lines, "\n")
	if fence != "" {
		out = strings.TrimRight(out, "\n") + "\n" + fence
	}
	return out
}

// splitIndent returns the width of a line's leading spaces (a tab counts as
// four) and the line after them.
func splitIndent(line string) (int, string) {
	w := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w, line[i:]
		}
	}
	return w, ""
}

// fenceMarker returns the run of backticks or tildes that opens a fenced code
// block, or "" when s does not open one.
func fenceMarker(s string) string {
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 || (s[0] == '`' && strings.Contains(s[n:], "`")) {
		return ""
	}
	return s[:n]
}

// closesFence reports whether s closes a block opened by fence: a run of the
// same character at least as long, then only spaces or tabs.
func closesFence(s, fence string) bool {
	n := 0
	for n < len(s) && s[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.Trim(s[n:], " \t") == ""
}

// atxLevel is the level of an ATX heading line (1 to 6), or 0.
func atxLevel(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0
	}
	if n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return 0
	}
	return n
}
