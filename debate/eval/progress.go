package eval

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// BarWidth is the width of the progress bar's [###---] gauge, brackets
// left out.
const BarWidth = 20

// Progress is where a run stands, as the progress bar draws it.
type Progress struct {
	Done, Total int      // items, every arm's
	Arms        []string // arm names
	ArmDone     []int    // items done per arm
	ArmTotal    int      // items per arm: the questions
	Tokens      int64    // spent so far, the resumed items' included
	Elapsed     time.Duration
	// Resumed are items an earlier run did (Options.Done): they count as
	// done but not for the pace the ETA is read from.
	Resumed int
}

// ETA is the time left at the pace of the items this run did; ok is
// false before the first one or when all are done.
func (p Progress) ETA() (left time.Duration, ok bool) {
	did := p.Done - p.Resumed
	if did <= 0 || p.Done >= p.Total {
		return 0, false
	}
	return time.Duration(float64(p.Elapsed) / float64(did) * float64(p.Total-p.Done)), true
}

// Line is the bar as one line of at most width cells (no limit when
// width is 0): the gauge, items done of the total, each arm's, the
// tokens spent, the time spent and the ETA. When it does not fit, the
// arms go first, then the gauge; what is left is cut.
func (p Progress) Line(width int) string {
	gauge := "[" + strings.Repeat("#", p.Done*BarWidth/max(p.Total, 1)) + strings.Repeat("-", BarWidth-p.Done*BarWidth/max(p.Total, 1)) + "]"
	head := fmt.Sprintf("eval %d/%d items", p.Done, p.Total)
	var arms []string
	for i, a := range p.Arms {
		arms = append(arms, fmt.Sprintf("%s %d/%d", a, p.ArmDone[i], p.ArmTotal))
	}
	tail := fmt.Sprintf("%s tokens · %s", formatCount(p.Tokens), clock(p.Elapsed))
	if left, ok := p.ETA(); ok {
		tail += " · ETA " + clock(left)
	}
	for _, parts := range [][]string{
		{gauge, head, strings.Join(arms, "  "), tail},
		{gauge, head, tail},
		{head, tail},
	} {
		s := strings.Join(parts, "  ")
		if width <= 0 || len([]rune(s)) <= width {
			return s
		}
	}
	s := []rune(head + "  " + tail)
	return string(s[:min(len(s), width)])
}

// formatCount is n with thousands separated by commas.
func formatCount(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && c != '-' && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// clock is d as 1m05s (or 1h02m03s), to the second.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%dh%02dm%02ds", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%dm%02ds", s/60, s%60)
}

// progress tells the run's progress to Options.Progress: on a terminal
// (Options.Terminal) one bar redrawn in place, else a line per item.
type progress struct {
	w     io.Writer
	term  bool
	width int
	start time.Time
	now   func() time.Time
	spent func() int64

	mu sync.Mutex
	p  Progress
}

func newProgress(opt Options, spent func() int64) *progress {
	pr := &progress{w: opt.Progress, term: opt.Terminal, width: opt.Width, now: time.Now, spent: spent}
	pr.start = pr.now()
	pr.p = Progress{Total: len(opt.Questions) * len(opt.Arms), ArmTotal: len(opt.Questions), ArmDone: make([]int, len(opt.Arms))}
	for _, a := range opt.Arms {
		pr.p.Arms = append(pr.p.Arms, a.Name)
	}
	return pr
}

// resumed counts an item of arm a done by an earlier run.
func (pr *progress) resumed(a int) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.p.Done++
	pr.p.Resumed++
	pr.p.ArmDone[a]++
}

// item counts an item of arm a just done: q is its question's index of n.
func (pr *progress) item(a, q, n int, arm string, it *Item) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.p.Done++
	pr.p.ArmDone[a]++
	if pr.w == nil {
		return
	}
	if pr.term {
		pr.drawLocked()
		return
	}
	verdict := "wrong"
	if it.Correct {
		verdict = "right"
	}
	fmt.Fprintf(pr.w, "eval: [%d/%d] question %d/%d (%s) %s: %s, %s\n",
		pr.p.Done, pr.p.Total, q+1, n, it.ID, arm, orNone(it.Answer), verdict)
}

// draw redraws the bar (a terminal's, each second, so the time moves
// while the calls are under way).
func (pr *progress) draw() {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.w != nil && pr.term {
		pr.drawLocked()
	}
}

func (pr *progress) drawLocked() {
	pr.p.Tokens, pr.p.Elapsed = pr.spent(), pr.now().Sub(pr.start)
	// \r to the line's start, the bar, then erase what a longer bar left.
	fmt.Fprintf(pr.w, "\r%s\x1b[K", pr.p.Line(pr.width))
}

// end draws the bar a last time and ends its line, so what is written
// next starts on a line of its own.
func (pr *progress) end() {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.w == nil || !pr.term {
		return
	}
	pr.drawLocked()
	fmt.Fprint(pr.w, "\n")
}
