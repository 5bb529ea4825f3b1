// Package searchtest measures the find prompt of a screen: the same
// keystrokes timed through the screen and, as a floor, a plain
// strings.Index over the same texts.
package searchtest

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Run benchmarks a screen's find on texts (already lowered), typing a
// one-letter query and then word letter by letter; key presses one key
// through the screen (Update and View), total is its match count now, and
// status its status line (which must count the matches). The floors run
// in the same benchmark, so each figure is also a ratio to them.
func Run(b *testing.B, lowered []string, word string, key func(string), total func() int, status func() string) {
	floor := func(b *testing.B, queries []string) float64 {
		n := 0
		for b.Loop() {
			for _, q := range queries {
				n = 0
				if q == "" {
					continue
				}
				for _, s := range lowered {
					for off := 0; ; {
						j := strings.Index(s[off:], q)
						if j < 0 {
							break
						}
						n++
						off += j + len(q)
					}
				}
			}
		}
		b.ReportMetric(float64(n), "matches")
		ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(len(queries))
		b.ReportMetric(ns/1e6, "ms/key")
		return ns
	}
	perKey := func(b *testing.B, keys []string, floorNs float64) {
		var took []time.Duration
		for b.Loop() {
			for _, k := range keys {
				t0 := time.Now()
				key(k)
				took = append(took, time.Since(t0))
			}
		}
		slices.Sort(took)
		ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(len(keys))
		b.ReportMetric(ns/1e6, "ms/key")
		b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1e3, "p95-ms/key")
		b.ReportMetric(float64(total()), "matches")
		if floorNs > 0 {
			b.ReportMetric(ns/floorNs, "x-floor")
		}
		if !strings.Contains(status(), "matches") {
			b.Fatalf("the status does not count the matches:\n%s", status())
		}
	}
	prefixes := []string{""}
	for i := 1; i <= len(word); i++ {
		prefixes = append(prefixes, word[:i])
	}
	var floorLetter, floorWord float64
	b.Run("floor-first-letter", func(b *testing.B) { floorLetter = floor(b, []string{"", "e"}) })
	b.Run("first-letter", func(b *testing.B) { perKey(b, []string{"ctrl+u", "e"}, floorLetter) })
	b.Run("floor-word", func(b *testing.B) { floorWord = floor(b, prefixes) })
	b.Run("word", func(b *testing.B) { perKey(b, append([]string{"ctrl+u"}, strings.Split(word, "")...), floorWord) })
	key("enter")
	b.Run("next", func(b *testing.B) { perKey(b, []string{"n"}, 0) })
}
