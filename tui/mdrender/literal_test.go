package mdrender

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/tui/internal/fidelity"
)

// TestRenderShowsHTMLAsText: what Glamour used to drop, and what it used
// to decode, is shown as typed; code stays code.
func TestRenderShowsHTMLAsText(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // each must be on screen (spaces as they fall)
		not      []string // and these must not
	}{
		{"generic", "make Store<T> generic", []string{"make Store<T> generic"}, nil},
		{"component", "the <Button> component", []string{"the <Button> component"}, nil},
		{"jsx", "render <Button onClick={x}/> here", []string{"<Button onClick={x}/>"}, nil},
		{"script block", "<script>alert('x')</script>\n\nafter", []string{"<script>alert('x')</script>", "after"}, nil},
		{"style block", "<style>\nbody { color: red }\n</style>", []string{"<style>", "body { color: red }", "</style>"}, nil},
		{"iframe", `<iframe src="https://evil.example/f"></iframe>`, []string{`<iframe src="https://evil.example/f"></iframe>`}, nil},
		{"comment", "keep <!-- this note --> visible", []string{"keep <!-- this note --> visible"}, nil},
		{"markdown between inline tags is markdown", "<b>**x** _y_</b>", []string{"<b>x y</b>"}, nil},
		{"markdown inside an html block is text", "<div>\n**x** _y_ `z`\n</div>", []string{"<div> **x** _y_ `z` </div>"}, nil},
		{"backslash inside html", `<a title="\*\\q">`, []string{`<a title="\*\\q">`}, nil},
		{"entities as typed", "AT&amp;T, &lt;b&gt;, &#42;x&#42; and &copy", []string{"AT&amp;T, &lt;b&gt;, &#42;x&#42; and &copy"}, nil},
		{"code span generic", "use `Store<T>` and `&amp;`", []string{"Store<T>", "&amp;"}, []string{"&lt;", "&amp;amp;"}},
		{"fenced code", "```html\n<div class=\"a\">&amp;</div>\n```", []string{`<div class="a">&amp;</div>`}, []string{"&lt;", "&#"}},
		{"comparison", "a < b > c and i<n&&j>0", []string{"a < b > c and i<n&&j>0"}, nil},
		{"html in a quote", "> quoted <i>x</i>", []string{"quoted <i>x</i>"}, nil},
		{"html in a list", "- item <kbd>Ctrl</kbd>\n- two", []string{"item <kbd>Ctrl</kbd>"}, nil},
		{"html in a table", "| a | b |\n|---|---|\n| <td> | [l&amp;](http://u) |", []string{"<td>", "l&amp;", "http://u"}, nil},
		{"still markdown", "**bold** and _em_", []string{"bold and em"}, []string{"**", "_em_"}},
	}
	r := New(true)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := xansi.Strip(r.Render(tt.in, 80))
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("%q missing from\n%s", w, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("%q in\n%s", n, out)
				}
			}
			if strings.Contains(tt.in, "|") {
				return // table syntax is consumed
			}
			if err := fidelity.Check(tt.in, out); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestLiteralLeavesPlainTextAlone: text without HTML or references is not
// even parsed, and is handed to Glamour unchanged.
func TestLiteralLeavesPlainTextAlone(t *testing.T) {
	for _, s := range []string{"plain **markdown**", "a > b", "`code`\n\n- list"} {
		if got := literal(s); got != s {
			t.Errorf("literal(%q) = %q", s, got)
		}
	}
}

// TestRenderFitsWidth: lists and quotes whose lines end in punctuation at
// the edge (Glamour's wrapper writes the mark past it) fit the width, with
// the mark kept.
func TestRenderFitsWidth(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"- visible win lands within one sprint, not after a migration.", 35, "sprint,"},
		{"> and within ones. next", 15, "ones."},
		{"- the cleverest design doesn't matter. Really.", 30, "matter."},
		{"```json\n{\"model\": \"x\", \"completions\": [1, 2, 3]}\n```", 20, `"completions":`},
	}
	r := New(true)
	for _, tt := range tests {
		out := r.Render(tt.in, tt.width)
		if most := widest(out); most > tt.width {
			t.Errorf("Render(%q, %d) has a line %d wide:\n%s", tt.in, tt.width, most, xansi.Strip(out))
		}
		if !strings.Contains(xansi.Strip(out), tt.want) {
			t.Errorf("Render(%q, %d) lost %q:\n%s", tt.in, tt.width, tt.want, xansi.Strip(out))
		}
	}
}

