package debate

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrapWriter: text written in pieces that cut words in two comes out
// broken only between words (a word wider than a line cut at the width),
// no line wider than the width, indents and line breaks kept, and nothing
// lost.
func TestWrapWriter(t *testing.T) {
	in := "- **Data exposure:** we must know exactly which fields leave the service, and log access to the sensitive ones.\n\n  an indented line that is long enough to wrap somewhere along it\nsupercalifragilisticexpialidocious-and-then-some word\nnaïve café “quotes” 日本語のテキスト end"
	for _, chunk := range []int{1, 3, 7, len(in)} {
		var b bytes.Buffer
		ww := NewWrapWriter(&b, 20)
		for i := 0; i < len(in); i += chunk {
			if _, err := ww.Write([]byte(in[i:min(i+chunk, len(in))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := ww.Flush(); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, l := range strings.Split(out, "\n") {
			if ansi.StringWidth(l) > 20 {
				t.Errorf("chunks of %d: a line of %d cells: %q", chunk, ansi.StringWidth(l), l)
			}
			if l != strings.TrimRight(l, " ") {
				t.Errorf("chunks of %d: trailing spaces: %q", chunk, l)
			}
		}
		if got, want := strings.Join(strings.Fields(out), ""), strings.Join(strings.Fields(in), ""); got != want {
			t.Errorf("chunks of %d: the text changed:\n%s", chunk, out)
		}
		for _, want := range []string{"- **Data exposure:**\n", "\n\n  an indented line\n", "\nsupercalifragilistic\nexpialidocious-and-t\nhen-some word\n", "café “quotes”\n日本語のテキスト end"} {
			if !strings.Contains(out, want) {
				t.Errorf("chunks of %d: no %q in:\n%s", chunk, want, out)
			}
		}
	}
}

// TestHeadlessWidth: the text and md formats with a width break the debate's
// lines at words to it (the md transcript had lines of 100 and more);
// jsonl ignores the width.
func TestHeadlessWidth(t *testing.T) {
	for _, format := range []string{FormatText, FormatJSONL, FormatMD} {
		var out, errb bytes.Buffer
		opts := headlessOpts(t.TempDir(), format)
		opts.Width = 40
		err := RunHeadless(context.Background(), opts, &out, &errb)
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, errb.String())
		}
		wide := 0
		for _, l := range strings.Split(out.String(), "\n") {
			if ansi.StringWidth(l) > 40 {
				wide++
			}
		}
		switch {
		case format != FormatJSONL && wide > 0:
			t.Errorf("%s: %d lines wider than 40 cells:\n%s", format, wide, out.String())
		case format == FormatMD && !strings.Contains(out.String(), "## Verdict"):
			t.Errorf("md: no verdict:\n%s", out.String())
		case format == FormatText && !strings.Contains(out.String(), "━━━ Moderator's verdict ━━━"):
			t.Errorf("text: no verdict:\n%s", out.String())
		case format == FormatJSONL && wide == 0:
			t.Errorf("jsonl was wrapped:\n%s", out.String())
		}
	}
}
