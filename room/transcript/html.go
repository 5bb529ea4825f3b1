package transcript

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // the page's style sheet
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/roundtable-dev/roundtable/room"
)

//go:embed page.css
var pageCSS string

// HTML writes the transcript of r to w as one self-contained HTML page: the
// same content as Markdown, with the agents' Markdown rendered and
// sanitized, inline CSS only (light and dark, phone width, print), and a
// Content-Security-Policy that allows no script and no network load at all.
// Nothing is written when the room cannot be read.
func HTML(w io.Writer, r *room.Room) error {
	d, err := load(r)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := writeHTML(&b, d); err != nil {
		return err
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write the transcript: %w", err)
	}
	return nil
}

// pageData is what the page template sees.
type pageData struct {
	*doc
	CSP     string
	Style   template.CSS
	Groups  []htmlGroup
	Verdict []template.HTML
}

// htmlGroup is a round with its messages rendered.
type htmlGroup struct {
	Title    string
	Articles []template.HTML
}

func writeHTML(b *bytes.Buffer, d *doc) error {
	style := pageStyle(d.colors)
	data := pageData{
		doc:   d,
		Style: template.CSS(style), //nolint:gosec // our own style sheet and palette, no room data
		CSP:   contentSecurityPolicy(style),
	}
	var all []*entry
	for gi := range d.Groups {
		for ei := range d.Groups[gi].Entries {
			all = append(all, &d.Groups[gi].Entries[ei])
		}
	}
	for vi := range d.Verdicts {
		all = append(all, &d.Verdicts[vi])
	}
	articles := renderArticles(all)
	size := 16 << 10
	for _, a := range articles {
		size += len(a) + 1
	}
	b.Grow(size)
	for _, g := range d.Groups {
		data.Groups = append(data.Groups, htmlGroup{Title: g.Title, Articles: articles[:len(g.Entries)]})
		articles = articles[len(g.Entries):]
	}
	data.Verdict = articles
	if err := pageTemplate().Execute(b, data); err != nil {
		return fmt.Errorf("render the HTML transcript: %w", err)
	}
	return nil
}

// renderArticles renders every message as its <article>, spread over the
// CPUs: a long room is thousands of independent documents, and Markdown
// rendering and sanitizing are most of the work.
func renderArticles(entries []*entry) []template.HTML {
	out := make([]template.HTML, len(entries))
	var next atomic.Int64
	work := func() {
		var b, scratch bytes.Buffer
		for {
			i := int(next.Add(1) - 1)
			if i >= len(entries) {
				return
			}
			b.Reset()
			writeArticle(&b, &scratch, entries[i])
			out[i] = template.HTML(b.String()) //nolint:gosec // escaped header, bluemonday body
		}
	}
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(entries)/16)) {
		wg.Go(work)
	}
	wg.Wait()
	return out
}

// writeArticle writes one message: its escaped header, then its body
// through goldmark and bluemonday.
func writeArticle(b, scratch *bytes.Buffer, e *entry) {
	if e.Note {
		writeNoteHTML(b, scratch, e)
		return
	}
	writeMeta(b, e)
	if strings.TrimSpace(e.Text) == "" {
		b.WriteString(`<p class="empty">(empty message)</p>`)
	} else {
		renderMarkdownTo(b, e.Text, scratch)
	}
	b.WriteString("</div>\n</article>")
}

// pageStyle is the page's whole style sheet: the fixed rules and one rule per
// seat class with its light (--l) and dark (--d) color.
func pageStyle(classes []seatClass) string {
	var b strings.Builder
	b.WriteString(pageCSS)
	for _, c := range classes {
		fmt.Fprintf(&b, ".%s{--l:%s;--d:%s}\n", c.Class, c.Color.light, c.Color.dark)
	}
	return b.String()
}

// contentSecurityPolicy forbids everything but the page's own style sheet,
// named by its hash: no script, no image, no font, no frame, no fetch, no
// form, so even markup that got past the sanitizer could neither run nor
// load anything.
func contentSecurityPolicy(style string) string {
	sum := sha256.Sum256([]byte(style))
	return "default-src 'none'; script-src 'none'; style-src 'sha256-" +
		base64.StdEncoding.EncodeToString(sum[:]) +
		"'; img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none';" +
		" object-src 'none'; frame-src 'none'; child-src 'none'; worker-src 'none';" +
		" manifest-src 'none'; form-action 'none'; base-uri 'none'"
}

