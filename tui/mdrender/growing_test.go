package mdrender

import (
	"fmt"
	"strings"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"
)

var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// feed appends text to g a few bytes at a time, rendering between appends
// as a screen would at 30 frames a second.
func feed(g *Growing, text string, step int, now time.Time) time.Time {
	for i := 0; i < len(text); i += step {
		g.Append(text[i:min(i+step, len(text))])
		now = now.Add(GrowingInterval)
		g.Render(now)
	}
	return now
}

func TestGrowingShowsEverything(t *testing.T) {
	text := "# Title\n\nFirst paragraph with **bold**.\n\n- a\n- b\n\n```go\nfunc f() {\n\n\treturn\n}\n```\n\nLast words here"
	g := New(true).NewGrowing(50)
	feed(g, text, 3, t0)
	g.Flush()
	got := visible(g.View())
	for _, want := range []string{"Title", "First paragraph with bold.", "• a", "• b", "func f() {", "return", "Last words here"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q missing from\n%s", want, got)
		}
	}
	if g.Text() != text {
		t.Errorf("Text() = %q", g.Text())
	}
	if g.Dirty() {
		t.Error("dirty after Flush")
	}
}

func TestGrowingMatchesWholeRender(t *testing.T) {
	// Paragraphs and headings split cleanly, so the growing render of a
	// finished text reads like the render of the whole.
	text := "## Plan\n\nOne paragraph.\n\nAnother paragraph, a little longer than the first one.\n\nThe end."
	r := New(true)
	g := r.NewGrowing(40)
	feed(g, text, 5, t0)
	g.Flush()
	if got, want := visible(g.View()), visible(r.Render(text, 40)); got != want {
		t.Errorf("growing render\n%s\nwhole render\n%s", got, want)
	}
}

func TestGrowingRendersFinishedBlocksOnce(t *testing.T) {
	r := New(true)
	g := r.NewGrowing(60)
	para := "A finished paragraph that will not change again.\n\n"
	now := feed(g, strings.Repeat(para, 20), len(para), t0)
	chunks := len(g.chunks)
	if chunks == 0 {
		t.Fatal("no finished block after twenty paragraphs")
	}
	// More text after the last boundary only renders the tail.
	g.Append("tail ")
	g.Render(now.Add(GrowingInterval))
	if len(g.chunks) != chunks {
		t.Errorf("finished blocks went from %d to %d on a tail change", chunks, len(g.chunks))
	}
	if g.done == 0 || !strings.HasPrefix(g.Text()[g.done:], "A finished") && !strings.HasPrefix(g.Text()[g.done:], "tail") {
		t.Errorf("tail starts at %d: %q", g.done, g.Text()[g.done:])
	}
	if len(g.Text())-g.done > 2*len(para) {
		t.Errorf("tail is %d bytes; the finished part should hold all but the last paragraph", len(g.Text())-g.done)
	}
}

func TestGrowingThrottles(t *testing.T) {
	g := New(true).NewGrowing(40)
	g.Append("one")
	if !g.Render(t0) {
		t.Fatal("first render refused")
	}
	g.Append(" two")
	now := t0.Add(GrowingInterval / 2)
	if g.Render(now) {
		t.Error("rendered twice within GrowingInterval")
	}
	if w := g.Wait(now); w != GrowingInterval-GrowingInterval/2 {
		t.Errorf("Wait = %v, want %v", w, GrowingInterval-GrowingInterval/2)
	}
	if !g.Render(t0.Add(GrowingInterval)) {
		t.Error("render refused after GrowingInterval")
	}
	if g.Render(t0.Add(time.Hour)) {
		t.Error("rendered with nothing new")
	}
	if strings.TrimSpace(xansi.Strip(g.View())) != "one two" {
		t.Errorf("View = %q", g.View())
	}
}

func TestGrowingKeepsCodeFencesWhole(t *testing.T) {
	g := New(true).NewGrowing(60)
	text := "Intro.\n\n```\nline one\n\nline two after a blank line\n```\n\nAfter."
	feed(g, text, 4, t0)
	g.Flush()
	// No boundary inside the fence: the blank line in the code block did
	// not split it.
	for _, c := range g.chunks {
		if strings.Contains(xansi.Strip(c), "line one") && !strings.Contains(xansi.Strip(c), "line two") {
			t.Fatalf("the code block was split: chunk %q", xansi.Strip(c))
		}
	}
	if !strings.Contains(visible(g.View()), "line two after a blank line") {
		t.Errorf("code block lost: %s", visible(g.View()))
	}
}

func TestGrowingSetWidth(t *testing.T) {
	g := New(true).NewGrowing(80)
	feed(g, strings.Repeat("wrap these words again and again. ", 10)+"\n\nmore", 7, t0)
	g.Flush()
	g.SetWidth(30)
	g.Flush()
	for _, l := range strings.Split(g.View(), "\n") {
		if xansi.StringWidth(l) > 30 {
			t.Fatalf("line wider than 30 after SetWidth: %q", xansi.Strip(l))
		}
	}
	if g.Width() != 30 {
		t.Errorf("Width = %d", g.Width())
	}
}

func TestStartsBlock(t *testing.T) {
	tests := map[string]bool{
		"Paragraph": true, "# Heading": true, "```go": true, "> quote": true,
		"  indented": false, "\tcode": false, "- item": false, "* item": false,
		"+ item": false, "12. item": false, "3) item": false, "| a | b |": false,
		"2024 was a year": true, "-not a list": true,
	}
	for line, want := range tests {
		if got := startsBlock(line); got != want {
			t.Errorf("startsBlock(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestFences(t *testing.T) {
	if opensFence("```go") != "```" || opensFence("~~~~") != "~~~~" || opensFence("    ```") != "" || opensFence("``` a`b") != "" {
		t.Error("opensFence")
	}
	if !closesFence("```", "```") || !closesFence("`````", "```") || closesFence("``", "```") || closesFence("~~~", "```") || closesFence("``` go", "```") {
		t.Error("closesFence")
	}
}

// BenchmarkGrowingToken is the cost of one token (append plus a render at
// 30 frames a second) in a turn of 1 KB and of 20 KB: it must not grow
// with the length of the turn.
func BenchmarkGrowingToken(b *testing.B) {
	para := "Tokens stream in one by one, with **bold** and `code` now and then, until the paragraph ends.\n\n"
	for _, size := range []int{1 << 10, 20 << 10} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			r := New(true)
			g := r.NewGrowing(80)
			for g.text.Len() < size {
				g.Append(para)
			}
			g.Flush()
			now := t0
			for i := 0; b.Loop(); i++ {
				g.Append("word ")
				if i%8 == 7 { // 8 tokens a frame
					now = now.Add(GrowingInterval)
					g.Render(now)
				}
				if i%200 == 199 {
					g.Append("\n\n")
				}
			}
		})
	}
}
