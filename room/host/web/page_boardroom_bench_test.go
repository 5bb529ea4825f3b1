package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkPageBoardroom: how long a room's page takes, in headless
// Chromium at 1280 px, from navigation to its first frame drawn
// (performance.now() two animation frames after load), when one message
// is a single 50,000-character word; its peer is the same page with
// 50,000 characters of ordinary words. ms/load is the figure (ns/op
// counts the benchmark's own round trips too).
//
// The live sub-benchmarks time one frame of text in progress (the
// streamed turn's tail drawn again, and the layout it costs) holding the
// same word, and the same ordinary text. The stream sub-benchmarks time
// a whole turn of Markdown drawn as it streams (see below).
func BenchmarkPageBoardroom(b *testing.B) {
	cwd := b.TempDir()
	word := longWord(50000)
	var prose strings.Builder
	for prose.Len() < 50000 {
		prose.WriteString("ordinary words wrap as they always have ")
	}
	texts := map[string]string{"word": word, "prose": prose.String()[:50000]}
	for name, text := range texts {
		r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "Long " + name, Budget: 3})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Text: text}); err != nil {
			b.Fatal(err)
		}
	}
	h := startHost(b, cwd)
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	br := startBrowser(b, 1280, 800)
	br.navigate(h.base + "/rooms/word")
	br.signIn(ctx, h.starter)
	for _, name := range []string{"word", "prose"} {
		b.Run("load/"+name, func(b *testing.B) {
			br.t = b
			var total float64
			for b.Loop() {
				br.eval("window.benchOld = true", nil)
				br.navigate(h.base + "/rooms/" + name)
				br.waitFor(ctx, "the page", "!window.benchOld && document.readyState === 'complete' && document.querySelector('.col .turns article')")
				var ms float64
				br.eval(`new Promise(res => requestAnimationFrame(() => requestAnimationFrame(() => res(performance.now()))))`, &ms)
				total += ms
			}
			b.ReportMetric(total/float64(b.N), "ms/load")
		})
	}
	for _, name := range []string{"word", "prose"} {
		b.Run("live/"+name, func(b *testing.B) {
			br.t = b
			br.navigate(h.base + "/rooms/" + name)
			br.waitFor(ctx, "the page's script", "window.roundtableLive && document.readyState === 'complete'")
			// The text arrives as 5-character tokens; each frame draws
			// the tail again and lays the page out.
			br.eval(`(() => { window.benchLT = window.roundtableLive.live(document.querySelector('.col[data-key="peer"] .live-turn')); window.benchLT.show(); window.benchLT.box.closest('.col').classList.add('lit'); const t = `+jsString(texts[name])+`; for (let i = 0; i < t.length; i += 5) window.benchLT.append(t.slice(i, i + 5)); return true; })()`, nil)
			var total float64
			for b.Loop() {
				var ms float64
				br.eval(`(() => { const t0 = performance.now(); window.benchLT.append('x'); window.benchLT.flush(); document.body.offsetHeight; return performance.now() - t0; })()`, &ms)
				total += ms
			}
			b.ReportMetric(total/float64(b.N), "ms/frame")
		})
	}
	// A turn of 12,000 characters of Markdown streamed in 5-character
	// tokens, drawn after each (a frame per token, the worst case):
	// incrementally, as the page does, and, as the peer, by drawing the
	// whole text so far again each time.
	var turn strings.Builder
	for i := 0; turn.Len() < 12000; i++ {
		turn.WriteString("## Point " + itoa(i) + "\n\nWe **ship** in `v2` once [the doc](https://example.com) is agreed; the *risk* is small.\n\n- one thing\n- another thing\n\n```go\nx := " + itoa(i) + "\n```\n\n")
	}
	for _, mode := range []string{"incremental", "reparse"} {
		b.Run("stream/"+mode, func(b *testing.B) {
			br.t = b
			var total float64
			for b.Loop() {
				var ms float64
				br.eval(`(() => { const L = window.roundtableLive; const lt = L.live(document.querySelector('.col[data-key="peer"] .live-turn')); lt.reset(); lt.show(); const t = `+jsString(turn.String())+`; const whole = `+jsString(mode)+` === 'reparse'; const t0 = performance.now();
					for (let i = 0; i < t.length; i += 5) { if (whole) { lt.tail.replaceChildren(); L.blocks(lt.tail, t.slice(0, i + 5), 0); } else { lt.append(t.slice(i, i + 5)); lt.flush(); } }
					document.body.offsetHeight; return performance.now() - t0; })()`, &ms)
				total += ms
			}
			b.ReportMetric(total/float64(b.N), "ms/turn")
		})
	}
}
