package transcript

// A message's Markdown is measured before any parser sees it. Markdown
// parsers and renderers do work that grows faster than the text for some
// shapes of it: a link opener `](` makes goldmark scan the rest of the line
// for a destination (256 KiB of `[a](` took 35.6 s), each quote or list
// level nests a block that Glamour wraps and pads again (a few kilobytes of
// `> > > ...` kept it busy for minutes), and a table row is padded to the
// widest row's cells. A seat may post 256 KiB, so one message could cost a
// viewer minutes. TooComplex estimates the cost in one linear pass and
// answers whether it is past a bound; past it, the HTML and the terminal
// show the message as escaped plain text with PlainNote.
//
// The estimate is in microseconds of Glamour, the slower of the two
// renderers, measured on this project's benchmarks. The bound is a fixed
// allowance (50 ms) plus a slope per byte set at about twice the estimate
// for ordinary agent Markdown (3.8 a byte for roomtest.OrdinaryMarkdown:
// headings, paragraphs, lists, a quote, code, a table, links), with the
// weights fitted to Glamour's CPU time on the shapes of
// roomtest.EdgeMarkdown and ordinary Markdown. goldmark's
// and bluemonday's own costs, a small fraction of Glamour's, have bounds
// of their own: bytes scanned for link destinations, table cells and
// inline delimiters; Glamour's cost per block, whatever the block holds,
// has a bound of its own in blocks opened. Every Markdown file and
// reference message of this repository stays under half of each bound, so
// ordinary Markdown (tables, code, lists, quotes a few levels deep) is
// never affected; a message past a bound costs its escaping; one just
// within costs the HTML and Glamour at most about twice its ordinary peer
// (BENCHMARKS.md, "Hostile Markdown").

// PlainNote is the note shown above a message whose Markdown is past the
// bound and is shown as plain text.
const PlainNote = "Shown as plain text: this message's Markdown is too complex to render."

// MaxDepth is the deepest nesting of quotes and lists on one line that is
// rendered as Markdown; any deeper and the message is shown as plain text.
const MaxDepth = 12

// The cost model, in microseconds of Glamour (see above).
const (
	costPerByte     = 0.2   // plain text
	costPerBlock    = 150.0 // a paragraph, heading or other block after a blank line
	costPerItem     = 130.0 // a line's first quote or list marker
	costPerLevel    = 240.0 // each further marker on the line, times its level
	costPerCell     = 8.0   // a table cell, rows padded to the widest row
	costPerInline   = 4.0   // an emphasis, code, strikethrough, bracket or raw HTML delimiter
	costPerScanByte = 0.006 // a byte goldmark scans looking for a link's destination
	costPerCodeByte = 4.0   // a byte of a fenced code block (Glamour highlights it)
	costPerLink     = 30.0  // a link opener `](`

	// costAllowance is what any message may cost, however short;
	// costSlope is what it may cost per byte beyond that.
	costAllowance = 50_000.0
	costSlope     = 8.0

	// The scans for link destinations are goldmark's own work, which
	// costs about 0.3 µs a byte of ordinary Markdown, not Glamour's 7: they
	// have a bound of their own, in bytes scanned, so that the HTML of a
	// message within it costs at most about its ordinary peer's (about
	// 3 ns a byte scanned: a million bytes, then 32 a byte of text).
	scanAllowance = 1_000_000
	scanSlope     = 32

	// So do table cells: goldmark and bluemonday spend about 1.3 µs on
	// each, and ordinary Markdown has about one for every 50 bytes (a
	// wide table of short cells one every 20): one every 12 bytes keeps
	// a message of cells to about its ordinary peer's HTML cost.
	cellAllowance = 10_000
	cellsPerByte  = 1.0 / 12

	// And blocks: each paragraph, heading, list item or quote level is a
	// block Glamour wraps and pads, about 150 µs whatever it holds, and
	// ordinary Markdown opens one every 57 bytes. Capped at twice that
	// (a block every 28 bytes), a message of short blocks costs at most
	// about twice its ordinary peer, where the cost model alone let a
	// list of one-word items cost three times.
	blockAllowance = 300
	blocksPerByte  = 1.0 / 28

	// And inline delimiters, each a possible element for goldmark and
	// bluemonday: ordinary Markdown has about one every 28 bytes.
	delimAllowance = 10_000
	delimsPerByte  = 1.0 / 8
)

// TooComplex reports whether rendering md as Markdown would cost more than
// the bound allows, in which case it is to be shown as plain text with
// PlainNote. It reads md once, in time linear in its length.
func TooComplex(md string) bool {
	c := measure(md)
	return c.depth > MaxDepth || c.cost > costBound(len(md)) || c.scan > scanBound(len(md)) || c.cells > cellBound(len(md)) ||
		c.delims > delimBound(len(md)) || c.blocks > blockBound(len(md))
}

// blockBound is the most blocks (paragraphs, headings, list items, quote
// levels) a message of n bytes may open.
func blockBound(n int) int { return blockAllowance + int(blocksPerByte*float64(n)) }

