package transcript

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// hostileBenchSize is what a seat may post: the size of each message of
// the hostile benchmarks.
const hostileBenchSize = 256 << 10

// markdownRoom writes an MCP room holding texts, one message each.
func markdownRoom(b *testing.B, name string, texts []string) *room.Room {
	b.Helper()
	var msgs []fileMsg
	for i, text := range texts {
		seat := room.SeatLead
		if i%2 == 1 {
			seat = room.SeatPeer
		}
		msgs = append(msgs, fileMsg{Seq: i + 1, At: at(float64(i)), Seat: seat, Agent: "codex", Kind: "brief", Text: text})
	}
	r := writeRoom(b, name, room.Config{Room: name, Topic: name, Budget: 99, Spec: "SPEC-" + name + ".md", CreatedAt: at(0)}, msgs, nil)
	if _, err := r.State(); err != nil {
		b.Fatal(err)
	}
	return r
}

// hostileAndOrdinaryRooms are a room holding every hostile text at 256 KiB
// and its peer: as many messages of ordinary Markdown of the same size.
func hostileAndOrdinaryRooms(b *testing.B) (hostile, ordinary *room.Room) {
	var h, o []string
	for _, t := range roomtest.HostileMarkdown(hostileBenchSize) {
		h = append(h, t.Text)
		o = append(o, roomtest.OrdinaryMarkdown(len(t.Text))+fmt.Sprint(len(o)))
	}
	return markdownRoom(b, "hostile", h), markdownRoom(b, "ordinary", o)
}

// BenchmarkHostileRoomViews is each view of a room holding the hostile
// messages next to the same view of an ordinary room of the same size:
// the live page (LiveView), its /parts (LiveViewAfter) and the export
// (HTML). "first" is a view that renders every message (an empty cache,
// as a fresh process has); "again" is every later view.
func BenchmarkHostileRoomViews(b *testing.B) {
	hostile, ordinary := hostileAndOrdinaryRooms(b)
	views := []struct {
		name string
		view func(*room.Room) error
	}{
		{"page", func(r *room.Room) error { _, err := LiveView(r); return err }},
		{"parts", func(r *room.Room) error { _, err := LiveViewAfter(r, 0, 0); return err }},
		{"export", func(r *room.Room) error { return HTML(io.Discard, r) }},
	}
	for _, v := range views {
		for _, rm := range []struct {
			name string
			r    *room.Room
		}{{"hostile", hostile}, {"ordinary", ordinary}} {
			b.Run(v.name+"/"+rm.name+"/first", func(b *testing.B) {
				for b.Loop() {
					bodies = newBodyCache(BodyCacheBytes)
					if err := v.view(rm.r); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(v.name+"/"+rm.name+"/again", func(b *testing.B) {
				if err := v.view(rm.r); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for b.Loop() {
					if err := v.view(rm.r); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkHostileMessage renders each hostile message of 256 KiB once,
// without the cache, next to ordinary Markdown of the same size.
func BenchmarkHostileMessage(b *testing.B) {
	texts := roomtest.HostileMarkdown(hostileBenchSize)
	texts = append(texts, roomtest.MarkdownText{Name: "ordinary", Text: roomtest.OrdinaryMarkdown(hostileBenchSize)})
	for _, t := range texts {
		b.Run(t.Name, func(b *testing.B) {
			var out, scratch bytes.Buffer
			for b.Loop() {
				out.Reset()
				renderBodyTo(&out, t.Text, &scratch)
			}
		})
	}
}

// BenchmarkEdgeMessage renders the costliest Markdown a 256 KiB message
// can hold and still be rendered (roomtest.EdgeMarkdown), once, without
// the cache, next to ordinary Markdown of the same size: what the bound
// lets a message cost.
func BenchmarkEdgeMessage(b *testing.B) {
	texts := roomtest.EdgeMarkdown(hostileBenchSize, TooComplex)
	texts = append(texts, roomtest.MarkdownText{Name: "ordinary", Text: roomtest.OrdinaryMarkdown(hostileBenchSize)})
	for _, t := range texts {
		if TooComplex(t.Text) {
			b.Fatalf("%s: past the bound", t.Name)
		}
		b.Run(t.Name, func(b *testing.B) {
			var out, scratch bytes.Buffer
			for b.Loop() {
				out.Reset()
				renderBodyTo(&out, t.Text, &scratch)
			}
		})
	}
}

// BenchmarkMeasure is the bound's own cost on 256 KiB.
func BenchmarkMeasure(b *testing.B) {
	for _, t := range []roomtest.MarkdownText{
		{Name: "link openers", Text: roomtest.HostileMarkdown(hostileBenchSize)[0].Text},
		{Name: "ordinary", Text: roomtest.OrdinaryMarkdown(hostileBenchSize)},
	} {
		b.Run(t.Name, func(b *testing.B) {
			b.SetBytes(int64(len(t.Text)))
			for b.Loop() {
				TooComplex(t.Text)
			}
		})
	}
}
