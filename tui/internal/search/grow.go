package search

import (
	"unicode"
	"unicode/utf8"
)

// A text that grows at its end (a turn being streamed) joins the index as
// it grows: Live takes only what is new since the last feed through
// Plainer and Append, so a token costs the token, not the turn, and the
// texts before it are never read again. Matches are counted left to right
// without overlaps, so text added at the end never moves a match already
// found: it can only add matches after it.

// Plainer is Plain for a text given in pieces: Add returns what the piece
// adds to the plain form of everything given so far, so the pieces' outputs
// joined are Plain of the pieces joined. A piece should end on a whole
// rune (Live sees to it). The zero Plainer is ready.
type Plainer struct {
	started bool // something was written
	space   bool // white space waits to be written before the next rune
}

// Add is what md adds to the plain form.
func (p *Plainer) Add(md string) string {
	b := make([]byte, 0, len(md))
	for i := 0; i < len(md); {
		c := md[i]
		if c < utf8.RuneSelf {
			i++
			switch c {
			case '*', '`':
				continue
			case ' ', '\t', '\n', '\r', '\v', '\f':
				p.space = p.started
				continue
			}
			if p.space {
				b = append(b, ' ')
				p.space = false
			}
			b = append(b, c)
			p.started = true
			continue
		}
		r, size := utf8.DecodeRuneInString(md[i:])
		if unicode.IsSpace(r) {
			p.space = p.started
			i += size
			continue
		}
		if p.space {
			b = append(b, ' ')
			p.space = false
		}
		b = append(b, md[i:i+size]...)
		p.started = true
		i += size
	}
	return string(b)
}

// Append adds s, as given, at the end of text i.
func (ix *Index) Append(i int, s string) {
	if s == "" || i < 0 || i >= len(ix.docs) {
		return
	}
	ix.ver++
	ix.docs[i] = doc{text: ix.docs[i].text + Fold(s), ver: ix.ver}
}

// Text is text i as searched: plain and folded.
func (ix *Index) Text(i int) string {
	if i < 0 || i >= len(ix.docs) {
		return ""
	}
	return ix.docs[i].text
}

// Live is a growing Markdown text kept in text Doc of an index.
type Live struct {
	Doc int
	fed int // bytes of the source taken
	p   Plainer
}

// NewLive adds an empty text to ix for a growing source.
func NewLive(ix *Index) *Live { return &Live{Doc: ix.Add("")} }

// Feed brings text Doc up to src, the whole growing source so far: only the
// bytes past the last feed are read (up to the last whole rune). A source
// that is not the last one grown (it was replaced) is taken anew. It
// reports whether the text changed.
func (l *Live) Feed(ix *Index, src string) bool {
	if len(src) < l.fed {
		before := ix.Text(l.Doc)
		l.fed, l.p = 0, Plainer{}
		ix.Set(l.Doc, "")
		l.Feed(ix, src)
		return ix.Text(l.Doc) != before
	}
	end := len(src)
	for end > l.fed && !utf8.FullRuneInString(src[lastRuneStart(src, l.fed, end):end]) {
		end = lastRuneStart(src, l.fed, end)
	}
	add := l.p.Add(src[l.fed:end])
	l.fed = end
	if add == "" {
		return false
	}
	ix.Append(l.Doc, add)
	return true
}

// lastRuneStart is where the last rune of s[from:end] starts (at most three
// bytes back, never before from).
func lastRuneStart(s string, from, end int) int {
	i := end - 1
	for i > from && i > end-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return max(i, from)
}
