package mdrender

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"charm.land/glamour/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// hostile carries the terminal attacks agent text may hold.
var hostile = map[string]string{
	"clear screen":   "before \x1b[2J\x1b[H after",
	"set title":      "\x1b]0;pwned\x07 title",
	"osc 52":         "copy \x1b]52;c;cm0gLXJmIH4=\x07 this",
	"osc 8 link":     "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
	"c1 csi":         "c1 \u009b2J and \u009d0;t\u009c",
	"bell backspace": "ring\x07 back\x08space\r carriage",
	"bidi override":  "abc \u202edcba\u202c",
	"colour":         "\x1b[31mred\x1b[0m plain",
}

// onlySGR reports whether every escape sequence in s is a colour (SGR) one.
func onlySGR(s string) error {
	for _, tok := range tokenize(s) {
		if tok.kind == tokEsc {
			return fmt.Errorf("escape sequence %q is not a colour", tok.s)
		}
	}
	if strings.ContainsAny(s, "\x07\x08\r\u009b\u009c\u009d") {
		return fmt.Errorf("control character in %q", s)
	}
	return nil
}

func TestRenderSanitizes(t *testing.T) {
	r := New(true)
	for name, text := range hostile {
		t.Run(name, func(t *testing.T) {
			out := r.Render(text, 60)
			if err := onlySGR(out); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(text, "\x1b") && !strings.Contains(out, "␛") {
				t.Errorf("ESC is not shown as text: %q", out)
			}
		})
	}
}

func TestRenderDropsGlamourHyperlinks(t *testing.T) {
	out := New(true).Render("see [the docs](https://docs.example/x) and <https://auto.example>", 80)
	if strings.Contains(out, "\x1b]") {
		t.Fatalf("hyperlink sequence left in %q", out)
	}
	plain := xansi.Strip(out)
	for _, want := range []string{"the docs", "https://docs.example/x", "https://auto.example"} {
		if !strings.Contains(plain, want) {
			t.Errorf("%q missing from %q", want, plain)
		}
	}
}

func TestRenderWraps(t *testing.T) {
	text := strings.Repeat("word ", 80)
	for _, w := range []int{20, 40, 79} {
		out := New(false).Render(text, w)
		for i, l := range strings.Split(out, "\n") {
			if got := xansi.StringWidth(l); got > w {
				t.Errorf("width %d: line %d is %d wide: %q", w, i, got, l)
			}
		}
	}
	if out := New(true).Render("narrow", 1); xansi.Strip(out) != "narrow" {
		t.Errorf("width 1 renders %q, want the text at MinWidth", out)
	}
}

func TestRenderEmpty(t *testing.T) {
	for _, text := range []string{"", "   ", "\n\n"} {
		if out := New(true).Render(text, 40); out != "" {
			t.Errorf("Render(%q) = %q, want empty", text, out)
		}
	}
}

func TestRenderCache(t *testing.T) {
	r := New(true)
	if _, ok := r.Cached("# hi", 40); ok {
		t.Fatal("cached before any render")
	}
	a := r.Render("# hi", 40)
	size := r.CacheBytes()
	if size == 0 {
		t.Fatal("nothing cached")
	}
	b, ok := r.Cached("# hi", 40)
	if !ok || a != b {
		t.Fatalf("Cached = %q, %v; want %q", b, ok, a)
	}
	r.Render("# hi", 40)
	if r.CacheBytes() != size {
		t.Errorf("a second render grew the cache from %d to %d", size, r.CacheBytes())
	}
	if _, ok := r.Cached("# hi", 41); ok {
		t.Error("a render at another width came from the cache")
	}
}

func TestCacheEvicts(t *testing.T) {
	r := New(true, WithCacheBytes(4096))
	for i := range 100 {
		r.Render(fmt.Sprintf("message %d with **some** text", i), 40)
	}
	if got := r.CacheBytes(); got > 4096 {
		t.Fatalf("cache holds %d bytes, over its 4096-byte bound", got)
	}
	if _, ok := r.Cached("message 99 with **some** text", 40); !ok {
		t.Error("the newest render was evicted")
	}
	if _, ok := r.Cached("message 0 with **some** text", 40); ok {
		t.Error("the oldest render was kept past the bound")
	}
}

