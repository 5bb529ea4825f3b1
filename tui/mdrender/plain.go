package mdrender

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room/transcript"
)

// renderPlain shows a text too complex to render as Markdown
// (transcript.TooComplex) as it is, wrapped to width, under a faint
// transcript.PlainNote. It costs a pass over the text: the text is wrapped
// here, not by cells.Wrap, whose cost grows faster than the length of a
// long line (a line of `- - - ...`).
func renderPlain(safe string, width int) string {
	var b strings.Builder
	b.Grow(len(safe) + len(safe)/16 + 128)
	for _, line := range wrapPlain(transcript.PlainNote, width) {
		b.WriteString("\x1b[2m" + line + "\x1b[m\n")
	}
	text := strings.ReplaceAll(strings.Trim(safe, "\n \t"), "\t", "    ")
	for i, line := range wrapPlain(text, width) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}

// wrapPlain splits text without escape sequences into lines of at most
// width cells: at the last space that fits, or within a word wider than
// the line. Trailing spaces are dropped. It reads each grapheme once.
func wrapPlain(text string, width int) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		start := 0      // where the current output line starts
		cur := 0        // its width so far
		space := -1     // the byte offset of the last space in it, or -1
		afterSpace := 0 // the width of what follows that space
		broken := false // whether the current output line starts at a break
		for i := 0; i < len(line); {
			cluster, w := ansi.FirstGraphemeCluster(line[i:], ansi.GraphemeWidth)
			if cur+w > width && cur > 0 {
				if space >= 0 {
					out = append(out, strings.TrimRight(line[start:space], " "))
					start, cur = space+1, afterSpace
				} else {
					out = append(out, line[start:i])
					start, cur = i, 0
				}
				space, broken = -1, true
			}
			if cluster == " " && broken && i == start {
				start++ // spaces at a break are dropped
				i++
				continue
			}
			broken = false
			if cluster == " " {
				space, afterSpace = i, 0
			} else if space >= 0 {
				afterSpace += w
			}
			cur += w
			i += len(cluster)
		}
		out = append(out, strings.TrimRight(line[start:], " "))
	}
	return out
}

// Wrap is untrusted text as plain text wrapped to width cells: sanitized
// (transcript.SanitizeTerminal), tabs as four spaces, wrapped at spaces, in
// one pass whatever the length of its lines. It is the stand-in a screen
// shows until a text's render is ready.
func Wrap(text string, width int) string {
	safe := strings.ReplaceAll(transcript.SanitizeTerminal(text), "\t", "    ")
	return strings.Join(wrapPlain(safe, max(width, 1)), "\n")
}
