package transcript

import (
	"bytes"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestAnyKindRendered: a room may carry any kind (the original server
// takes any string, and so do we, up to a short label): the transcript
// shows each as a label on the message's header line, a paragraph-long or
// hostile one cut and made safe.
func TestAnyKindRendered(t *testing.T) {
	hostile := "line one\nline two \x1b[2J " + strings.Repeat("very long kind ", 20)
	r := writeRoom(t, "kinds", room.Config{Room: "kinds", Topic: "kinds", Budget: 4, Spec: "SPEC-kinds.md", CreatedAt: t0.Format(room.TimeLayout)}, []fileMsg{
		{1, t0.Format(room.TimeLayout), "lead", "opus-5", "concession", "The lead concedes.", 0},
		{2, t0.Format(room.TimeLayout), "peer", "codex", "counter-proposal", "A label of its own.", 0},
		{3, t0.Format(room.TimeLayout), "lead", "opus-5", hostile, "A kind from another server.", 0},
		{4, t0.Format(room.TimeLayout), "peer", "codex", "", "No kind at all.", 0},
	}, nil)
	short := room.ShortKind(hostile)
	if !strings.HasSuffix(short, "…") || strings.ContainsAny(short, "\n\x1b") {
		t.Fatalf("ShortKind(hostile) = %q", short)
	}
	var md, html bytes.Buffer
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"concession", "counter-proposal", short} {
		if !headerHas(md.String(), kind) {
			t.Errorf("Markdown: no header line with kind %q:\n%s", kind, md.String())
		}
		if !strings.Contains(html.String(), `<span class="kind">`+kind+`</span>`) {
			t.Errorf("HTML: kind %q not shown as a label", kind)
		}
	}
	for _, out := range []string{md.String(), html.String()} {
		if strings.Contains(out, "line two") && !strings.Contains(out, "line one line two") {
			t.Error("the hostile kind's line break reached the output")
		}
		if strings.Contains(out, "\x1b") || strings.Contains(out, "very long kind very long kind very long kind") {
			t.Error("the hostile kind reached the output whole")
		}
	}
}

// headerHas reports whether a line of md that holds a message's header
// carries kind.
func headerHas(md, kind string) bool {
	for _, line := range strings.Split(md, "\n") {
		if strings.Contains(line, kind) && (strings.Contains(line, "lead") || strings.Contains(line, "peer")) {
			return true
		}
	}
	return false
}
