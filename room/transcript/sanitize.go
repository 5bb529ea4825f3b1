package transcript

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// SanitizeTerminal makes untrusted text safe to print to a terminal. It keeps
// newlines and tabs and makes every other control character visible instead
// of letting it act: C0 controls (ESC, BEL, backspace, a lone carriage
// return, ...) become their Unicode control pictures (ESC becomes "␛"), DEL
// becomes "␡", C1 controls (U+0080 to U+009F, CSI and OSC among them) and the
// bidirectional overrides that can reorder what a reader sees become
// "<U+XXXX>", and bytes that are not UTF-8 become U+FFFD. A CRLF line ending
// becomes "\n". So no escape sequence in agent text (colors, cursor moves,
// OSC 52 clipboard writes, title changes) reaches the terminal.
func SanitizeTerminal(s string) string {
	if terminalSafe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '\n' || c == '\t':
				b.WriteByte(c)
			case c == '\r' && i < len(s) && s[i] == '\n':
				// CRLF: the newline that follows is kept.
			case c < 0x20:
				b.WriteRune(rune(0x2400 + int(c)))
			case c == 0x7f:
				b.WriteRune('\u2421')
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case unsafeRune(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// terminalSafe is the fast path: plain printable ASCII (with newlines and
// tabs) and UTF-8 without C1 controls or bidi overrides need no copy.
func terminalSafe(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// unsafeRune reports the non-ASCII runes SanitizeTerminal escapes: C1
// controls, which many terminals obey as escape sequences, and the
// bidirectional embeddings, overrides and isolates that can make text read
// differently from what it is.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) ||
		(r >= 0x2066 && r <= 0x2069)
}

// oneLine is SanitizeTerminal for a value shown on one line (a topic, an
// agent label, a reason): tabs and line breaks become spaces, and runs of
// white space collapse, so the value cannot start a Markdown block of its
// own.
func oneLine(s string) string {
	return strings.Join(strings.Fields(SanitizeTerminal(s)), " ")
}