func widest(s string) int {
	most := 0
	for _, l := range strings.Split(s, "\n") {
		most = max(most, xansi.StringWidth(l))
	}
	return most
}

// TestRenderKeepsEveryCharacter is the property behind the two fixes:
// random Markdown-ish text (fidelity.Doc) at random widths from 20 to 200,
// rendered whole and as a growing text fed in small pieces: every line fits
// and every character that Markdown does not consume is on screen, in
// order.
func TestRenderKeepsEveryCharacter(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 2026))
	r := New(true)
	for n := range fidelity.Cases(200) {
		text := fidelity.Doc(rng)
		width := 20 + rng.IntN(181)
		check := func(how, out string) {
			t.Helper()
			if most := widest(out); most > width {
				t.Fatalf("case %d (%s, width %d): a line is %d wide\ntext: %q\n%s", n, how, width, most, text, xansi.Strip(out))
			}
			if err := fidelity.Check(text, xansi.Strip(out)); err != nil {
				t.Fatalf("case %d (%s, width %d): %v\ntext: %q\nscreen:\n%s", n, how, width, err, text, xansi.Strip(out))
			}
		}
		check("whole", r.Render(text, width))
		// Streamed in small pieces, rendered at a few random moments (each
		// render may close finished blocks), then flushed.
		g := r.NewGrowing(width)
		clock := time.Unix(0, 0)
		for rest := text; rest != ""; {
			k := min(1+rng.IntN(12), len(rest))
			g.Append(rest[:k])
			rest = rest[k:]
			if rng.IntN(len(text)/24+1) == 0 {
				clock = clock.Add(time.Second)
				g.Render(clock)
			}
		}
		g.Flush()
		check("growing", g.View())
	}
}

// TestFidelityCheckCatchesLoss makes sure the property can fail: the
// renders of the old pipeline (HTML dropped, lines cut at the width) are
// caught.
func TestFidelityCheckCatchesLoss(t *testing.T) {
	text := "make Store<T> generic"
	if err := fidelity.Check(text, "make Store generic"); err == nil {
		t.Error("a dropped <T> passed the check")
	}
	if err := fidelity.Check("doesn't matter.", "doesn't matter"); err == nil {
		t.Error("a cut full stop passed the check")
	}
	if err := fidelity.Check("# Title\n\n- **bold** `code`", " Title\n• bold code"); err != nil {
		t.Errorf("markup Markdown consumes failed the check: %v", err)
	}
}

// BenchmarkLiteral is the cost of showing HTML and references as typed,
// beside a whole uncached render of the same message: a message of agent
// text with generics, tags and entities (one that takes the parse), and one
// without (returned as it is).
func BenchmarkLiteral(b *testing.B) {
	withHTML := strings.Repeat("Make `Store<T>` and Store<T> generic; the <Button onClick={x}/> component, AT&amp;T, a < b.\n\n- one <b>two</b>\n- three\n\n", 4)
	plain := strings.Repeat("A paragraph with **bold**, `code` and a [link](https://x.example).\n\n- one\n- two\n\n", 4)
	for _, tt := range []struct{ name, text string }{{"html", withHTML}, {"plain", plain}} {
		b.Run(tt.name+"/literal", func(b *testing.B) {
			for b.Loop() {
				literal(tt.text)
			}
		})
		b.Run(tt.name+"/render", func(b *testing.B) {
			r := New(true)
			for i := 0; b.Loop(); i++ {
				r.Render(tt.text+strings.Repeat(" ", i%64)+fmt.Sprint(i), 80)
			}
		})
	}
}
