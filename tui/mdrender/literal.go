package mdrender

import (
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// mdParser parses Markdown the way Glamour's TermRenderer does (CommonMark
// with GitHub's extensions and definition lists), so literal sees the same
// nodes Glamour will. Parsers keep no state between calls.
var mdParser = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.DefinitionList)).Parser()

// literal rewrites Markdown so that Glamour shows every character the
// author typed, where Glamour would drop or change some:
//
//   - Raw HTML, inline (`Store<T>`, `<Button onClick={x}/>`, comments) or
//     a block (`<script>…</script>`), is dropped by Glamour's HTML
//     sanitizer. Each ASCII punctuation character in it becomes a numeric
//     character reference, so the parser sees plain text (no tag, no
//     emphasis, no link, no autolink) and Glamour, which decodes references
//     in text, shows the characters themselves. Leading indentation of an
//     HTML block's lines is dropped so that no line turns into an indented
//     code block.
//   - Glamour decodes character references in text and code spans, so a
//     typed `&amp;` showed as `&`, and `&lt;` in a code span as `<`. Each `&` in text
//     and code spans (whose text is a Text node too) becomes `&amp;`,
//     which Glamour decodes back to the `&` that was typed.
//
// Everything else (code spans, code blocks, links, emphasis) is left to
// Glamour, so `<T>` in backticks stays `<T>`. Text without `<` or `&` is
// returned as it is, without parsing.
func literal(src string) string {
	if !strings.ContainsAny(src, "<&") {
		return src
	}
	source := []byte(src)
	doc := mdParser.Parse(text.NewReader(source))
	var edits []edit
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Image:
			// Glamour shows an image's alt text without decoding it.
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			edits = appendAmp(edits, source, n.Segment)
		case *ast.RawHTML:
			for i := range n.Segments.Len() {
				edits = append(edits, edit{seg: n.Segments.At(i), html: true})
			}
		case *ast.HTMLBlock:
			lines := n.Lines()
			for i := range lines.Len() {
				edits = append(edits, edit{seg: lines.At(i), html: true, block: true})
			}
			if n.HasClosure() {
				edits = append(edits, edit{seg: n.ClosureLine, html: true, block: true})
			}
		}
		return ast.WalkContinue, nil
	})
	if len(edits) == 0 {
		return src
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].seg.Start < edits[j].seg.Start })
	var b strings.Builder
	b.Grow(len(src) + len(src)/4)
	at := 0
	for _, e := range edits {
		if e.seg.Start < at {
			continue // overlapping segments: already written
		}
		b.WriteString(src[at:e.seg.Start])
		seg := src[e.seg.Start:e.seg.Stop]
		if e.html {
			writeHTMLAsText(&b, seg, e.block)
		} else {
			b.WriteString("&amp;")
		}
		at = e.seg.Stop
	}
	b.WriteString(src[at:])
	return b.String()
}

// edit is a part of the source to rewrite: one `&` of text, or a segment
// of raw HTML.
type edit struct {
	seg   text.Segment
	html  bool
	block bool // a line of an HTML block
}

// appendAmp adds an edit for every `&` in a text segment. A `\&` is
// escaped too: Glamour decodes the reference after it all the same.
func appendAmp(edits []edit, source []byte, seg text.Segment) []edit {
	for i := seg.Start; i < seg.Stop; i++ {
		if source[i] == '&' {
			edits = append(edits, edit{seg: text.NewSegment(i, i+1)})
		}
	}
	return edits
}

// writeHTMLAsText writes raw HTML with its ASCII punctuation as numeric
// character references; see literal.
func writeHTMLAsText(b *strings.Builder, s string, block bool) {
	if block {
		s = strings.TrimLeft(s, " \t")
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			// Glamour undoes Markdown escapes in the decoded text
			// (`\*` shows `*`, `\\` shows `\`), so a backslash goes in
			// doubled.
			b.WriteString("&#92;&#92;")
			continue
		}
		if isASCIIPunct(c) {
			b.WriteString("&#")
			b.WriteString(strconv.Itoa(int(c)))
			b.WriteByte(';')
			continue
		}
		b.WriteByte(c)
	}
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}