// The page template is parsed on first use, not at start: every command links
// this package, and the seat server must start fast.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").
		Funcs(template.FuncMap{"skipped": skippedSummary}).
		Parse(pageHTML))
})

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="roundtable transcript">
<title>{{.Topic}} · roundtable transcript</title>
<style>{{.Style}}</style>
</head>
<body>
<div class="page">
<header>
<h1>{{.Topic}}</h1>
<p class="sub">Transcript of the {{.Mode}} <strong>{{.Room}}</strong></p>
<dl class="facts">
<dt>Room</dt><dd>{{.Room}}</dd>
<dt>Mode</dt><dd>{{.Mode}}</dd>
<dt>Messages</dt><dd>{{.Count}}</dd>
<dt>Rounds</dt><dd>{{.Rounds}}</dd>
{{- if .Notes}}
<dt>Notes</dt><dd>{{.Notes}}</dd>
{{- end}}
<dt>{{if .Debate}}Personas{{else}}Seats{{end}}</dt><dd><ul class="seats">
{{- range .Seats}}
<li><span class="dot {{.Class}}"></span><span class="who {{.Class}}">{{.Seat}}</span>{{if .Stance}} <span class="stance">({{.Stance}})</span>{{end}}: {{.Agents}}</li>
{{- end}}
</ul></dd>
<dt>Duration</dt><dd>{{.Duration}}</dd>
</dl>
</header>
{{- if .Skipped}}
<aside class="note" role="note">
<p><strong>Note:</strong> {{skipped (len .Skipped)}}</p>
<ul>
{{- range .Skipped}}
<li><code>{{.File}}</code>: {{.Reason}}</li>
{{- end}}
</ul>
</aside>
{{- end}}
<main>
{{- if not (or .Groups .Verdict)}}
<p class="empty">No messages yet.</p>
{{- end}}
{{- range .Groups}}
<section>
<h2 class="round">{{.Title}}</h2>
{{- range .Articles}}
{{.}}
{{- end}}
</section>
{{- end}}
{{- if .Verdict}}
<section class="verdict">
<h2>Verdict</h2>
{{- range .Verdict}}
{{.}}
{{- end}}
</section>
{{- end}}
</main>
<footer class="end {{if .End.Closed}}closed{{else}}open{{end}}">
<p>{{.End.Text}}</p>
</footer>
</div>
</body>
</html>
`

// htmlText escapes a value for an HTML text node or a quoted attribute,
// byte for byte as html/template does there (NUL becomes U+FFFD).
var htmlText = strings.NewReplacer(
	"\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

// writeMeta writes the start of a message's <article>, up to its body. It is
// written out by hand rather than through html/template: this runs once per
// message, and the template's reflection was a sixth of an export's time.
// Every value but the seq (an int) is escaped.
func writeMeta(b *bytes.Buffer, e *entry) {
	seq := strconv.Itoa(e.Seq)
	b.WriteString(`<article class="msg `)
	_, _ = htmlText.WriteString(b, e.Class)
	b.WriteString(`" id="m` + seq + `">` + "\n" + `<div class="meta"><span class="who">`)
	_, _ = htmlText.WriteString(b, e.Seat)
	b.WriteString(`</span>`)
	if e.Agent != "" {
		b.WriteString(` <span class="agent">`)
		_, _ = htmlText.WriteString(b, e.Agent)
		b.WriteString(`</span>`)
	}
	if e.Kind != "" {
		b.WriteString(` <span class="kind">`)
		_, _ = htmlText.WriteString(b, e.Kind)
		b.WriteString(`</span>`)
	}
	if !writeTimeHTML(b, e) {
		b.WriteString(` <span>`)
		_, _ = htmlText.WriteString(b, e.Time)
		b.WriteString(`</span>`)
	}
	b.WriteString(` <a class="seq" href="#m` + seq + `">#` + seq + "</a></div>\n<div class=\"body\">\n")
}

// writeTimeHTML writes e's time as a <time> element when it has an ISO
// form, and reports whether it did.
func writeTimeHTML(b *bytes.Buffer, e *entry) bool {
	if e.ISO == "" {
		return false
	}
	b.WriteString(` <time datetime="`)
	_, _ = htmlText.WriteString(b, e.ISO)
	b.WriteString(`">`)
	_, _ = htmlText.WriteString(b, e.Time)
	b.WriteString(`</time>`)
	return true
}
