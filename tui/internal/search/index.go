// Package search is the find of the debate and watch screens: an index of
// the texts on a screen, searched case-insensitively on each keystroke, and
// the marking of matches in the lines the screen draws.
//
// The index keeps each text folded (lower case, every rune keeping its
// byte length, so an offset in the folded text is an offset in the text) and
// grows as messages arrive, so a keystroke is one scan of memory: no I/O,
// no rendering. A search counts the matches per text; the k-th match is
// located on demand, so a one-letter query on ten thousand messages costs no
// list of a million positions.
package search

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Index is the searchable texts of a screen, in the screen's order. The
// zero Index is empty and ready.
type Index struct {
	docs []doc
	ver  int // counts changes; a Result remembers the version it saw
}

type doc struct {
	text string // folded
	ver  int    // the version that last changed it
}

// Len is how many texts the index holds.
func (ix *Index) Len() int { return len(ix.docs) }

// Add appends a text and returns its number.
func (ix *Index) Add(text string) int {
	ix.ver++
	ix.docs = append(ix.docs, doc{text: Fold(text), ver: ix.ver})
	return len(ix.docs) - 1
}

// Set replaces text i; i == Len appends.
func (ix *Index) Set(i int, text string) {
	if i == len(ix.docs) {
		ix.Add(text)
		return
	}
	f := Fold(text)
	if ix.docs[i].text == f {
		return
	}
	ix.ver++
	ix.docs[i] = doc{text: f, ver: ix.ver}
}

// Truncate drops the texts from n on.
func (ix *Index) Truncate(n int) {
	if n < len(ix.docs) {
		ix.ver++
		ix.docs = ix.docs[:n]
	}
}

// Reset empties the index.
func (ix *Index) Reset() { ix.Truncate(0) }

// Result is a search: how many times the query occurs in each text.
type Result struct {
	query string // folded
	ver   int
	// ends[i] is the number of matches in texts 0..i.
	ends []int
}

// Query is the folded query searched for.
func (r *Result) Query() string {
	if r == nil {
		return ""
	}
	return r.query
}

// Total is the number of matches.
func (r *Result) Total() int {
	if r == nil || len(r.ends) == 0 {
		return 0
	}
	return r.ends[len(r.ends)-1]
}

// InDoc is how many matches text i holds.
func (r *Result) InDoc(i int) int {
	if r == nil || i < 0 || i >= len(r.ends) {
		return 0
	}
	if i == 0 {
		return r.ends[0]
	}
	return r.ends[i] - r.ends[i-1]
}

// Locate is where match k (0-based) is: its text and which match in that
// text it is.
func (r *Result) Locate(k int) (docIdx, nth int) {
	docIdx = sort.SearchInts(r.ends, k+1)
	before := 0
	if docIdx > 0 {
		before = r.ends[docIdx-1]
	}
	return docIdx, k - before
}

// From is the first match in text i or after it, wrapping round to the
// first match; -1 when there is none.
func (r *Result) From(i int) int {
	t := r.Total()
	if t == 0 {
		return -1
	}
	if i <= 0 {
		return 0
	}
	if i > len(r.ends) {
		return 0
	}
	k := r.ends[i-1] // matches before text i
	if k >= t {
		return 0
	}
	return k
}

// Find searches the index for query, case-insensitively. prev, the
// previous search, is reused when it can be: a longer query only looks in
// the texts where the shorter one matched, and texts that did not change
// since prev are not searched again. An empty query finds nothing.
func (ix *Index) Find(query string, prev *Result) *Result {
	q := Fold(query)
	r := &Result{query: q, ver: ix.ver, ends: make([]int, len(ix.docs))}
	if q == "" {
		return r
	}
	same := prev != nil && prev.query == q
	narrow := prev != nil && prev.query != "" && strings.HasPrefix(q, prev.query)
	n := 0
	for i := range ix.docs {
		d := &ix.docs[i]
		fresh := prev != nil && i < len(prev.ends) && d.ver <= prev.ver
		switch {
		case fresh && same:
			n += prev.InDoc(i)
		case fresh && narrow && prev.InDoc(i) == 0:
			// The shorter query is not in it: neither is this one.
		default:
			n += count(d.text, q)
		}
		r.ends[i] = n
	}
	return r
}

// Offset is the byte offset of match nth (0-based) of the query in text i
// (an offset in the text as given, since folding keeps byte lengths), or -1.
func (ix *Index) Offset(i, nth int, r *Result) int {
	if i < 0 || i >= len(ix.docs) || r == nil || r.query == "" {
		return -1
	}
	s, q := ix.docs[i].text, r.query
	off := 0
	for {
		j := strings.Index(s[off:], q)
		if j < 0 {
			return -1
		}
		if nth == 0 {
			return off + j
		}
		nth--
		off += j + len(q)
	}
}

// DocLen is the byte length of text i.
func (ix *Index) DocLen(i int) int {
	if i < 0 || i >= len(ix.docs) {
		return 0
	}
	return len(ix.docs[i].text)
}

// count is how many times q occurs in s, without overlaps.
func count(s, q string) int {
	n := 0
	for {
		j := strings.Index(s, q)
		if j < 0 {
			return n
		}
		n++
		s = s[j+len(q):]
	}
}

// Fold lowers s for a case-insensitive search, rune by rune, keeping each
// rune's byte length (a rune whose lower case is longer or shorter stays as
// it is), so that offsets in Fold(s) are offsets in s. ASCII takes a fast
// path.
func Fold(s string) string {
	// Nothing to lower: share s.
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			break
		}
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				b[i] = c + 'a' - 'A'
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if l := unicode.ToLower(r); l != r && utf8.RuneLen(l) == size {
			utf8.EncodeRune(b[i:], l)
		}
		i += size
	}
	return string(b)
}

// Plain is the searchable form of a message's Markdown: what a reader sees
// of it, near enough. Emphasis and code marks go, and every run of white
// space (a line break inside a paragraph, an indent) is one space, so a
// phrase is found wherever the screen wraps it.
func Plain(md string) string {
	var p Plainer
	return p.Add(md)
}
