package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// plainNoteHTML is how a message shown as plain text starts.
const plainNoteHTML = `<p class="plain-note">` + PlainNote + `</p>`

// TestHostileMarkdownShownAsText checks that every hostile text is shown as
// its escaped self after the note, without goldmark: before the bound,
// each cost seconds to minutes per view at this size.
func TestHostileMarkdownShownAsText(t *testing.T) {
	for _, h := range roomtest.HostileMarkdown(64 << 10) {
		t.Run(h.Name, func(t *testing.T) {
			if !TooComplex(h.Text) {
				t.Fatalf("TooComplex = false (cost %.0f, bound %.0f, depth %d)", measure(h.Text).cost, costBound(len(h.Text)), measure(h.Text).depth)
			}
			before := markdownConversions.Load()
			out := renderMarkdown(h.Text + "<script>alert(1)</script>")
			if n := markdownConversions.Load() - before; n != 0 {
				t.Errorf("goldmark converted %d texts, want none", n)
			}
			if !strings.HasPrefix(out, plainNoteHTML) {
				t.Errorf("the output does not start with the note: %.200q", out)
			}
			body, ok := strings.CutPrefix(out, plainNoteHTML+"\n"+`<pre class="plain"><code>`)
			body, ok2 := strings.CutSuffix(body, "</code></pre>\n")
			if !ok || !ok2 {
				t.Fatalf("the output is not the note and one <pre>: %.200q", out)
			}
			if strings.ContainsAny(body, "<>") {
				t.Errorf("the text is not escaped: %.200q", body)
			}
			if got := html.UnescapeString(body); got != h.Text+"<script>alert(1)</script>" {
				t.Errorf("the text shown differs from the message (%d bytes, want %d)", len(got), len(h.Text)+25)
			}
		})
	}
}

// TestOrdinaryMarkdownRendered checks that ordinary Markdown, small and
// large, and every Markdown file and reference room message of this
// repository, is rendered as Markdown, well within the bound.
func TestOrdinaryMarkdownRendered(t *testing.T) {
	texts := map[string]string{
		"bench message":             benchText,
		"quotes four deep":          "> one\n> > two\n> > > three\n> > > > four: **bold** and `code` and [a link](https://example.com)\n",
		"lists six deep":            "- a\n  - b\n    - c\n      - d\n        - e\n          - f with [a](https://example.com)\n",
		"code holding link openers": "```\n" + strings.Repeat("[a](", 16<<10) + "\n```\n",
		"wide table": "|" + strings.Repeat(" col |", 12) + "\n|" + strings.Repeat("---|", 12) + "\n" +
			strings.Repeat("|"+strings.Repeat(" cell with `code` |", 12)+"\n", 60),
		"many links": strings.Repeat("See [the doc](https://example.com/a/b) and [that](https://example.com/c). ", 400),
	}
	// Denser than ordinary, yet rendered.
	dense := map[string]string{
		"short list items":    strings.Repeat("- item\n", 200),
		"lists twelve deep":   "- a\n  - b\n    - c\n      - d\n        - e\n          - f\n            - g\n              - h\n                - i\n                  - j\n                    - k\n                      - l\n",
		"emphasis everywhere": strings.Repeat("*a* _b_ `c` ~~d~~ ", 500),
	}
	for name, text := range dense {
		if TooComplex(text) {
			t.Errorf("%s: TooComplex (cost %.0f of %.0f, depth %d)", name, measure(text).cost, costBound(len(text)), measure(text).depth)
		}
	}
	for _, n := range []int{1 << 10, 16 << 10, 256 << 10, 1 << 20} {
		texts[fmt.Sprintf("ordinary %d KiB", n>>10)] = roomtest.OrdinaryMarkdown(n)
	}
	root := filepath.Join("..", "..")
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			texts[p] = string(data)
		}
		return nil
	})
	files, _ := filepath.Glob(filepath.Join(root, "room", "testdata", "reference-rooms", "*", ".roundtable", "*", "messages", "*.json"))
	for _, f := range files {
		var m struct{ Text string }
		if data, err := os.ReadFile(f); err == nil && json.Unmarshal(data, &m) == nil {
			texts[f] = m.Text
		}
	}
	if len(texts) < 30 {
		t.Fatalf("only %d texts to check; the repository's files were not found", len(texts))
	}
	for name, text := range texts {
		c := measure(text)
		if bound := costBound(len(text)); c.cost > bound/2 || c.depth > MaxDepth/2 || c.scan > scanBound(len(text))/2 || c.cells > cellBound(len(text))/2 ||
			c.delims > delimBound(len(text))/2 || c.blocks > blockBound(len(text))/2 {
			t.Errorf("%s: cost %.0f of a bound of %.0f, %d bytes scanned of %d, %d cells of %d, %d delimiters of %d, %d blocks of %d, depth %d: ordinary Markdown should stay under half",
				name, c.cost, bound, c.scan, scanBound(len(text)), c.cells, cellBound(len(text)), c.delims, delimBound(len(text)), c.blocks, blockBound(len(text)), c.depth)
		}
		if len(text) > 64<<10 {
			continue // the bound is what matters; rendering it is the benchmarks' work
		}
		if out := renderMarkdown(text); strings.Contains(out, "plain-note") {
			t.Errorf("%s was shown as plain text", name)
		}
	}
}

