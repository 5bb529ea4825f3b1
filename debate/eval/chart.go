package eval

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

// The terminal chart's frame, in characters: columns and rows, the frame
// included. Drawn for a narrower terminal (TextChartIn), the frame is as
// narrow as ChartMinWidth.
const (
	ChartWidth    = 60
	ChartHeight   = 15
	ChartMinWidth = 40
)

// chartLabelWidth is the accuracy labels' column left of the frame
// ("100 % ").
const chartLabelWidth = 6

// markChars are the arms' marks on the charts, in the order of the
// report's arms; an arm past them is marked #.
const markChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// chartArm is an arm as the charts draw it.
type chartArm struct {
	Mark     byte
	Name     string
	Tokens   float64 // per question
	Accuracy float64 // 0 to 1
	Drawn    bool    // it finished a question
	Debate   bool
	K        int // single 1, vote:K K; 0 for the debate
}

// chartArms reads the arms off rep, and the vote curve: the drawn single
// and vote:K arms (their kind read from their names, so that a report
// read back from JSON draws the same), as indices into arms, by K.
func chartArms(rep *Report) (arms []chartArm, curve []int) {
	for i, a := range rep.Arms {
		c := chartArm{Mark: '#', Name: a.Name, Tokens: a.TokensPerItem, Accuracy: math.Min(1, math.Max(0, a.Accuracy)), Drawn: a.Items > 0}
		if i < len(markChars) {
			c.Mark = markChars[i]
		}
		if parsed, err := ParseArms(a.Name); err == nil && len(parsed) == 1 {
			c.Debate = parsed[0].IsDebate()
			c.K = parsed[0].K
		}
		arms = append(arms, c)
		if c.Drawn && c.K > 0 {
			curve = append(curve, i)
		}
	}
	sort.SliceStable(curve, func(i, j int) bool { return arms[curve[i]].K < arms[curve[j]].K })
	return arms, curve
}

// tokenRange is the fewest and most tokens per question of the drawn
// arms; when they are one figure, from 0 to it (1 if it is 0). ok is
// false when no arm is drawn.
func tokenRange(arms []chartArm) (lo, hi float64, ok bool) {
	for _, a := range arms {
		if !a.Drawn {
			continue
		}
		if !ok {
			lo, hi, ok = a.Tokens, a.Tokens, true
		}
		lo, hi = math.Min(lo, a.Tokens), math.Max(hi, a.Tokens)
	}
	if ok && lo == hi {
		lo = 0
		if hi == 0 {
			hi = 1
		}
	}
	return lo, hi, ok
}

// TextChart draws accuracy against tokens per question in plain text, a
// frame of ChartWidth × ChartHeight characters: its left and right edges
// are the fewest and the most tokens per question among the arms that
// finished a question (from 0 when there is one figure), its bottom and
// top 0 and 100 %. Each such arm is its letter (A for the report's first
// arm, B for the next…; a legend below names them); arms in one cell
// show *; dots join the vote curve, single (as vote:1) and the vote:K
// arms in order of K. A point on an edge lands on the frame, the curve
// too. "" when no arm finished a question.
func (rep *Report) TextChart() string { return rep.textChart(ChartWidth) }

// TextChartIn is TextChart with its frame narrowed to fit a terminal of
// cols columns, labels included (as narrow as ChartMinWidth; ChartWidth
// at most, and for cols 0).
func (rep *Report) TextChartIn(cols int) string { return rep.textChart(chartWidthIn(cols)) }

// chartWidthIn is the frame's width for a terminal of cols columns.
func chartWidthIn(cols int) int {
	if cols <= 0 {
		return ChartWidth
	}
	return min(max(cols-chartLabelWidth, ChartMinWidth), ChartWidth)
}

