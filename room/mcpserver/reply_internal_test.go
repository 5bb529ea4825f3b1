package mcpserver

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/roundtable-dev/roundtable/room"
)

// stdString is encoding/json's encoding of s with HTML escaping off.
func stdString(t *testing.T, s string) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func randomText(rng *rand.Rand) string {
	pieces := []string{
		"a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\x7f",
		"<", ">", "&", "é", "質", "😀", "\u2028", "\u2029", "\ufffd", "\xff", "\xe2\x80", "\xc3", "\xed\xa0\x80",
	}
	var b strings.Builder
	for range rng.IntN(40) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// TestAppendStringMatchesEncodingJSON: the hand-written string encoder
// gives encoding/json's bytes (HTML escaping off) for hostile text:
// control characters, quotes, invalid UTF-8, U+2028.
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s := randomText(rng)
		if got, want := string(appendString(nil, s)), stdString(t, s); got != want {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestAppendEscapedTwice: escaping twice in one pass is escaping the
// JSON string again: the text of a JSON-RPC response holding the reply.
func TestAppendEscapedTwice(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		s := randomText(rng)
		once := string(appendString(nil, s))
		want := string(appendEscaped(nil, once, false))
		if got := `\"` + string(appendEscaped(nil, s, true)) + `\"`; got != want {
			t.Fatalf("appendEscaped(%q, twice) = %s, want %s", s, got, want)
		}
	}
}

// reference is the reply object written by encoding/json: own keys in the
// same order through an ordered struct, status embedded.
type reference struct {
	Idle     bool           `json:"idle,omitempty"`
	Note     string         `json:"note,omitempty"`
	Messages []room.Message `json:"messages"`
	status
}

// TestObjectEncodeMatchesEncodingJSON: a reply written by hand is byte for
// byte what encoding/json writes for the same keys in the same order.
func TestObjectEncodeMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	reason := "agreement <reached>"
	for n := range 40 {
		var msgs []room.Message
		for i := range n {
			msgs = append(msgs, room.Message{Seq: i + 1, At: randomText(rng), Seat: randomText(rng), Agent: randomText(rng), Kind: randomText(rng), Text: randomText(rng), Round: rng.IntN(3), File: "ignored"})
		}
		st := status{Room: randomText(rng), Topic: randomText(rng), YouAre: "lead", Round: n, Budget: 12, Turn: "peer", MessageCount: n, Closed: n%2 == 0, Spec: "SPEC-x.md", TranscriptDir: "/tmp/x"}
		if n%3 == 0 {
			st.ClosedReason = &reason
		}
		extra := map[string]any{"messages": msgs}
		ref := reference{Messages: msgs, status: st}
		if n%4 == 1 {
			extra["idle"], extra["note"] = true, randomText(rng)
			ref.Idle, ref.Note = true, extra["note"].(string)
		}
		if msgs == nil {
			extra["messages"], ref.Messages = []room.Message{}, []room.Message{}
		}
		got, err := merge(extra, st).encode()
		if err != nil {
			t.Fatal(err)
		}
		want, err := indentJSON(ref, "")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d messages:\ngot  %s\nwant %s", n, got, want)
		}
		if !utf8.Valid(got) || !json.Valid(got) {
			t.Fatalf("invalid reply %q", got)
		}
		quoted, err := merge(extra, st).encodeQuoted()
		if err != nil {
			t.Fatal(err)
		}
		if want := appendString(nil, string(got)); !bytes.Equal(quoted, want) {
			t.Fatalf("%d messages quoted:\ngot  %s\nwant %s", n, quoted, want)
		}
	}
	if got, _ := own(map[string]any{"written": "/a", "note": "n"}).encode(); string(got) != "{\n  \"written\": \"/a\",\n  \"note\": \"n\"\n}" {
		t.Fatalf("own keys: %s", got)
	}
	if got, _ := own(nil).encode(); string(got) != "{}" {
		t.Fatalf("no keys: %s", got)
	}
}

// TestSpliceWriter: a line carrying a held placeholder goes out with the
// text in its place, once; any other line, an unknown placeholder
// included, goes out as it came.
func TestSpliceWriter(t *testing.T) {
	sp := newSplicer()
	var out bytes.Buffer
	w := sp.writer(&out)
	text := strings.Repeat("line \"one\"\n", 10)
	key := sp.hold(text)
	if !strings.HasPrefix(key, "roundtable-reply-") || strings.ContainsAny(key, "\"\\") {
		t.Fatalf("placeholder %q", key)
	}
	line := `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"` + key + `"}]}}` + "\n"
	if n, err := w.Write([]byte(line)); err != nil || n != len(line) {
		t.Fatalf("write: %d %v", n, err)
	}
	var got struct {
		Result struct{ Content []struct{ Text string } }
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Result.Content[0].Text != text {
		t.Fatalf("spliced line %q: %v", out.String(), err)
	}
	if !sp.idle() {
		t.Fatal("a written text is still held")
	}
	for _, l := range []string{line, `{"text":"roundtable-reply-0123-1"}` + "\n", "plain\n"} {
		out.Reset()
		sp.hold("held")
		if _, err := w.Write([]byte(l)); err != nil || out.String() != l {
			t.Fatalf("%q went out as %q (%v)", l, out.String(), err)
		}
	}
}

// TestPlainWord: the eight-bytes-at-once test agrees with a byte-by-byte
// one, on words made mostly of the bytes around each boundary.
func TestPlainWord(t *testing.T) {
	edges := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '#', '[', '\\', ']', 'a', 0x7e, 0x7f, 0x80, 0x81, 0xc3, 0xfe, 0xff}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		var w [8]byte
		want := true
		for i := range w {
			if rng.IntN(4) == 0 {
				w[i] = byte(rng.IntN(256))
			} else {
				w[i] = edges[rng.IntN(len(edges))]
			}
			c := w[i]
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				want = false
			}
		}
		if got := plainWord(string(w[:])); got != want {
			t.Fatalf("plainWord(%q) = %v, want %v", w, got, want)
		}
	}
}

// plainWord reports whether none of the eight bytes of w needs escaping:
// no control character, quote, backslash or byte of a multi-byte rune. It
// tests the eight bytes at once with the "has a byte less than n" and "has
// a zero byte" word tricks, which are exact when no byte has its high bit
// set; a word with such a byte is not plain anyway. appendString has it
// written out.
func plainWord(w string) bool {
	x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
	q, bs := x^quoteWord, x^backslashWord
	return (x|(x-controlWord)&^x|(q-onesWord)&^q|(bs-onesWord)&^bs)&highsWord == 0
}
