package transcript

import (
	"bytes"
	"html/template"
	"testing"
)

// The reference: the header as html/template wrote it before writeMeta.
const metaReference = `<article class="msg {{.Class}}" id="m{{.Seq}}">
<div class="meta"><span class="who">{{.Seat}}</span>
{{- if .Agent}} <span class="agent">{{.Agent}}</span>{{end}}
{{- if .Kind}} <span class="kind">{{.Kind}}</span>{{end}}
{{- if .ISO}} <time datetime="{{.ISO}}">{{.Time}}</time>{{else}} <span>{{.Time}}</span>{{end}} <a class="seq" href="#m{{.Seq}}">#{{.Seq}}</a></div>
<div class="body">
`

func TestWriteMetaEscapesAsHTMLTemplate(t *testing.T) {
	ref := template.Must(template.New("meta").Parse(metaReference))
	hostile := []string{
		"", "lead", "peer", `"><script>alert(1)</script>`, "a&b<c>d'e\"f+g",
		"nul\x00byte", "tab\tnew\nline", "ünïcödé ✓", "&amp;", "javascript:alert(1)", "' onmouseover='x",
	}
	for i, s := range hostile {
		for _, e := range []entry{
			{Seq: i + 1, Seat: s, Agent: s, Kind: s, Time: s, ISO: s, Class: "seat-lead"},
			{Seq: 10_000 + i, Seat: "lead", Agent: s, Time: s, Class: "p3"},
			{Seq: i, Seat: s, Kind: s, Time: "2026-11-30 12:00:00 UTC", ISO: "2026-11-30T12:00:00Z", Class: "seat-peer"},
		} {
			var want, got bytes.Buffer
			if err := ref.Execute(&want, e); err != nil {
				t.Fatal(err)
			}
			writeMeta(&got, &e)
			if got.String() != want.String() {
				t.Errorf("value %q:\n got %q\nwant %q", s, got.String(), want.String())
			}
		}
	}
}
