package eval_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/roundtable-dev/roundtable/debate/eval"
	"github.com/roundtable-dev/roundtable/debate/eval/evaltest"
)

// TestProgressLine: the bar's line, and what it drops when narrow.
func TestProgressLine(t *testing.T) {
	p := eval.Progress{
		Done: 10, Total: 40, Arms: []string{"single", "debate"}, ArmDone: []int{7, 3}, ArmTotal: 20,
		Tokens: 1234567, Elapsed: 65 * time.Second, Resumed: 5,
	}
	// 5 items done in 65 s: 13 s each, 30 left.
	if left, ok := p.ETA(); !ok || left != 390*time.Second {
		t.Errorf("ETA = %v, %v; want 6m30s", left, ok)
	}
	full := "[#####---------------]  eval 10/40 items  single 7/20  debate 3/20  1,234,567 tokens · 1m05s · ETA 6m30s"
	if got := p.Line(0); got != full {
		t.Errorf("Line(0) =\n%q, want\n%q", got, full)
	}
	noArms := "[#####---------------]  eval 10/40 items  1,234,567 tokens · 1m05s · ETA 6m30s"
	if got := p.Line(utf8.RuneCountInString(full) - 1); got != noArms {
		t.Errorf("narrower: %q, want %q", got, noArms)
	}
	if got := p.Line(utf8.RuneCountInString(noArms) - 1); got != "eval 10/40 items  1,234,567 tokens · 1m05s · ETA 6m30s" {
		t.Errorf("narrower still: %q", got)
	}
	if got := p.Line(10); got != "eval 10/40" {
		t.Errorf("Line(10) = %q", got)
	}
	p.Resumed = 10 // nothing done by this run: no pace yet
	if _, ok := p.ETA(); ok || strings.Contains(p.Line(0), "ETA") {
		t.Errorf("an ETA with no item done by this run: %q", p.Line(0))
	}
	p.Done, p.Resumed, p.Elapsed = 40, 0, 2*time.Hour+3*time.Second
	if got := p.Line(0); !strings.HasPrefix(got, "[####################]  eval 40/40") || !strings.HasSuffix(got, "tokens · 2h00m03s") {
		t.Errorf("done: %q", got)
	}
}

// TestProgressTerminal: on a terminal the run draws one bar in place, \r
// before each frame, its last frame the whole run's, the line ended; no
// line per item.
func TestProgressTerminal(t *testing.T) {
	qs, panel := scripted(t)
	srv := evaltest.New(t, panel.Script())
	arms, _ := eval.ParseArms("single,vote:3")
	var out syncBuffer
	rep, err := eval.Run(context.Background(), eval.Options{
		Questions: qs, Arms: arms, Provider: provider(t, srv.BaseURL()), Concurrency: 2,
		Progress: &out, Terminal: true, Width: 200,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.Contains(s, "eval: [") || !strings.HasSuffix(s, "\x1b[K\n") || strings.Count(s, "\n") != 1 {
		t.Fatalf("not a bar redrawn in place: %q", s)
	}
	frames := strings.Split(strings.TrimSuffix(s, "\n"), "\r")[1:]
	if len(frames) < 1+len(qs)*len(arms) {
		t.Errorf("%d frames, want one at the start and one per item at least (%d)", len(frames), 1+len(qs)*len(arms))
	}
	tokens := rep.Arms[0].Tokens + rep.Arms[1].Tokens
	last := strings.TrimSuffix(frames[len(frames)-1], "\x1b[K")
	want := fmt.Sprintf("[####################]  eval 12/12 items  single 6/6  vote:3 6/6  %s tokens · ", withCommas(tokens))
	if !strings.HasPrefix(last, want) || strings.Contains(last, "ETA") {
		t.Errorf("last frame %q, want it to start %q, with no ETA", last, want)
	}
	if first := frames[0]; !strings.Contains(first, "eval 0/12 items") {
		t.Errorf("first frame %q", first)
	}
}

// withCommas writes n with thousands commas, apart from the package's.
func withCommas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
