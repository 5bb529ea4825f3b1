package transcript

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestModel: the transcript as data holds what the Markdown and HTML
// renderers lay out from the same model: every message in its group, the
// verdict apart, how the room ended; agent text as the room holds it
// (unescaped: a client escapes it for its output), and JSON-encoded
// without a raw angle bracket.
func TestModel(t *testing.T) {
	for _, c := range roomCases() {
		r := c.open(t)
		doc, err := Model(r)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := 0
		for _, g := range doc.Groups {
			for _, e := range g.Entries {
				if !e.Note {
					n++
				}
			}
		}
		if n+len(doc.Verdicts) != doc.Messages {
			t.Fatalf("%s: %d entries and %d verdicts for %d messages", c.name, n, len(doc.Verdicts), doc.Messages)
		}
		md := renderMD(t, r)
		if doc.Topic == "" || !strings.Contains(md, doc.Topic) && c.name != "hostile" {
			t.Fatalf("%s: topic %q is not the Markdown's", c.name, doc.Topic)
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(string(b), "<>") {
			t.Fatalf("%s: the JSON holds a raw angle bracket", c.name)
		}
		if c.name == "hostile" {
			raw := false
			for _, g := range doc.Groups {
				for _, e := range g.Entries {
					raw = raw || strings.Contains(e.Text, "<")
				}
			}
			if !raw {
				t.Fatal("hostile: the text was escaped in the model; the client escapes it")
			}
		}
	}
}