// textChart is TextChart with a frame w characters wide.
func (rep *Report) textChart(w int) string {
	arms, curve := chartArms(rep)
	lo, hi, ok := tokenRange(arms)
	if !ok {
		return ""
	}
	grid := make([][]byte, ChartHeight)
	for r := range grid {
		row := make([]byte, w)
		for c := range row {
			edgeR, edgeC := r == 0 || r == ChartHeight-1, c == 0 || c == w-1
			switch {
			case edgeR && edgeC:
				row[c] = '+'
			case edgeR:
				row[c] = '-'
			case edgeC:
				row[c] = '|'
			default:
				row[c] = ' '
			}
		}
		grid[r] = row
	}
	cell := func(a chartArm) (col, row int) {
		col = int(math.Round((a.Tokens - lo) / (hi - lo) * float64(w-1)))
		row = ChartHeight - 1 - int(math.Round(a.Accuracy*(ChartHeight-1)))
		return min(max(col, 0), w-1), min(max(row, 0), ChartHeight-1)
	}
	for i := 1; i < len(curve); i++ {
		c0, r0 := cell(arms[curve[i-1]])
		c1, r1 := cell(arms[curve[i]])
		steps := max(abs(c1-c0), abs(r1-r0))
		for s := 1; s < steps; s++ {
			c := c0 + int(math.Round(float64(s*(c1-c0))/float64(steps)))
			r := r0 + int(math.Round(float64(s*(r1-r0))/float64(steps)))
			grid[r][c] = '.'
		}
	}
	marked, shared := map[[2]int]bool{}, false
	for _, a := range arms {
		if !a.Drawn {
			continue
		}
		c, r := cell(a)
		if marked[[2]int{c, r}] {
			grid[r][c], shared = '*', true
			continue
		}
		marked[[2]int{c, r}] = true
		grid[r][c] = a.Mark
	}

	var b strings.Builder
	b.WriteString("accuracy against tokens per question\n")
	for r, row := range grid {
		label := ""
		switch r {
		case 0:
			label = "100 %"
		case (ChartHeight - 1) / 2: // ChartHeight is odd: the middle row
			label = "50 %"
		case ChartHeight - 1:
			label = "0 %"
		}
		fmt.Fprintf(&b, "%*s %s\n", chartLabelWidth-1, label, row)
	}
	axis := []byte(strings.Repeat(" ", w))
	left, right, title := fmt.Sprintf("%.1f", lo), fmt.Sprintf("%.1f", hi), "tokens per question"
	copy(axis, left)
	copy(axis[w-len(right):], right)
	copy(axis[(w-len(title))/2:], title)
	fmt.Fprintf(&b, "%s%s\n", strings.Repeat(" ", chartLabelWidth), strings.TrimRight(string(axis), " "))
	width, tokWidth := 0, 0
	for _, a := range arms {
		width = max(width, len(a.Name))
		if a.Drawn {
			tokWidth = max(tokWidth, len(fmt.Sprintf("%.1f", a.Tokens)))
		}
	}
	for _, a := range arms {
		if !a.Drawn {
			fmt.Fprintf(&b, "  %c  %-*s  no question finished: not drawn\n", a.Mark, width, a.Name)
			continue
		}
		fmt.Fprintf(&b, "  %c  %-*s  %*.1f tokens per question, %s right\n", a.Mark, width, a.Name, tokWidth, a.Tokens, pct(a.Accuracy))
	}
	if len(curve) > 1 {
		var names []string
		for _, i := range curve {
			names = append(names, arms[i].Name)
		}
		fmt.Fprintf(&b, "  .  the vote curve, by K: %s\n", strings.Join(names, ", "))
	}
	if shared {
		b.WriteString("  *  arms in one place\n")
	}
	return b.String()
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// svgChart is the chart of report.html: every figure a coordinate in a
// W × H picture, the plot between Left and Right, Top and Bottom.
type svgChart struct {
	W, H                     int
	Left, Right, Top, Bottom string
	XTicks, YTicks           []svgTick
	XTitleX, XTitleY         string
	YTitleX, YTitleY         string
	Curve                    string // the vote curve's polyline points; "" with fewer than two
	Points                   []svgPoint
}

// svgTick is one tick of an axis: its line from (X1, Y1) to (X2, Y2),
// a grid line across the plot to (GX, GY), its label at (TX, TY).
type svgTick struct {
	X1, Y1, X2, Y2, GX, GY, TX, TY, Label string
}

// svgPoint is one arm's point and its label.
type svgPoint struct {
	X, Y, TX, TY string
	Class        string // "point vote" or "point debate"
	Label        string
	LabelClass   string // "end": the label ends at (TX, TY)
	Name         string
}

// svgChartOf lays out rep's chart: x from 0 to a round figure at or above
// the most tokens per question, y from 0 to 100 %; nil when no arm
// finished a question.
func svgChartOf(rep *Report) *svgChart {
	arms, curve := chartArms(rep)
	_, hi, ok := tokenRange(arms)
	if !ok {
		return nil
	}
	const w, h, left, right, top, bottom = 640, 400, 70.0, 610.0, 20.0, 340.0
	step := niceStep(hi, 5)
	xMax := math.Ceil(hi/step) * step
	decimals := max(0, -int(math.Floor(math.Log10(step))))
	x := func(tok float64) float64 { return left + tok/xMax*(right-left) }
	y := func(acc float64) float64 { return bottom - acc*(bottom-top) }
	ch := &svgChart{
		W: w, H: h, Left: f1(left), Right: f1(right), Top: f1(top), Bottom: f1(bottom),
		XTitleX: f1((left + right) / 2), XTitleY: f1(bottom + 42),
		YTitleX: f1(-(top + bottom) / 2), YTitleY: "16",
	}
	for i := 0; float64(i)*step <= xMax+step/2; i++ {
		v := float64(i) * step
		px := f1(x(v))
		ch.XTicks = append(ch.XTicks, svgTick{
			X1: px, Y1: f1(bottom), X2: px, Y2: f1(bottom + 6), GX: px, GY: f1(top),
			TX: px, TY: f1(bottom + 20), Label: fmt.Sprintf("%.*f", decimals, v),
		})
	}
	for i := 0; i <= 5; i++ {
		py := f1(y(float64(i) / 5))
		ch.YTicks = append(ch.YTicks, svgTick{
			X1: f1(left - 6), Y1: py, X2: f1(left), Y2: py, GX: f1(right), GY: py,
			TX: f1(left - 10), TY: py, Label: fmt.Sprintf("%d %%", 20*i),
		})
	}
	if len(curve) > 1 {
		var pts []string
		for _, i := range curve {
			pts = append(pts, f1(x(arms[i].Tokens))+","+f1(y(arms[i].Accuracy)))
		}
		ch.Curve = strings.Join(pts, " ")
	}
	var placed []labelBox
	for _, a := range arms {
		if !a.Drawn {
			continue
		}
		class := "point vote"
		if a.Debate || a.K == 0 {
			class = "point debate"
		}
		px, py := x(a.Tokens), y(a.Accuracy)
		p := svgPoint{
			X: f1(px), Y: f1(py), Class: class, Name: a.Name,
			Label: fmt.Sprintf("%s %s", a.Name, pct(a.Accuracy)),
		}
		box := labelBox{x0: px + 7, y: py - 7, w: labelWidth(p.Label)}
		if px > (left+right)/2 { // the label to the left, within the picture
			box.x0, p.LabelClass = px-7-box.w, "end"
		}
		box = box.free(placed, top+labelHeight, bottom)
		placed = append(placed, box)
		p.TX, p.TY = f1(box.x0), f1(box.y)
		if p.LabelClass == "end" {
			p.TX = f1(box.x0 + box.w)
		}
		ch.Points = append(ch.Points, p)
	}
	return ch
}

// labelHeight is a point label's line height in the SVG, and labelWidth
// about its width: 7 px a character at the page's 12 px font.
const labelHeight = 14

func labelWidth(s string) float64 { return 7 * float64(utf8.RuneCountInString(s)) }

// labelBox is where a point's label sits: from x0, w wide, its baseline
// at y (the text above it).
type labelBox struct{ x0, y, w float64 }

func (b labelBox) overlaps(o labelBox) bool {
	return b.x0 < o.x0+o.w && o.x0 < b.x0+b.w && b.y-labelHeight < o.y && o.y-labelHeight < b.y
}

// free moves b, a line at a time, below and then above where it was, to
// the nearest place that overlaps no label placed (arms at one spot, or
// close, would print their labels over each other), its baseline kept
// from top to bottom; where no place is free it stays.
func (b labelBox) free(placed []labelBox, top, bottom float64) labelBox {
	clear := func(c labelBox) bool {
		if c.y < top || c.y > bottom {
			return false
		}
		for _, o := range placed {
			if c.overlaps(o) {
				return false
			}
		}
		return true
	}
	for step := 0; step <= int((bottom-top)/labelHeight); step++ {
		for _, dy := range []float64{float64(step), -float64(step)} {
			c := b
			c.y += dy * labelHeight
			if clear(c) {
				return c
			}
		}
	}
	return b
}

// niceStep is a step of 1, 2 or 5 times a power of ten that cuts 0 to
// hi (above 0) in about n.
func niceStep(hi float64, n int) float64 {
	raw := hi / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

func f1(v float64) string { return fmt.Sprintf("%.1f", v) }