// TestBoundEdges checks the limits from both sides: nesting of MaxDepth is
// rendered, one more is not; a text just within the cost bound is
// rendered, one just past it is not.
func TestBoundEdges(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("> ", n) + "text\n" }
	if TooComplex(deep(MaxDepth)) {
		t.Errorf("a quote %d deep is TooComplex", MaxDepth)
	}
	if !TooComplex(deep(MaxDepth + 1)) {
		t.Errorf("a quote %d deep is not TooComplex", MaxDepth+1)
	}
	indented := func(n int) string { return strings.Repeat("  ", n-1) + "- item\n" }
	if TooComplex(indented(MaxDepth)) || !TooComplex(indented(MaxDepth+1)) {
		t.Errorf("a list item indented to depth %d or %d is on the wrong side of MaxDepth", MaxDepth, MaxDepth+1)
	}
	// Blocks of "> > > > text", each costing the same, until the bound.
	block := "> > > > text\n\n"
	per := measure(block+block).cost - measure(block).cost
	n := 1
	for measure(strings.Repeat(block, n+1)).cost <= costBound(len(block)*(n+1)) {
		n++
	}
	if n < 5 {
		t.Fatalf("only %d blocks fit the bound (each costs %.0f)", n, per)
	}
	if TooComplex(strings.Repeat(block, n)) || !TooComplex(strings.Repeat(block, n+1)) {
		t.Errorf("%d blocks should be rendered and %d not", n, n+1)
	}
}

// TestBodyRenderedOnce checks that each message is converted once, however
// many views show it: the export, the live page and its parts share the
// cache.
func TestBodyRenderedOnce(t *testing.T) {
	text := fmt.Sprintf("**unique** message %p for the cache test", t)
	before := markdownConversions.Load()
	first := renderMarkdown(text)
	if n := markdownConversions.Load() - before; n != 1 {
		t.Fatalf("the first render converted %d texts, want 1", n)
	}
	if again := renderMarkdown(text); again != first {
		t.Errorf("the cached render differs: %q, want %q", again, first)
	}
	if n := markdownConversions.Load() - before; n != 1 {
		t.Errorf("a second render converted again (%d conversions)", n)
	}

	msgs := []fileMsg{
		{Seq: 1, At: at(1), Seat: room.SeatLead, Agent: "codex", Kind: "brief", Text: text + " one, *with* Markdown"},
		{Seq: 2, At: at(2), Seat: room.SeatPeer, Agent: "claude", Kind: "reply", Text: text + " two, *with* Markdown"},
		{Seq: 3, At: at(3), Seat: room.SeatLead, Agent: "codex", Kind: "objection", Text: text + " three, *with* Markdown"},
	}
	r := writeRoom(t, "cached", room.Config{Room: "cached", Topic: "cache", Budget: 10, Spec: "SPEC-cached.md", CreatedAt: at(0)}, msgs, nil)
	before = markdownConversions.Load()
	if err := HTML(io.Discard, r); err != nil {
		t.Fatal(err)
	}
	if n := markdownConversions.Load() - before; n != 3 {
		t.Fatalf("the export converted %d texts, want 3", n)
	}
	if err := HTML(io.Discard, r); err != nil {
		t.Fatal(err)
	}
	if _, err := LiveView(r); err != nil {
		t.Fatal(err)
	}
	if _, err := LiveViewAfter(r, 1, 0); err != nil {
		t.Fatal(err)
	}
	if n := markdownConversions.Load() - before; n != 3 {
		t.Errorf("the export, page and parts converted %d texts in all, want each of the 3 once", n)
	}
}

// TestBodyCacheBounded checks that the cache keeps to its size, dropping
// the least recently used.
func TestBodyCacheBounded(t *testing.T) {
	c := newBodyCache(4096)
	key := func(i int) bodyKey { return keyOf(strconv.Itoa(i)) }
	for i := range 100 {
		c.Put(key(i), strings.Repeat("x", 100))
		if i == 50 {
			c.Get(key(0)) // recently used: kept a while longer
		}
	}
	if b, n := c.Size(); b > 4096 || n == 0 {
		t.Errorf("the cache holds %d bytes in %d entries, want at most 4096", b, n)
	}
	if _, ok := c.Get(key(99)); !ok {
		t.Error("the newest entry was dropped")
	}
	if _, ok := c.Get(key(1)); ok {
		t.Error("an old entry was kept past the bound")
	}
	c.Put(key(1000), strings.Repeat("x", 5000))
	if _, ok := c.Get(key(1000)); ok {
		t.Error("an entry larger than the whole cache was kept")
	}
}

// TestShortBlocksBounded: a message of one-word list items padded with
// prose to 64 KiB is within the cost model (each item ~130 µs) but opens
// a block every few bytes, which Glamour pays ~150 µs each: it is past
// the block bound. A checklist of 800 items nested two deep, 15 KB, is
// dense ordinary Markdown and stays rendered.
func TestShortBlocksBounded(t *testing.T) {
	items := strings.Repeat("- a\n", 4000)
	text := items + "\n" + strings.Repeat("Some plain words in a sentence. ", (64<<10-len(items))/32)
	c := measure(text)
	if c.cost > costBound(len(text)) {
		t.Fatalf("the text is past the cost bound already (%.0f of %.0f): it tests nothing of the block bound", c.cost, costBound(len(text)))
	}
	if !TooComplex(text) {
		t.Errorf("4,000 one-word items in 64 KiB (%d blocks of %d) are rendered", c.blocks, blockBound(len(text)))
	}
	var list strings.Builder
	for i := range 400 {
		fmt.Fprintf(&list, "- step %d: check the cache\n  - and its eviction %d\n", i, i)
	}
	if c := measure(list.String()); TooComplex(list.String()) {
		t.Errorf("a %d-byte checklist of 800 items is shown as text (%d blocks of %d, cost %.0f of %.0f)",
			list.Len(), c.blocks, blockBound(list.Len()), c.cost, costBound(list.Len()))
	}
}

// renderMarkdown is one message's HTML, as renderMarkdownTo writes it.
func renderMarkdown(src string) string {
	var out, scratch bytes.Buffer
	renderMarkdownTo(&out, src, &scratch)
	return out.String()
}