// delimBound is the most inline delimiters a message of n bytes may hold.
func delimBound(n int) int { return delimAllowance + int(delimsPerByte*float64(n)) }

// cellBound is the most table cells a message of n bytes may hold.
func cellBound(n int) int { return cellAllowance + int(cellsPerByte*float64(n)) }

// scanBound is the most bytes goldmark may scan for the link destinations
// of a message of n bytes.
func scanBound(n int) int { return scanAllowance + scanSlope*n }

// costBound is the most a message of n bytes may cost.
func costBound(n int) float64 { return costAllowance + costSlope*float64(n) }

// complexity is what measure finds: the estimated cost, the blocks
// opened, the bytes scanned
// for link destinations, the table cells, the inline delimiters, and the
// deepest nesting of a line.
type complexity struct {
	cost   float64
	blocks int
	scan   int
	cells  int
	delims int
	depth  int
}

// measure estimates what rendering md costs; see the cost model above.
// Lines inside code fences cost their bytes only.
func measure(md string) complexity {
	var c complexity
	c.cost = costPerByte * float64(len(md))
	var fence string
	prevBlank := true
	tableCols := 0 // the widest row so far of the current block, 0 if it has no pipe
	for start := 0; start < len(md); {
		end := start
		for end < len(md) && md[end] != '\n' {
			end++
		}
		line := md[start:end]
		start = end + 1
		indent, rest := splitIndent(line)
		if fence != "" {
			if indent <= 3 && closesFence(rest, fence) {
				fence = ""
			}
			c.cost += costPerCodeByte * float64(len(line)+1)
			continue
		}
		if rest == "" {
			prevBlank, tableCols = true, 0
			continue
		}
		if prevBlank {
			c.cost += costPerBlock
			c.blocks++
		}
		prevBlank = false
		if indent <= 3 {
			if f := fenceMarker(rest); f != "" {
				fence = f
				continue
			}
		}
		base, depth, body := containerDepth(indent, rest)
		c.depth = max(c.depth, depth)
		// The first marker opens an item or a quote line; each further
		// marker on the line opens a block nested in it, at its level.
		// The levels of the indent are blocks opened on earlier lines.
		if depth > base {
			c.blocks += depth - base
			c.cost += costPerItem + costPerLevel*float64(depth*(depth+1)/2-(base+1)*(base+2)/2)
		}
		if pipes := countPipes(body); pipes > 0 || tableCols > 0 {
			// A row has about as many cells as pipes (one fewer with
			// pipes at both ends); every row is padded to the widest.
			tableCols = max(tableCols, pipes)
			c.cells += tableCols
			c.cost += costPerCell * float64(tableCols)
		}
		delims, links, scan := inlineCost(body)
		c.cost += costPerInline*float64(delims) + costPerLink*float64(links) + costPerScanByte*float64(scan)
		c.scan += scan
		c.delims += delims
	}
	return c
}

// containerDepth counts the quote and list markers that open a line (after
// its indent of indent columns), adding a level for every two columns of
// indent before a list marker (a list nested by indentation), and returns
// those levels of indent, the count with them, and the line after the
// markers.
func containerDepth(indent int, rest string) (base, depth int, body string) {
	first := true
	for {
		switch n := listMarker(rest); {
		case rest != "" && rest[0] == '>':
			depth++
			rest = rest[1:]
		case n > 0:
			if first {
				base = indent / 2
				depth += base
			}
			depth++
			rest = rest[n:]
		default:
			return base, depth, rest
		}
		first = false
		i := 0
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
			i++
		}
		rest = rest[i:]
	}
}

// listMarker is the length of the list marker that starts s ("-", "*",
// "+", or one to nine digits then "." or ")", followed by a space, a tab
// or the end of the line), or 0.
func listMarker(s string) int {
	n := 0
	switch {
	case s == "":
		return 0
	case s[0] == '-' || s[0] == '*' || s[0] == '+':
		n = 1
	default:
		for n < len(s) && n < 10 && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n > 9 || n >= len(s) || (s[n] != '.' && s[n] != ')') {
			return 0
		}
		n++
	}
	if n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return 0
	}
	return n
}

func countPipes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '|' {
			n++
		}
	}
	return n
}

// inlineCost counts one line's inline delimiters, its link openers and the
// bytes goldmark scans for link destinations. A `](` makes goldmark read on for a
// destination: up to the next space or tab, or for `](<`, which may hold
// spaces, to the end of the line; so each opener costs the distance to
// where its scan stops, summed without a scan per opener.
func inlineCost(s string) (delims, links, scan int) {
	var open, openSum, angle, angleSum int // pending openers and the sum of their offsets
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '_', '~', '`', '[', ']', '<':
			delims++
			if s[i] == ']' && i+1 < len(s) && s[i+1] == '(' {
				links++
				if i+2 < len(s) && s[i+2] == '<' {
					angle++
					angleSum += i
				} else {
					open++
					openSum += i
				}
			}
		case ' ', '\t':
			scan += open*i - openSum
			open, openSum = 0, 0
		}
	}
	n := len(s)
	return delims, links, scan + open*n - openSum + angle*n - angleSum
}
