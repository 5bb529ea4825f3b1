package mdrender

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room/roomtest"
	"github.com/roundtable-dev/roundtable/room/transcript"
)

// TestHostileMarkdownShownAsText checks that each hostile text is shown as
// plain text under the note, within the width, without Glamour: before
// the bound, a few kilobytes of some of them kept Glamour busy for minutes.
func TestHostileMarkdownShownAsText(t *testing.T) {
	for _, h := range roomtest.HostileMarkdown(64 << 10) {
		t.Run(h.Name, func(t *testing.T) {
			r := New(true)
			out := r.Render(h.Text, 60)
			if r.glamourRenders != 0 {
				t.Errorf("Glamour rendered %d texts, want none", r.glamourRenders)
			}
			lines := strings.Split(out, "\n")
			if note := ansi.Strip(lines[0]); !strings.HasPrefix(transcript.PlainNote, note) || note == "" {
				t.Errorf("the first line is %q, want the start of the note", note)
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > 60 {
					t.Fatalf("line %d is %d cells wide, past 60", i, w)
				}
			}
			if got, want := nonSpace(ansi.Strip(out)), nonSpace(transcript.PlainNote+h.Text); got != want {
				t.Errorf("the text shown differs from the message (%d characters, want %d)", len(got), len(want))
			}
		})
	}
}

// TestOrdinaryMarkdownThroughGlamour checks that ordinary Markdown is
// rendered by Glamour, once however often it is shown.
func TestOrdinaryMarkdownThroughGlamour(t *testing.T) {
	r := New(true)
	text := roomtest.OrdinaryMarkdown(8 << 10)
	out := r.Render(text, 70)
	if strings.Contains(out, transcript.PlainNote[:20]) {
		t.Fatal("ordinary Markdown was shown as plain text")
	}
	if strings.Contains(out, "```") || strings.Contains(out, "| --- |") {
		t.Error("the Markdown was not rendered")
	}
	if again := r.Render(text, 70); again != out {
		t.Error("a second render differs")
	}
	if r.glamourRenders != 1 {
		t.Errorf("Glamour rendered the same text %d times, want once", r.glamourRenders)
	}
}

func TestWrapPlain(t *testing.T) {
	cases := []struct {
		text  string
		width int
		want  []string
	}{
		{"one two three four", 9, []string{"one two", "three", "four"}},
		{"abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
		{"ab  cd", 3, []string{"ab", "cd"}},
		{"日本語のテキスト", 6, []string{"日本語", "のテキ", "スト"}},
		{"a\n\nb", 4, []string{"a", "", "b"}},
		{strings.Repeat("- ", 8), 6, []string{"- - -", "- - -", "- -"}},
	}
	for _, c := range cases {
		if got := wrapPlain(c.text, c.width); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapPlain(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}

// nonSpace is s without its white space: what wrapping must keep.
func nonSpace(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// TestWrapLongLines checks Wrap on the lines cells.Wrap split slowly: every
// line within the width, every character kept, escape sequences shown.
func TestWrapLongLines(t *testing.T) {
	for _, text := range []string{strings.Repeat("- ", 32<<10), strings.Repeat("x", 64<<10), "\x1b[2J" + strings.Repeat("[a](", 8<<10)} {
		out := Wrap(text, 40)
		if strings.Contains(out, "\x1b") {
			t.Error("an escape sequence reached the output")
		}
		for i, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > 40 {
				t.Fatalf("line %d is %d cells wide", i, w)
			}
		}
		if got, want := nonSpace(out), nonSpace(transcript.SanitizeTerminal(text)); got != want {
			t.Errorf("the text changed: %d characters, want %d", len(got), len(want))
		}
	}
}
