package search

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestFoldKeepsOffsets(t *testing.T) {
	for _, s := range []string{"", "abc", "ÀÉÎ Straße", "KELVIN \u212a", "İstanbul", "ΣΑΣ", "日本語 ABC", "\xff\xfeBad"} {
		f := Fold(s)
		if len(f) != len(s) {
			t.Errorf("Fold(%q) = %q: %d bytes, want %d", s, f, len(f), len(s))
		}
	}
	if got := Fold("Hello ÀÉ World"); got != "hello àé world" {
		t.Errorf("Fold = %q", got)
	}
}

func TestPlain(t *testing.T) {
	got := Plain("## Point\n\nThe **cache** in `flush.go`\n  runs   every five\nseconds.")
	want := "## Point The cache in flush.go runs every five seconds."
	if got != want {
		t.Errorf("Plain = %q, want %q", got, want)
	}
}

// naive counts matches the slow, obvious way.
func naive(docs []string, q string) []int {
	out := make([]int, len(docs))
	q = strings.ToLower(q)
	for i, d := range docs {
		d = strings.ToLower(d)
		for off := 0; q != ""; {
			j := strings.Index(d[off:], q)
			if j < 0 {
				break
			}
			out[i]++
			off += j + len(q)
		}
	}
	return out
}

// TestFindMatchesNaive checks counts, Locate and Offset against a plain
// scan, with incremental queries (each reusing the last result) and texts
// added and changed between them.
func TestFindMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"Cache", "flush", "write", "BACK", "ahead", "a", "WAL", "p99", "aa"}
	text := func() string {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	var ix Index
	var docs []string
	for range 50 {
		docs = append(docs, text())
		ix.Add(docs[len(docs)-1])
	}
	var prev *Result
	for step := range 300 {
		switch rng.IntN(4) {
		case 0:
			docs = append(docs, text())
			ix.Add(docs[len(docs)-1])
		case 1:
			i := rng.IntN(len(docs))
			docs[i] = text()
			ix.Set(i, docs[i])
		}
		q := []string{"a", "ac", "ach", "cache", "wal", "x", "", "aa", "aaa"}[rng.IntN(9)]
		r := ix.Find(q, prev)
		prev = r
		want := naive(docs, q)
		total := 0
		for i, n := range want {
			if got := r.InDoc(i); got != n {
				t.Fatalf("step %d, query %q, text %d: %d matches, want %d", step, q, i, got, n)
			}
			total += n
		}
		if r.Total() != total {
			t.Fatalf("step %d: total %d, want %d", step, r.Total(), total)
		}
		if total == 0 {
			continue
		}
		k := rng.IntN(total)
		d, nth := r.Locate(k)
		off := ix.Offset(d, nth, r)
		if off < 0 || !strings.EqualFold(docs[d][off:off+len(q)], q) {
			t.Fatalf("step %d: match %d at text %d #%d offset %d is not %q", step, k, d, nth, off, q)
		}
	}
}

func TestResultFromWraps(t *testing.T) {
	var ix Index
	for _, s := range []string{"x", "no", "x x", "no", "x"} {
		ix.Add(s)
	}
	r := ix.Find("X", nil)
	for _, c := range []struct{ from, want int }{{0, 0}, {1, 1}, {2, 1}, {3, 3}, {4, 3}, {5, 0}, {9, 0}} {
		if got := r.From(c.from); got != c.want {
			t.Errorf("From(%d) = %d, want %d", c.from, got, c.want)
		}
	}
	if r := ix.Find("zzz", nil); r.From(0) != -1 {
		t.Errorf("From with no match = %d, want -1", r.From(0))
	}
}

func press(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	case "ctrl+w":
		return tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: []rune(s)[0], Text: s}
}

