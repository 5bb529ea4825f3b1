package transcript

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// pageElements are the elements a transcript page may contain: the
// template's and those the sanitizer lets through.
var pageElements = setOf(
	"html", "head", "meta", "title", "style", "body", "div", "header", "h1", "p", "strong", "dl", "dt", "dd",
	"ul", "li", "span", "aside", "code", "main", "section", "h2", "article", "time", "a", "footer",
	"br", "hr", "h3", "h4", "h5", "h6", "blockquote", "pre", "em", "del", "ol",
	"table", "thead", "tbody", "tr", "th", "td",
)

// bodyElements are the elements a rendered message may contain.
var bodyElements = setOf(
	"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "em", "strong", "del",
	"ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "a",
)

// safeAttrs are the only attributes allowed anywhere.
var safeAttrs = setOf("class", "id", "href", "rel", "target", "title", "start", "align",
	"charset", "http-equiv", "content", "name", "lang", "role", "datetime")

var ownAnchor = regexp.MustCompile(`^#[mn][0-9]+$`)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// domProblems walks a parsed tree and lists everything that could run
// script, load a resource or leave the allowed vocabulary.
func domProblems(n *html.Node, allowed map[string]bool) []string {
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			if !allowed[n.Data] || n.Namespace != "" {
				out = append(out, fmt.Sprintf("element <%s> (namespace %q)", n.Data, n.Namespace))
			}
			for _, a := range n.Attr {
				out = append(out, attrProblems(n.Data, a)...)
			}
		case html.CommentNode:
			out = append(out, fmt.Sprintf("comment %q", n.Data))
		case html.ErrorNode, html.TextNode, html.DocumentNode, html.DoctypeNode, html.RawNode:
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func attrProblems(el string, a html.Attribute) []string {
	key := strings.ToLower(a.Key)
	if !safeAttrs[key] || a.Namespace != "" {
		return []string{fmt.Sprintf("attribute %s=%q on <%s>", a.Key, a.Val, el)}
	}
	switch key {
	case "href":
		if ownAnchor.MatchString(a.Val) {
			return nil
		}
		u, err := url.Parse(a.Val)
		if err != nil {
			return []string{fmt.Sprintf("unparseable href %q", a.Val)}
		}
		switch strings.ToLower(u.Scheme) {
		case "http", "https", "mailto":
			return nil
		}
		return []string{fmt.Sprintf("href %q", a.Val)}
	case "http-equiv":
		if el != "meta" || a.Val != "Content-Security-Policy" {
			return []string{fmt.Sprintf("http-equiv %q", a.Val)}
		}
	case "content", "name", "charset":
		if el != "meta" {
			return []string{fmt.Sprintf("attribute %s on <%s>", key, el)}
		}
	}
	return nil
}

// assertSafePage parses a whole transcript page and fails on anything
// outside the allowed vocabulary, on a second style sheet, or on a message
// that escaped its article.
func assertSafePage(t *testing.T, page string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range domProblems(doc, pageElements) {
		t.Errorf("unsafe page: %s", p)
	}
	if n := len(findAll(doc, "style")); n != 1 {
		t.Errorf("%d style elements, want only the page's own", n)
	}
	for _, m := range findAll(doc, "meta") {
		if m.Parent == nil || m.Parent.Data != "head" {
			t.Errorf("a <meta> outside <head>")
		}
	}
	for _, body := range findAll(doc, "div") {
		if classOf(body) != "body" {
			continue
		}
		if p := body.Parent; p == nil || p.Data != "article" {
			t.Errorf("a message body outside its article")
		}
		for _, el := range descendants(body) {
			if !bodyElements[el.Data] {
				t.Errorf("<%s> inside a message body", el.Data)
			}
		}
	}
	for _, a := range findAll(doc, "article") {
		if !inside(a, "main") {
			t.Errorf("an article outside <main>: a message broke out of its place")
		}
	}
}

func classOf(n *html.Node) string {
	for _, a := range n.Attr {
		if a.Key == "class" {
			return a.Val
		}
	}
	return ""
}

func inside(n *html.Node, tag string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.Data == tag {
			return true
		}
	}
	return false
}

func descendants(n *html.Node) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			out = append(out, c)
		}
		out = append(out, descendants(c)...)
	}
	return out
}

func findAll(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	if n.Type == html.ElementNode && n.Data == tag {
		out = append(out, n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, findAll(c, tag)...)
	}
	return out
}

func TestHostilePage(t *testing.T) {
	page := renderPage(t, hostileRoom(t, goldenBeacon))
	assertSafePage(t, page)
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(findAll(doc, "article")); n != hostileMessageCount() {
		t.Errorf("%d articles, want one per message (%d)", n, hostileMessageCount())
	}
	if n := len(findAll(doc, "section")); n == 0 || len(findAll(doc, "footer")) != 1 {
		t.Errorf("the page lost its structure: %d sections, %d footers", n, len(findAll(doc, "footer")))
	}
	// What the agents wrote is still there to read, as text.
	for _, want := range []string{"&lt;script&gt;document.title=", "&lt;iframe src=", "␛[31mred␛[0m", "␛]52;c;", "&lt;U+009B&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q as text", want)
		}
	}
}

func TestHostileMarkdown(t *testing.T) {
	out := renderMD(t, hostileRoom(t, goldenBeacon))
	assertTerminalSafe(t, out)
	for _, want := range []string{
		"# \\</title>\\<script>", "␛]0;pwned␇", // the topic, visible, no raw HTML
		"  - lead: \\<svg onload=alert(1)>␛[31m", // the label from server.log, visible
		"### lead · ␛[2J␛[Hclear · brief second line · time unknown",
		"\\<!-- close the page -->", // an HTML block cannot swallow what follows
		"`9999-1-<svg onload=alert(1)>.json`",
		"Closed at 2026-11-30 09:01:00 UTC: \\<script>",
		"Spec: javascript:alert(1) (not found).",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "../../../escape") {
		t.Errorf("the transcript names the room after room.json's hostile room field")
	}
}