func TestRenderConcurrent(t *testing.T) {
	r := New(true)
	var wg sync.WaitGroup
	results := make([][]string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				results[g] = append(results[g], r.Render(fmt.Sprintf("**item %d** `code`", i), 20+g%4*10+i%3))
			}
		}()
	}
	wg.Wait()
	for g := range results {
		for i, out := range results[g] {
			if !strings.Contains(xansi.Strip(out), fmt.Sprintf("item %d", i)) {
				t.Fatalf("goroutine %d render %d: %q", g, i, out)
			}
		}
	}
}

// TestCompactKeepsText renders real messages with plain Glamour and
// checks that compaction changes nothing a reader sees: the same visible
// characters on every line, with the trailing padding and the blank lines
// at both ends removed.
func TestCompactKeepsText(t *testing.T) {
	files, err := filepath.Glob("testdata/messages/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference messages found (%v)", err)
	}
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(styleConfig(true)), glamour.WithWordWrap(70))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Text string }
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		raw, err := tr.Render(m.Text)
		if err != nil {
			t.Fatal(err)
		}
		got := compact(raw)
		if want := visible(raw); visible(got) != want {
			t.Errorf("%s: compaction changed the text:\n got %q\nwant %q", filepath.Base(f), visible(got), want)
		}
		if len(got) > len(raw)/3 {
			t.Errorf("%s: compacted to %d of %d bytes; expected far less", filepath.Base(f), len(got), len(raw))
		}
		if err := onlySGR(got); err != nil {
			t.Error(err)
		}
	}
}

// visible is what a reader sees: the text without escape sequences, each
// line right-trimmed, without blank lines at both ends.
func visible(s string) string {
	lines := strings.Split(xansi.Strip(stripOSC(s)), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

func TestCompactLine(t *testing.T) {
	const (
		grey  = "\x1b[38;5;252m"
		red   = "\x1b[31m"
		reset = "\x1b[m"
	)
	tests := []struct{ name, in, want string }{
		{"plain padding", "text   ", "text"},
		{"styled padding", grey + "text" + reset + grey + " " + reset + grey + " " + reset, grey + "text" + reset},
		{"only padding", grey + " " + reset + grey + " " + reset, ""},
		{"same style merged", grey + "a" + reset + grey + " b" + reset, grey + "a b" + reset},
		{"style change kept", grey + "a" + reset + red + "b" + reset, grey + "a" + reset + red + "b" + reset},
		{"empty pair dropped", grey + reset + red + "b" + reset, red + "b" + reset},
		{"open style closed", red + "open", red + "open" + reset},
		{"zero reset", red + "a\x1b[0m b", red + "a" + reset + " b"},
		{"stacked styles", grey + "\x1b[1m" + "bold" + reset, grey + "\x1b[1m" + "bold" + reset},
		{"nbsp kept", grey + "\u00a0x\u00a0" + reset, grey + "\u00a0x\u00a0" + reset},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compactLine(tt.in); got != tt.want {
				t.Errorf("compactLine(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStripOSC(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\x1b]8;id=1;https://x\x07link\x1b]8;;\x07b", "alinkb"},
		{"a\x1b]0;title\x1b\\b", "ab"},
		{"unterminated \x1b]8;;https://x", "unterminated "},
		{"no osc \x1b[1mbold", "no osc \x1b[1mbold"},
	}
	for _, tt := range tests {
		if got := stripOSC(tt.in); got != tt.want {
			t.Errorf("stripOSC(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestInline(t *testing.T) {
	tests := []struct{ in, want string }{
		{"opus-5", "opus-5"},
		{"two\nlines\tand  spaces", "two lines and spaces"},
		{"evil\x1b]0;x\x07", "evil␛]0;x␇"},
		{"  ", ""},
	}
	for _, tt := range tests {
		if got := Inline(tt.in); got != tt.want {
			t.Errorf("Inline(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	text := strings.Repeat("A paragraph with **bold**, `code` and a [link](https://x.example).\n\n- one\n- two\n\n", 4)
	r := New(true)
	b.Run("uncached", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			r.Render(text+fmt.Sprint(i), 80)
		}
	})
	b.Run("cached", func(b *testing.B) {
		r.Render(text, 80)
		for b.Loop() {
			r.Render(text, 80)
		}
	})
}

// WithCacheBytes bounds the cache of finished renders to n bytes of output
// (DefaultCacheBytes when not given); the least recently used go first.
func WithCacheBytes(n int) Option {
	return func(r *Renderer) { r.maxBytes = max(n, 0) }
}
