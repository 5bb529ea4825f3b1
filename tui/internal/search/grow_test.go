package search

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// pieces cuts s at random byte offsets, splitting runes too.
func pieces(rng *rand.Rand, s string) []string {
	var out []string
	for len(s) > 0 {
		n := min(1+rng.IntN(7), len(s))
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

const growSample = "## Point\n\nThe **Cache** in `flush.go`\n  runs   every five\nseconds. ÀÉÎ Straße — cache, CACHE, caché.\n\n- one\n- two\t\tcache  \n\n"

func TestPlainerPiecesEqualPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	runes := []rune(growSample)
	for range 200 {
		var p Plainer
		var got strings.Builder
		for i := 0; i < len(runes); {
			n := min(1+rng.IntN(6), len(runes)-i) // whole runes
			got.WriteString(p.Add(string(runes[i : i+n])))
			i += n
		}
		if want := Plain(growSample); got.String() != want {
			t.Fatalf("pieces joined = %q, want %q", got.String(), want)
		}
	}
}

// TestLiveFeedMatchesFresh feeds a growing text in random pieces (runes
// split too) and after each feed checks the index against a fresh one
// made from the whole text so far, and the counts against a naive scan.
func TestLiveFeedMatchesFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		var ix Index
		ix.Add("a cache before")
		lv := NewLive(&ix)
		var res *Result
		src := ""
		for _, piece := range pieces(rng, growSample+growSample) {
			src += piece
			lv.Feed(&ix, src)
			res = ix.Find("cache", res)
			var fresh Index
			fresh.Add("a cache before")
			// The live text lags only by an unfinished rune.
			fresh.Add(Plain(src[:lv.fed]))
			if got, want := ix.Text(1), fresh.Text(1); got != want {
				t.Fatalf("live text %q, want %q (src %q)", got, want, src)
			}
			fr := fresh.Find("cache", nil)
			if res.Total() != fr.Total() || res.InDoc(1) != fr.InDoc(1) {
				t.Fatalf("live count %d, fresh %d", res.Total(), fr.Total())
			}
		}
		if lv.fed != len(src) {
			t.Fatalf("fed %d of %d bytes at the end", lv.fed, len(src))
		}
		if got, want := res.InDoc(1), naive([]string{Plain(src)}, "cache")[0]; got != want {
			t.Fatalf("final count %d, naive %d", got, want)
		}
	}
}

// TestLiveMatchStaysPut: the current match, in a text still growing, keeps
// its place as the text grows past it and gains matches after it; a
// partial match at the end that the text completes is one match, counted
// once.
func TestLiveMatchStaysPut(t *testing.T) {
	var s State
	s.Index.Add("needle in the hay")
	lv := NewLive(&s.Index)
	s.Open(0)
	for _, k := range "needle" {
		s.Key(press(string(k)))
	}
	s.Key(press("enter"))
	src := "The nee"
	lv.Feed(&s.Index, src)
	s.Refresh()
	if s.Total() != 1 {
		t.Fatalf("%d matches with a half word, want 1", s.Total())
	}
	src += "dle is"
	lv.Feed(&s.Index, src)
	s.Refresh()
	if s.Total() != 2 {
		t.Fatalf("%d matches once the word is whole, want 2", s.Total())
	}
	s.Step(1)
	doc, nth, off, _ := s.Current()
	if doc != 1 || nth != 0 || off != 4 {
		t.Fatalf("current text %d #%d @%d, want 1 #0 @4", doc, nth, off)
	}
	for _, more := range []string{" here, a NEEDLE", "dle", "d more"} {
		src += more
		lv.Feed(&s.Index, src)
		s.Refresh()
		if d, n, o, _ := s.Current(); d != doc || n != nth || o != off {
			t.Fatalf("after %q the current match moved to text %d #%d @%d", more, d, n, o)
		}
	}
	if s.Total() != 3 || !strings.Contains(s.Status(), "2/3 matches") {
		t.Errorf("status %q, want 2/3 matches", s.Status())
	}
	// The finished text replaces the live one: same place, same count.
	s.Index.Set(lv.Doc, Plain(src))
	s.Refresh()
	if d, _, _, _ := s.Current(); d != doc || s.Total() != 3 {
		t.Errorf("after the turn ended: text %d, %d matches; want 1, 3", d, s.Total())
	}
	// A source that shrank (replaced) is taken anew.
	if !lv.Feed(&s.Index, "needle") || s.Index.Text(lv.Doc) != "needle" {
		t.Errorf("a replaced source left %q", s.Index.Text(lv.Doc))
	}
}

// TestRefreshGen: matches counted after the current one (a turn streaming
// in) leave the marks' generation alone, so the screen redraws nothing
// for them; a current match that moves changes it.
func TestRefreshGen(t *testing.T) {
	var s State
	s.Index.Add("a needle")
	lv := NewLive(&s.Index)
	s.Open(0)
	for _, k := range "needle" {
		s.Key(press(string(k)))
	}
	gen := s.Gen()
	lv.Feed(&s.Index, "more needle")
	s.Refresh()
	if s.Total() != 2 || s.Gen() != gen {
		t.Errorf("a match after the current one: %d matches, gen %d → %d; want 2, unchanged", s.Total(), gen, s.Gen())
	}
	s.Index.Set(0, "no more")
	s.Refresh()
	if d, _, _, _ := s.Current(); d != 1 || s.Gen() == gen {
		t.Errorf("the current match's text lost it: current text %d, gen %d (was %d); want 1, changed", d, s.Gen(), gen)
	}
}
