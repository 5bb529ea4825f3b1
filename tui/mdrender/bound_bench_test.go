package mdrender

import (
	"strconv"
	"testing"

	"github.com/roundtable-dev/roundtable/room/roomtest"
	"github.com/roundtable-dev/roundtable/room/transcript"
)

// BenchmarkTerminalHostile renders each hostile text (64 KiB, the size
// that kept "roundtable watch" busy for more than 30 s, and 256 KiB, what a
// seat may post) for the terminal at 80 columns without the cache, next to
// ordinary Markdown of the same size.
func BenchmarkTerminalHostile(b *testing.B) {
	for _, size := range []int{64 << 10, 256 << 10} {
		texts := roomtest.HostileMarkdown(size)
		texts = append(texts, roomtest.MarkdownText{Name: "ordinary", Text: roomtest.OrdinaryMarkdown(size)})
		for _, t := range texts {
			b.Run(t.Name+"/"+strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
				r := New(true, WithCacheBytes(0))
				r.Render("warm up", 80)
				for b.Loop() {
					r.Render(t.Text, 80)
				}
			})
		}
	}
}

// BenchmarkTerminalEdge renders the costliest Markdown a message can hold
// and still be rendered (roomtest.EdgeMarkdown), 64 KiB, for the terminal
// without the cache, next to ordinary Markdown of the same size.
func BenchmarkTerminalEdge(b *testing.B) {
	const size = 64 << 10
	texts := roomtest.EdgeMarkdown(size, transcript.TooComplex)
	texts = append(texts, roomtest.MarkdownText{Name: "ordinary", Text: roomtest.OrdinaryMarkdown(size)})
	for _, t := range texts {
		b.Run(t.Name, func(b *testing.B) {
			r := New(true, WithCacheBytes(0))
			r.Render("warm up", 80)
			for b.Loop() {
				r.Render(t.Text, 80)
			}
		})
	}
}