func TestStatePrompt(t *testing.T) {
	var s State
	for _, d := range []string{"alpha beta", "gamma", "beta beta", "delta"} {
		s.Index.Add(d)
	}
	s.Open(1)
	if !s.Typing() || !s.Active() {
		t.Fatal("the prompt is not open")
	}
	for _, k := range []string{"b", "E", "t"} {
		if s.Key(press(k)) != Edited {
			t.Fatalf("%q was not typed", k)
		}
	}
	if s.Query() != "bEt" || s.Total() != 3 {
		t.Fatalf("query %q: %d matches, want bEt and 3", s.Query(), s.Total())
	}
	// The search starts at the origin (text 1): the first match is in text 2.
	if doc, nth, off, ok := s.Current(); !ok || doc != 2 || nth != 0 || off != 0 {
		t.Errorf("current = %d #%d @%d %v, want text 2 #0 @0", doc, nth, off, ok)
	}
	if !strings.Contains(s.Status(), "/bEt█ · 2/3 matches") {
		t.Errorf("status %q", s.Status())
	}
	if s.Key(press("enter")) != Accepted || s.Typing() || !s.Active() {
		t.Fatal("enter did not keep the query")
	}
	s.Step(1)
	if doc, nth, _, _ := s.Current(); doc != 2 || nth != 1 {
		t.Errorf("after n: text %d #%d, want 2 #1", doc, nth)
	}
	s.Step(1) // wraps to the first
	if doc, _, _, _ := s.Current(); doc != 0 {
		t.Errorf("after n n: text %d, want 0 (wrapped)", doc)
	}
	s.Step(-1)
	if doc, nth, _, _ := s.Current(); doc != 2 || nth != 1 {
		t.Errorf("after N: text %d #%d, want 2 #1", doc, nth)
	}
	if !strings.Contains(s.Status(), "3/3 matches · n next") {
		t.Errorf("status %q", s.Status())
	}
	// A new text with matches: the count grows, the current match stays.
	s.Index.Add("beta")
	s.Refresh()
	if doc, nth, _, _ := s.Current(); s.Total() != 4 || doc != 2 || nth != 1 {
		t.Errorf("after a new text: %d matches, current text %d #%d; want 4, 2 #1", s.Total(), doc, nth)
	}
	s.Open(0)
	s.Key(press("x"))
	s.Key(press("backspace"))
	s.Key(press("z"))
	if s.Total() != 0 || !strings.Contains(s.Status(), "no matches") {
		t.Errorf("status %q with %d matches", s.Status(), s.Total())
	}
	s.Key(press("ctrl+u"))
	if s.Query() != "" {
		t.Errorf("ctrl+u left %q", s.Query())
	}
	s.Key(press("a"))
	s.Key(press(" "))
	s.Key(press("b"))
	s.Key(press("ctrl+w"))
	if s.Query() != "a " {
		t.Errorf("ctrl+w left %q, want %q", s.Query(), "a ")
	}
	if s.Key(press("esc")) != Cancelled || s.Active() {
		t.Error("esc did not clear the search")
	}
}

func TestMark(t *testing.T) {
	m := Marks{Match: "<m>", Current: "<c>"}
	// Plain text.
	if got := Mark("one Two two", "two", 1, m); got != "one <m>Two\x1b[m <c>two\x1b[m" {
		t.Errorf("Mark = %q", got)
	}
	// Styled text: the style resumes after the match, and a style change
	// inside the match is followed by the mark again.
	line := "\x1b[31mred Word\x1b[1mbold\x1b[m tail"
	got := Mark(line, "wordbo", -1, m)
	want := "\x1b[31mred <m>Word\x1b[1m<m>bo\x1b[m\x1b[31m\x1b[1mld\x1b[m tail"
	if got != want {
		t.Errorf("Mark = %q\nwant   %q", got, want)
	}
	if strings.ReplaceAll(ansi.Strip(got), "<m>", "") != ansi.Strip(line) {
		t.Errorf("marking changed the text: %q", ansi.Strip(got))
	}
	if Mark(line, "zzz", 0, m) != line || Mark(line, "", 0, m) != line {
		t.Error("a line without matches changed")
	}
	if n := Line(line, "r"); n != 2 {
		t.Errorf("Line = %d, want 2", n)
	}
}

func TestPlace(t *testing.T) {
	lines := []string{"alpha", "\x1b[1mbeta\x1b[m beta", "gamma beta"}
	for nth, want := range [][2]int{{1, 0}, {1, 1}, {2, 0}} {
		if l, o := Place(lines, "beta", nth, 3, 0); l != want[0] || o != want[1] {
			t.Errorf("Place #%d = %d,%d, want %v", nth, l, o, want)
		}
	}
	// The text holds more matches than the lines show: estimated.
	if l, o := Place(lines, "beta", 0, 4, 0.9); l != 2 || o != -1 {
		t.Errorf("estimated Place = %d,%d, want 2,-1", l, o)
	}
}

func BenchmarkFind(b *testing.B) {
	var ix Index
	for i := range 10000 {
		ix.Add(Plain(fmt.Sprintf("## Point %d\n\nThe cache flush in `internal/cache/flush.go` runs every **five seconds**; a crash between two flushes loses the dirty set. p99?", i)))
	}
	for b.Loop() {
		ix.Find("flushes", nil)
	}
}

func TestPlainUnicode(t *testing.T) {
	if got := Plain("  Ünïcode\u00a0space\u2003and **bold**\xff! "); got != "Ünïcode space and bold\xff!" {
		t.Errorf("Plain = %q", got)
	}
}
