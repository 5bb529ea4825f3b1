package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// stampedProvider is an OpenAI-compatible server whose every token is the
// moment it was written: " ⟦<unix ms>⟧", 100 a second, 120 a turn. It
// holds its first answer until start is closed.
func stampedProvider(b *testing.B, start <-chan struct{}) *httptest.Server {
	b.Helper()
	var once sync.Once
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		once.Do(func() { <-start })
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fl := w.(http.Flusher)
		chunk := func(content string, finish any) {
			data, _ := json.Marshal(map[string]any{
				"id": "c", "object": "chat.completion.chunk", "model": "stamped",
				"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": content}, "finish_reason": finish}},
			})
			fmt.Fprintf(w, "data: %s\n\n", data)
			fl.Flush()
		}
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for range 120 {
			<-tick.C
			chunk(fmt.Sprintf(" ⟦%.3f⟧", float64(time.Now().UnixMicro())/1000), nil)
		}
		chunk("", "stop")
		fmt.Fprint(w, "data: [DONE]\n\n")
		fl.Flush()
	}))
}

// BenchmarkPageTokenLatency is the time from the provider writing a token
// to the token in the live page's DOM in headless Chromium, on loopback:
// a debate of three personas, one round, through the host (its child
// debate, the room's drafts, the stream, the page's script). The page
// notes when each stamped token appears (a MutationObserver added over
// DevTools) against the stamp in it. Target: p95 ≤ 50 ms.
//
//	go test -run '^$' -bench PageTokenLatency -benchtime 1x -count 3 ./room/host/web/
func BenchmarkPageTokenLatency(b *testing.B) {
	var lat []float64
	for b.Loop() {
		start := make(chan struct{})
		prov := stampedProvider(b, start)
		cwd := b.TempDir()
		h := startHost(b, cwd, "--provider", "openai", "--base-url", prov.URL+"/v1", "--model", "stamped")
		id := h.create(`{"topic":"Latency","rounds":1}`)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		br := startBrowser(b, 1280, 800)
		br.navigate(h.base + "/rooms/" + id)
		br.signIn(ctx, h.starter)
		br.eval(`(() => {
  window.__lat = []; const seen = new Set(); const re = /⟦(\d+\.\d+)⟧/g;
  new MutationObserver(() => {
    const now = performance.timeOrigin + performance.now();
    for (const s of document.querySelectorAll('.live-turn .stream')) {
      for (const m of s.textContent.matchAll(re)) {
        if (!seen.has(m[1])) { seen.add(m[1]); window.__lat.push(now - parseFloat(m[1])); }
      }
    }
  }).observe(document.getElementById('room'), {subtree: true, childList: true, characterData: true});
  return true; })()`, nil)
		close(start)
		b.Cleanup(func() {
			if b.Failed() {
				log, _ := os.ReadFile(filepath.Join(cwd, ".roundtable", id, "debate.log"))
				b.Logf("debate.log:\n%s", log)
			}
		})
		br.waitFor(ctx, "the three turns", "document.querySelectorAll('.col .turns article.msg').length >= 3")
		var got []float64
		br.eval("window.__lat", &got)
		cancel()
		h.stop()
		prov.Close()
		if len(got) < 300 {
			b.Fatalf("the page saw %d stamped tokens, want most of 360", len(got))
		}
		lat = append(lat, got...)
	}
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[len(lat)*95/100], "p95-ms")
	b.ReportMetric(lat[len(lat)-1], "max-ms")
	b.ReportMetric(float64(len(lat))/float64(b.N), "tokens/op")
}
