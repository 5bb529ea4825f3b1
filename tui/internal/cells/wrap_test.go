package cells

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want []string
	}{
		// Glamour's quote leaves this line one cell too wide.
		{"│ and matter. the and sprint, ones.", 34, []string{"│ and matter. the and sprint,", "│ ones."}},
		// A space just past the edge is where to break.
		{"doesn't matter. x", 15, []string{"doesn't matter.", "x"}},
		{"  indented code that is long", 12, []string{"  indented", "  code that", "  is long"}},
		{"averyveryverylongtoken", 8, []string{"averyver", "yverylon", "gtoken"}},
		{"日本語日本語", 5, []string{"日本", "語日", "本語"}},
		{"fits", 4, []string{"fits"}},
	}
	for _, tt := range tests {
		got := Split(tt.in, tt.w)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
}

func TestSplitKeepsStyles(t *testing.T) {
	in := "\x1b[1mbold words that run past the edge\x1b[m"
	got := Split(in, 12)
	for _, l := range got {
		if ansi.StringWidth(l) > 12 {
			t.Errorf("%q is wider than 12", l)
		}
		if !strings.HasPrefix(l, "\x1b[1m") || !strings.HasSuffix(l, "\x1b[m") {
			t.Errorf("%q lost its style or leaves it open", l)
		}
	}
	if strings.Join(strings.Fields(ansi.Strip(strings.Join(got, " "))), " ") != ansi.Strip(in) {
		t.Errorf("text changed: %q", got)
	}
}

// nonSpace is s without its spaces and escape sequences.
func nonSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, ansi.Strip(s))
}

// TestWrapNeverOverflows wraps random text with hyphens, punctuation, long
// tokens and wide characters: every line fits and no character is lost.
func TestWrapNeverOverflows(t *testing.T) {
	words := []string{"user-", "visible", "win", "--", "a-b-c", "ones.", "x", "doesn't", "名前を変える", "🙂", "supercalifragilisticexpialidocious", "-", "—", "\x1b[31mred\x1b[m"}
	rng := rand.New(rand.NewPCG(1, 2))
	overflowed := 0
	for n := range 5000 {
		var b strings.Builder
		for range rng.IntN(30) + 1 {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString([]string{" ", " ", "  ", "\n"}[rng.IntN(4)])
		}
		s := b.String()
		w := 2 + rng.IntN(40)
		if Widest(ansi.Wrap(s, w, "")) > w {
			overflowed++
		}
		got := Wrap(s, w)
		if most := Widest(got); most > w {
			t.Fatalf("case %d: Wrap(%q, %d) has a line %d wide:\n%s", n, s, w, most, got)
		}
		if nonSpace(got) != nonSpace(s) {
			t.Fatalf("case %d: Wrap(%q, %d) lost text:\n%s", n, s, w, got)
		}
	}
	// The cases must reach the bug this guards against.
	if overflowed == 0 {
		t.Fatal("no case made ansi.Wrap overflow; the test proves nothing")
	}
	t.Logf("%d of 5000 cases overflowed with ansi.Wrap alone", overflowed)
}

// TestWrapKeepsFlagsWhole: a hyphen that starts a word (--room, -v) is no
// place to break a line, as ansi.Wrap alone took it to be ("roundtable -"
// then "-room nope"); a hyphen within a word still is; the text is kept,
// hyphens and all, and no line is wider than asked.
func TestWrapKeepsFlagsWhole(t *testing.T) {
	const msg = "This screen attaches as soon as an agent's seat server (roundtable --room nope) or roundtable seed creates it."
	tests := []struct {
		in       string
		w        int
		notEnd   string // no line ends with it
		wantLine string // a line that must be there
	}{
		{msg, 56, " -", ""},
		{"run it with -v or --room read-only-room now", 14, "-", ""},
		{"a read-only copy", 8, "", "a read-"},
		{"\x1b[1mroundtable --resume\x1b[m then more", 12, "-", ""},
	}
	for _, tt := range tests {
		got := Wrap(tt.in, tt.w)
		lines := strings.Split(ansi.Strip(got), "\n")
		for _, l := range lines {
			if ansi.StringWidth(l) > tt.w {
				t.Errorf("Wrap(%q, %d): line %q is wider than %d", tt.in, tt.w, l, tt.w)
			}
			if tt.notEnd != "" && strings.HasSuffix(l, tt.notEnd) && strings.HasSuffix(strings.TrimRight(l, "-"), " ") {
				t.Errorf("Wrap(%q, %d) broke a flag: %q", tt.in, tt.w, lines)
			}
		}
		if tt.wantLine != "" && !strings.Contains("\n"+ansi.Strip(got)+"\n", "\n"+tt.wantLine+"\n") {
			t.Errorf("Wrap(%q, %d) = %q: no line %q (a hyphen within a word is still a break)", tt.in, tt.w, lines, tt.wantLine)
		}
		if strings.ContainsRune(got, heldHyphen) || strings.Count(got, "-") != strings.Count(tt.in, "-") {
			t.Errorf("Wrap(%q, %d) = %q: its hyphens changed", tt.in, tt.w, got)
		}
		if strings.Join(strings.Fields(ansi.Strip(got)), "") != strings.Join(strings.Fields(ansi.Strip(tt.in)), "") {
			t.Errorf("Wrap(%q, %d) = %q: the words changed", tt.in, tt.w, got)
		}
	}
	// A text holding a non-breaking hyphen of its own keeps it.
	if got := Wrap("a \u2011 b --c", 80); got != "a \u2011 b --c" {
		t.Errorf("a non-breaking hyphen of the text's own became %q", got)
	}
}
