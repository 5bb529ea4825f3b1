package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// checkRenderedSafe is the property FuzzRenderHTML checks: a rendered
// message holds only Markdown's elements, no event handler, no style, no
// src, no link but http, https or mailto, no comment, and cannot close the
// element it is placed in.
func checkRenderedSafe(t *testing.T, md, out string) {
	t.Helper()
	if strings.Contains(strings.ToLower(out), "<script") {
		t.Fatalf("renderMarkdown(%q) = %q: contains <script", md, out)
	}
	page := `<!DOCTYPE html><html><head></head><body><div id="msg">` + out + `</div><p id="after"></p></body></html>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	bodies := findAll(doc, "body")
	if len(bodies) != 1 {
		t.Fatalf("renderMarkdown(%q) = %q: %d bodies", md, out, len(bodies))
	}
	var kids []string
	for c := bodies[0].FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			kids = append(kids, c.Data+"#"+attr(c, "id"))
		}
	}
	if strings.Join(kids, " ") != "div#msg p#after" {
		t.Fatalf("renderMarkdown(%q) = %q: broke out of its element (body holds %v)", md, out, kids)
	}
	div := bodies[0].FirstChild
	for div.Type != html.ElementNode {
		div = div.NextSibling
	}
	for c := div.FirstChild; c != nil; c = c.NextSibling {
		for _, p := range domProblems(c, bodyElements) {
			t.Fatalf("renderMarkdown(%q) = %q: %s", md, out, p)
		}
	}
	for _, a := range findAll(div, "a") {
		rel := " " + attr(a, "rel") + " "
		if attr(a, "href") != "" && (!strings.Contains(rel, " nofollow ") || !strings.Contains(rel, " noreferrer ")) {
			t.Fatalf("renderMarkdown(%q) = %q: a link without rel=nofollow noreferrer", md, out)
		}
		if attr(a, "target") != "" && (attr(a, "target") != "_blank" || !strings.Contains(rel, " noopener ")) {
			t.Fatalf("renderMarkdown(%q) = %q: a link opens a window without rel=noopener", md, out)
		}
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func FuzzRenderHTML(f *testing.F) {
	for _, s := range hostileTexts(goldenBeacon) {
		f.Add(s)
	}
	f.Add("# h\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n~~gone~~ www.example.com <https://x.y> [m](mailto:a@b.c)")
	f.Fuzz(func(t *testing.T, md string) {
		checkRenderedSafe(t, md, renderMarkdown(md))
	})
}

func TestRenderMarkdown(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"heading and emphasis", "# Title\n\n*a* **b** ~~c~~", "<h1>Title</h1>\n<p><em>a</em> <strong>b</strong> <del>c</del></p>\n"},
		{"table with alignment", "| a | b |\n|:--|--:|\n| 1 | 2 |", `<th align="left">a</th>`},
		{"code block keeps its language", "```go\nx := 1\n```", `<pre><code class="language-go">x := 1`},
		{"hostile language class is dropped", "```x\" onclick=\"y\n```", "<pre><code>"},
		{"autolink", "see www.example.com", `<a href="http://www.example.com" rel="nofollow noreferrer noopener" target="_blank">www.example.com</a>`},
		{"mailto link", "[me](mailto:a@b.c)", `<a href="mailto:a@b.c" rel="nofollow noreferrer">me</a>`},
		{"javascript link loses its href", "[x](javascript:alert(1))", "<p>x</p>"},
		{"relative link loses its href", "[x](../etc/passwd)", "<p>x</p>"},
		{"image becomes a link", "![cat](https://example.com/cat.png)", `<a href="https://example.com/cat.png" rel="nofollow noreferrer noopener" target="_blank">[image: cat]</a>`},
		{"raw HTML shows as text", "a <b onclick=x>b</b>", "<p>a <code>&lt;b onclick=x&gt;</code>b<code>&lt;/b&gt;</code></p>"},
		{"HTML block shows as text", "<div>\nhi\n</div>", "<pre><code>&lt;div&gt;\nhi\n&lt;/div&gt;</code></pre>"},
		{"ordered list start", "3. c\n4. d", `<ol start="3">`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := renderMarkdown(tt.in)
			if !strings.Contains(got, tt.want) {
				t.Errorf("renderMarkdown(%q) = %q, want it to contain %q", tt.in, got, tt.want)
			}
			checkRenderedSafe(t, tt.in, got)
		})
	}
}

// fuzzSeeds are the seed corpora under testdata/fuzz, kept in step with the
// hostile corpus (rewritten by -update).
func fuzzSeeds() map[string]string {
	seeds := map[string]string{}
	for i, s := range hostileTexts(goldenBeacon) {
		seeds[filepath.Join("FuzzRenderHTML", fmt.Sprintf("hostile-%02d", i+1))] = s
	}
	for i, s := range []string{
		"\x1b[31mred\x1b[0m", "\x1b]52;c;cm0gLXJmIH4=\x07", "\x1b]0;title\x1b\\", "\u009b2J\u009d0;x\u009c",
		"raw \x9b byte", "a\r\nb\rc\x00\b\x7f", "\u202eevil\u202c\u2066", "\xff\xfe\xfd", "\x1bP+q\x1b\\",
	} {
		seeds[filepath.Join("FuzzSanitizeTerminal", fmt.Sprintf("escape-%02d", i+1))] = s
	}
	return seeds
}

func TestFuzzSeeds(t *testing.T) {
	for name, s := range fuzzSeeds() {
		path := filepath.Join("testdata", "fuzz", name)
		want := fmt.Sprintf("go test fuzz v1\nstring(%q)\n", s)
		if *update {
			writeFile(t, path, []byte(want))
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("seed %s is missing or stale (run go test -update): %v", path, err)
		}
	}
}
