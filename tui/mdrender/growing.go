package mdrender

import (
	"strings"
	"time"
)

// GrowingInterval is the least time between two renders of a growing
// text's tail: about thirty a second.
const GrowingInterval = time.Second / 30

// Growing renders a Markdown text that grows at its end, such as a turn
// streaming in token by token. The text is split at the last block boundary
// (a blank line outside a code fence, before a line that starts a new block
// and does not continue a list); blocks before it are finished, rendered
// once and kept, and only the tail after it is rendered again, at most once
// per GrowingInterval. So the cost of a token does not grow with the length
// of the turn.
//
// Each finished block is rendered on its own, so Markdown that reaches
// across blocks (a reference link defined further down) may render
// differently than in one piece; render the whole text with
// Renderer.Render once it is complete.
//
// A Growing is not safe for concurrent use; its Renderer is.
type Growing struct {
	r        *Renderer
	width    int
	interval time.Duration

	text strings.Builder

	// Scanning state: where the next unscanned line starts, whether it is
	// inside a code fence, and whether the previous line was blank.
	lineStart   int
	fence       string
	prevBlank   bool
	boundary    int // end of the finished part found so far
	done        int // end of the finished part rendered so far
	chunks      []string
	chunksOut   string // chunks joined
	tailOut     string
	out         string
	dirty       bool
	last        time.Time
	tailRenders int // for tests
}

// NewGrowing starts an empty growing text wrapped to width.
func (r *Renderer) NewGrowing(width int) *Growing {
	return &Growing{r: r, width: max(width, MinWidth), interval: GrowingInterval}
}

// Append adds text at the end. It does no rendering.
func (g *Growing) Append(s string) {
	if s == "" {
		return
	}
	g.text.WriteString(s)
	g.dirty = true
}

// Text is the whole text so far.
func (g *Growing) Text() string { return g.text.String() }

// Width is the width the text is wrapped to.
func (g *Growing) Width() int { return g.width }

// SetWidth changes the wrapping width; the next Render renders everything
// again (finished blocks from the Renderer's cache when they were rendered
// at that width before).
func (g *Growing) SetWidth(w int) {
	w = max(w, MinWidth)
	if w == g.width {
		return
	}
	g.width = w
	g.done = 0
	g.chunks = g.chunks[:0]
	g.chunksOut = ""
	g.dirty = true
	g.last = time.Time{}
}

// Dirty reports whether the text changed since the last render.
func (g *Growing) Dirty() bool { return g.dirty }

// Wait is how long after now Render would next render: zero when it would
// render now, and zero as well when nothing changed (there is nothing to
// wait for; check Dirty).
func (g *Growing) Wait(now time.Time) time.Duration {
	if !g.dirty {
		return 0
	}
	return max(g.last.Add(g.interval).Sub(now), 0)
}

// Render renders what changed if the text changed and at least
// GrowingInterval has passed since the last render, and reports whether
// View changed. Call it once per frame or tick; when it returns false while
// Dirty, call it again after Wait.
func (g *Growing) Render(now time.Time) bool {
	if !g.dirty || now.Sub(g.last) < g.interval {
		return false
	}
	g.render()
	g.last = now
	return true
}

// Flush renders now, whatever the throttle says (at the end of a turn).
func (g *Growing) Flush() {
	if g.dirty {
		g.render()
	}
}

// View is the rendered text as of the last render.
func (g *Growing) View() string { return g.out }

func (g *Growing) render() {
	text := g.text.String()
	g.scan(text)
	if g.boundary > g.done {
		chunk := g.r.Render(text[g.done:g.boundary], g.width)
		g.done = g.boundary
		if chunk != "" {
			g.chunks = append(g.chunks, chunk)
			g.chunksOut = strings.Join(g.chunks, "\n\n")
		}
	}
	g.tailOut = g.r.renderUncached(text[g.done:], g.width)
	g.tailRenders++
	switch {
	case g.chunksOut == "":
		g.out = g.tailOut
	case g.tailOut == "":
		g.out = g.chunksOut
	default:
		g.out = g.chunksOut + "\n\n" + g.tailOut
	}
	g.dirty = false
}

// scan reads the complete lines not scanned yet and moves the boundary to
// the start of the last line that opens a new top-level block after a blank
// line, outside code fences.
func (g *Growing) scan(text string) {
	for {
		nl := strings.IndexByte(text[g.lineStart:], '\n')
		if nl < 0 {
			return
		}
		pos := g.lineStart
		line := text[pos : pos+nl]
		g.lineStart = pos + nl + 1
		if g.fence != "" {
			if closesFence(line, g.fence) {
				g.fence = ""
			}
			g.prevBlank = false
			continue
		}
		blank := strings.TrimSpace(line) == ""
		if !blank && g.prevBlank && startsBlock(line) && pos > g.boundary {
			g.boundary = pos
		}
		if f := opensFence(line); f != "" {
			g.fence = f
		}
		g.prevBlank = blank
	}
}

// startsBlock reports whether a line after a blank line starts a block of
// its own rather than continuing the one before (an indented line, a list
// item or a table row may continue it).
func startsBlock(line string) bool {
	if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '|' {
		return false
	}
	if len(line) >= 2 && strings.ContainsRune("-*+", rune(line[0])) && line[1] == ' ' {
		return false
	}
	i := 0
	for i < len(line) && i < 9 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i < len(line) && (line[i] == '.' || line[i] == ')') && (i+1 == len(line) || line[i+1] == ' ') {
		return false
	}
	return true
}

// opensFence returns the fence a line opens (``` or ~~~, three or more), or
// "".
func opensFence(line string) string {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return ""
	}
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			if c == '`' && strings.ContainsRune(t[n:], '`') {
				return "" // not a fence: a backtick in the info string
			}
			return t[:n]
		}
	}
	return ""
}

// closesFence reports whether line closes a fence opened with fence.
func closesFence(line, fence string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	n := 0
	for n < len(t) && t[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimSpace(t[n:]) == ""
}
