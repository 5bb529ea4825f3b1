package transcript

import (
	"bufio"
	"bytes"
	"regexp"
	"sync"
	"sync/atomic"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// renderMarkdownTo writes one message's Markdown to out as HTML that is
// safe to place inside the page. goldmark renders it (GFM tables,
// strikethrough and autolinks; raw HTML shown as text; images as links, so
// nothing loads), and bluemonday then keeps only the elements and
// attributes Markdown needs; scratch is the buffer between the two
// (reused across calls). Markdown past the bound (TooComplex) is shown as
// escaped plain text with PlainNote instead. Each text is rendered once:
// later calls are served from the process's cache of bodies
// (BodyCacheBytes), keyed by the text.
func renderMarkdownTo(out *bytes.Buffer, src string, scratch *bytes.Buffer) {
	key := keyOf(src)
	if html, ok := bodies.Get(key); ok {
		out.WriteString(html)
		return
	}
	start := out.Len()
	renderBodyTo(out, src, scratch)
	bodies.Put(key, string(out.Bytes()[start:]))
}

// markdownConversions counts the texts given to goldmark, for tests.
var markdownConversions atomic.Int64

// renderBodyTo renders src without the cache: as Markdown through goldmark
// and bluemonday, or, past the bound, as escaped plain text.
func renderBodyTo(out *bytes.Buffer, src string, scratch *bytes.Buffer) {
	if TooComplex(src) {
		writePlainHTML(out, src)
		return
	}
	markdownConversions.Add(1)
	scratch.Reset()
	// goldmark wraps any writer that is not already buffered in a fresh
	// 4 KiB bufio.Writer; reusing one saves that per message.
	bw := bufWriters.Get().(*bufio.Writer)
	bw.Reset(scratch)
	err := markdownEngine().Convert([]byte(src), bw)
	if err == nil {
		err = bw.Flush()
	}
	bw.Reset(nil)
	bufWriters.Put(bw)
	if err != nil {
		// goldmark fails only when its writer does; show the text instead.
		scratch.Reset()
		scratch.WriteString("<pre><code>")
		scratch.Write(util.EscapeHTML([]byte(src)))
		scratch.WriteString("</code></pre>")
	}
	// Writing to a bytes.Buffer cannot fail.
	_ = htmlPolicy().SanitizeReaderToWriter(bytes.NewReader(scratch.Bytes()), out)
}

// writePlainHTML writes a message too complex to render as its text,
// escaped, in a <pre> that wraps, after PlainNote. It is written here,
// not passed through the sanitizer: every byte of the text is escaped.
func writePlainHTML(out *bytes.Buffer, src string) {
	out.WriteString(`<p class="plain-note">`)
	out.WriteString(PlainNote)
	out.WriteString("</p>\n<pre class=\"plain\"><code>")
	_, _ = htmlText.WriteString(out, src)
	out.WriteString("</code></pre>\n")
}

var bufWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 4096) }}

var markdownEngine = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough,
			extension.Linkify,
		),
		goldmark.WithRendererOptions(
			// No html.WithUnsafe: raw HTML never passes through.
			renderer.WithNodeRenderers(util.Prioritized(literalHTML{}, 100)),
		),
	)
})

// codeClass is the only class a message may carry: goldmark's mark of a
// fenced block's language.
var codeClass = regexp.MustCompile(`^language-[A-Za-z0-9_+#.-]{1,40}$`)

// htmlPolicy is a bluemonday policy built from nothing rather than from
// UGCPolicy, so that every allowed element is one goldmark emits: no script,
// style, img, iframe, object, embed, svg, math, link, meta, form or input;
// no event handler, style or id attribute; links only to http, https and
// mailto URLs (absolute, parseable), with rel="nofollow noreferrer noopener"
// and target="_blank".
var htmlPolicy = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements(
		"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6",
		"blockquote", "pre", "code", "em", "strong", "del",
		"ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td",
	)
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("align").Matching(bluemonday.CellAlign).OnElements("th", "td")
	p.AllowAttrs("class").Matching(codeClass).OnElements("code")
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("title").Matching(bluemonday.Paragraph).OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.AllowRelativeURLs(false)
	p.RequireParseableURLs(true)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
})

// literalHTML renders what goldmark would pass through or drop as raw HTML
// as visible text instead, so a transcript shows what an agent wrote, and
// renders images as links, so that opening a transcript loads nothing.
type literalHTML struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (literalHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindImage, renderImage)
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	_, _ = w.WriteString("<code>")
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
	}
	_, _ = w.WriteString("</code>")
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if entering {
		_, _ = w.WriteString("<pre><code>")
		for i := range n.Lines().Len() {
			line := n.Lines().At(i)
			_, _ = w.Write(util.EscapeHTML(line.Value(source)))
		}
		return ast.WalkContinue, nil
	}
	if n.HasClosure() {
		_, _ = w.Write(util.EscapeHTML(n.ClosureLine.Value(source)))
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkContinue, nil
}

func renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Image)
	if !entering {
		_, _ = w.WriteString("]</a>")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<a href="`)
	dest := util.URLEscape(n.Destination, true)
	if !html.IsDangerousURL(dest) {
		_, _ = w.Write(util.EscapeHTML(dest))
	}
	_, _ = w.WriteString(`">[image: `)
	return ast.WalkContinue, nil
}
