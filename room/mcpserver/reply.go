package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// A reply is pretty JSON (two-space indentation) as the text of one text
// content, as the original server wrote it. Replies are written by hand
// rather than through reflection: read_room in a large room returns
// megabytes of messages, and encoding them once into one buffer is most of
// what makes that call fast (BENCHMARKS.md).

// object is a reply with its own keys first, then the seat's status keys,
// as the original writes {messages, ...status()}. A nil status writes only
// the own keys.
type object struct {
	extra  map[string]any
	status *status
}

// merge is the reply of a tool: extra's keys, then the status.
func merge(extra map[string]any, st status) object { return object{extra: extra, status: &st} }

// own is a reply of only its own keys, in the original's order.
func own(extra map[string]any) object { return object{extra: extra} }

// keyRank orders a reply's own keys as the original writes them; a note,
// and the host's notes, come before the messages, so an agent reads them
// first.
var keyRank = map[string]int{
	"idle": 1, "closed": 2, "reason": 3, "spec_path": 4, "posted": 5,
	"written": 6, "note": 7, "notes": 8, "messages": 9, "transcript_dir": 10,
}

func (o object) keys() []string {
	keys := make([]string, 0, len(o.extra))
	for k := range o.extra {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := keyRank[keys[i]], keyRank[keys[j]]
		if ri != rj {
			if ri == 0 || rj == 0 {
				return ri != 0 // ranked keys before unknown ones
			}
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// sizeHint estimates the encoded size, so the buffer grows once.
func (o object) sizeHint() int {
	n := 1024
	for _, v := range o.extra {
		if msgs, ok := v.([]room.Message); ok {
			for i := range msgs {
				n += 160 + len(msgs[i].Text) + len(msgs[i].Text)/16 + len(msgs[i].Agent) + len(msgs[i].Kind)
			}
		}
	}
	return n
}

// jsonWriter writes a reply's JSON into one buffer. With quoted set it
// writes the same JSON as the contents of a JSON string, escaped once more:
// the form the text takes inside the JSON-RPC response, so a large reply
// can go out without a second pass (splice.go).
type jsonWriter struct {
	b      []byte
	quoted bool
}

// raw writes JSON text: structure, numbers, already encoded values.
func (w *jsonWriter) raw(s string) {
	if w.quoted {
		w.b = appendEscaped(w.b, s, false)
		return
	}
	w.b = append(w.b, s...)
}

// str writes s as a JSON string.
func (w *jsonWriter) str(s string) {
	if w.quoted {
		w.b = append(w.b, `\"`...)
		w.b = appendEscaped(w.b, s, true)
		w.b = append(w.b, `\"`...)
		return
	}
	w.b = appendString(w.b, s)
}

// literal is JSON text written the same way every time, with its escaped
// form worked out once: a message's keys are written ten thousand times
// in a large reply.
type literal struct{ plain, quoted string }

func lit(s string) literal { return literal{s, string(appendEscaped(nil, s, false))} }

func (w *jsonWriter) lit(l literal) {
	if w.quoted {
		w.b = append(w.b, l.quoted...)
		return
	}
	w.b = append(w.b, l.plain...)
}

// The JSON text around a message's values.
var (
	litOpen  = lit("\n    {\n      \"seq\": ")
	litAt    = lit(",\n      \"at\": ")
	litSeat  = lit(",\n      \"seat\": ")
	litAgent = lit(",\n      \"agent\": ")
	litKind  = lit(",\n      \"kind\": ")
	litText  = lit(",\n      \"text\": ")
	litRound = lit(",\n      \"round\": ")
	litClose = lit("\n    }")
)

func (w *jsonWriter) int(n int) {
	w.b = strconv.AppendInt(w.b, int64(n), 10) // digits need no escaping
}

// encode writes the object as indented JSON.
func (o object) encode() ([]byte, error) {
	w := &jsonWriter{b: make([]byte, 0, o.sizeHint())}
	if err := o.write(w); err != nil {
		return nil, err
	}
	return w.b, nil
}

// encodeQuoted writes the object's indented JSON as a JSON string, quotes
// included: byte for byte appendString of what encode writes.
func (o object) encodeQuoted() ([]byte, error) {
	w := &jsonWriter{b: make([]byte, 0, o.sizeHint()+o.sizeHint()/8), quoted: true}
	w.b = append(w.b, '"')
	if err := o.write(w); err != nil {
		return nil, err
	}
	return append(w.b, '"'), nil
}

func (o object) write(w *jsonWriter) error {
	w.raw("{")
	first := true
	for _, k := range o.keys() {
		if !first {
			w.raw(",")
		}
		first = false
		w.raw("\n  ")
		w.str(k)
		w.raw(": ")
		if err := writeValue(w, o.extra[k]); err != nil {
			return fmt.Errorf("reply key %s: %w", k, err)
		}
	}
	if o.status != nil {
		fields, err := indentJSON(*o.status, "")
		if err != nil {
			return err
		}
		// The status is an object; splice its keys in after ours.
		inner := bytes.TrimSuffix(bytes.TrimPrefix(fields, []byte("{")), []byte("\n}"))
		if len(inner) > 0 {
			if !first {
				w.raw(",")
			}
			first = false
			w.raw(string(inner))
		}
	}
	if first {
		w.raw("}")
	} else {
		w.raw("\n}")
	}
	return nil
}

// writeValue writes v at the first level of indentation.
func writeValue(w *jsonWriter, v any) error {
	if msgs, ok := v.([]room.Message); ok {
		writeMessages(w, msgs)
		return nil
	}
	data, err := indentJSON(v, "  ")
	if err != nil {
		return err
	}
	w.raw(string(data))
	return nil
}

// indentJSON is encoding/json with two-space indentation, <, > and & as
// themselves (as the original's JSON.stringify writes them), and no final
// newline.
func indentJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// writeMessages writes messages as an array at the first level of
// indentation, byte for byte as indentJSON would.
func writeMessages(w *jsonWriter, msgs []room.Message) {
	if len(msgs) == 0 {
		w.raw("[]")
		return
	}
	w.raw("[")
	for i := range msgs {
		m := &msgs[i]
		if i > 0 {
			w.raw(",")
		}
		w.lit(litOpen)
		w.int(m.Seq)
		w.lit(litAt)
		w.str(m.At)
		w.lit(litSeat)
		w.str(m.Seat)
		w.lit(litAgent)
		w.str(m.Agent)
		w.lit(litKind)
		w.str(m.Kind)
		w.lit(litText)
		w.str(m.Text)
		if m.Round != 0 {
			w.lit(litRound)
			w.int(m.Round)
		}
		w.lit(litClose)
	}
	w.raw("\n  ]")
}

// plainByte marks the ASCII bytes a JSON string holds as themselves.
var plainByte = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// Words of eight equal bytes for plainWord.
const (
	onesWord      = 0x0101010101010101
	highsWord     = 0x80 * onesWord
	controlWord   = 0x20 * onesWord
	quoteWord     = '"' * onesWord
	backslashWord = '\\' * onesWord
)

// appendString writes s as a JSON string the way encoding/json does with
// HTML escaping off: quotes, backslashes and control characters escaped,
// invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s, false)
	return append(b, '"')
}

// appendEscaped writes the contents of s as a JSON string, without the
// quotes. With twice, it writes that escaped once more: the contents of a
// JSON string whose text is the JSON string (every escape's backslash
// doubled, an escaped quote or backslash escaped again). Plain bytes are
// the same in both forms, so one pass writes either.
func appendEscaped(b []byte, s string, twice bool) []byte {
	esc := `\`
	if twice {
		esc = `\\`
	}
	start := 0
	for i := 0; i < len(s); {
		// Most of a reply is prose: skip eight plain bytes at a time (see
		// plainWord; written out here, as a call per word costs more than
		// it saves).
		if i+8 <= len(s) {
			w := s[i : i+8]
			x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
				uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
			q, bs := x^quoteWord, x^backslashWord
			flags := (x | (x-controlWord)&^x | (q-onesWord)&^q | (bs-onesWord)&^bs) & highsWord
			if flags == 0 {
				i += 8
				continue
			}
			// The lowest flag is exact (a borrow only runs upwards from a
			// byte that matched): the bytes below it are plain.
			i += bits.TrailingZeros64(flags) >> 3
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if plainByte[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, esc...)
			switch c {
			case '"', '\\':
				if twice {
					b = append(b, '\\')
				}
				b = append(b, c)
			case '\b':
				b = append(b, 'b')
			case '\f':
				b = append(b, 'f')
			case '\n':
				b = append(b, 'n')
			case '\r':
				b = append(b, 'r')
			case '\t':
				b = append(b, 't')
			default:
				b = append(b, 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, esc...)
			b = append(b, "ufffd"...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, esc...)
			b = append(b, 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(b, s[start:]...)
}

// reply renders v the way the original did: pretty JSON as text content.
func reply(v any) (*mcp.CallToolResult, error) {
	var data []byte
	var err error
	switch v := v.(type) {
	case object:
		data, err = v.encode()
	case map[string]any:
		data, err = own(v).encode()
	default:
		data, err = indentJSON(v, "")
	}
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(data)), nil
}
