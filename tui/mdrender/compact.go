package mdrender

import "strings"

// compact makes Glamour's output small and safe to keep. Glamour styles
// every word and every padding space on its own ("\x1b[38;5;252m \x1b[m"),
// so a rendered message is ten to twenty times its text; compact
//
//   - drops every OSC sequence, which removes the OSC 8 hyperlinks Glamour
//     wraps links in (the URL stays visible as text, so a link cannot say one
//     address and open another);
//   - trims the trailing padding of each line and the empty lines at the
//     start and the end;
//   - merges a style reset followed by the same style again, and drops a
//     style set and reset with nothing in between;
//   - ends every line that leaves a style open with a reset, so lines can be
//     shown on their own.
func compact(s string) string {
	lines := strings.Split(stripOSC(s), "\n")
	out := lines[:0]
	for _, l := range lines {
		out = append(out, compactLine(l))
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}

// stripOSC removes operating system commands (ESC ] ... BEL or ESC ] ...
// ESC \). The input to Glamour has been sanitized, so every OSC here is
// Glamour's own.
func stripOSC(s string) string {
	if !strings.Contains(s, "\x1b]") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == ']' {
			j := i + 2
			for j < len(s) {
				if s[j] == 0x07 {
					j++
					break
				}
				if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
					j += 2
					break
				}
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

type tokKind uint8

const (
	tokText tokKind = iota
	tokSGR          // ESC [ ... m
	tokEsc          // any other escape sequence, kept as is
)

type token struct {
	kind tokKind
	s    string
}

// tokenize splits one line into text runs and escape sequences.
func tokenize(line string) []token {
	var toks []token
	start := 0
	flush := func(end int) {
		if end > start {
			toks = append(toks, token{tokText, line[start:end]})
		}
	}
	for i := 0; i < len(line); {
		if line[i] != 0x1b {
			i++
			continue
		}
		flush(i)
		j := i + 1
		kind := tokEsc
		if j < len(line) && line[j] == '[' {
			j++
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			if j < len(line) {
				if line[j] == 'm' {
					kind = tokSGR
				}
				j++
			}
		} else if j < len(line) {
			j++
		}
		toks = append(toks, token{kind, line[i:j]})
		i, start = j, j
	}
	flush(len(line))
	return toks
}

func isReset(sgr string) bool { return sgr == "\x1b[m" || sgr == "\x1b[0m" }

// compactLine trims one line's trailing padding and merges redundant style
// changes; see compact.
func compactLine(line string) string {
	if !strings.ContainsRune(line, 0x1b) {
		return strings.TrimRight(line, " ")
	}
	toks := tokenize(line)
	// Cut after the last text that is not padding.
	last := -1
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i].kind == tokText && strings.TrimRight(toks[i].s, " ") != "" {
			last = i
			break
		}
		if toks[i].kind == tokEsc {
			last = i
			break
		}
	}
	if last < 0 {
		return ""
	}
	toks = toks[:last+1]
	if t := &toks[last]; t.kind == tokText {
		t.s = strings.TrimRight(t.s, " ")
	}

	var b strings.Builder
	b.Grow(len(line) / 2)
	active := ""          // the style sequences in effect, concatenated
	pendingReset := false // a reset not written yet: it may be cancelled
	for _, t := range toks {
		switch t.kind {
		case tokSGR:
			switch {
			case isReset(t.s):
				if active != "" {
					pendingReset = true
				}
			case pendingReset && t.s == active:
				pendingReset = false // reset then the same style: no change
			case pendingReset:
				b.WriteString("\x1b[m")
				b.WriteString(t.s)
				active, pendingReset = t.s, false
			default:
				// A style on top of the active one; dropEmptyStyles
				// removes it later if nothing is written under it.
				active += t.s
				b.WriteString(t.s)
			}
		case tokText, tokEsc:
			if pendingReset {
				b.WriteString("\x1b[m")
				active, pendingReset = "", false
			}
			b.WriteString(t.s)
		}
	}
	if active != "" {
		b.WriteString("\x1b[m")
	}
	return dropEmptyStyles(b.String())
}

// dropEmptyStyles removes a style set immediately followed by a reset.
func dropEmptyStyles(s string) string {
	if !strings.Contains(s, "m\x1b[m") {
		return s
	}
	toks := tokenize(s)
	out := toks[:0]
	for _, t := range toks {
		if t.kind == tokSGR && isReset(t.s) {
			// Drop the style sets that nothing was written under.
			n := len(out)
			for n > 0 && out[n-1].kind == tokSGR && !isReset(out[n-1].s) {
				n--
			}
			if n < len(out) {
				out = out[:n]
				// The reset is still needed if a style was open before.
				if !styleOpen(out) {
					continue
				}
			}
		}
		out = append(out, t)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, t := range out {
		b.WriteString(t.s)
	}
	return b.String()
}

// styleOpen reports whether a style is in effect after toks.
func styleOpen(toks []token) bool {
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i].kind == tokSGR {
			return !isReset(toks[i].s)
		}
	}
	return false
}
