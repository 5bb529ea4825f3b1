package watch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkSearch10k is a keystroke in the find prompt on a room of 10,000
// messages (bigRoom, about 6 MB of text), as the person feels it: Update
// (the search of the whole room, scrolling to the match, marking it) and
// View, per key. Beside it, in the same run, the floor: a plain
// case-insensitive strings.Index over the same texts, lowered beforehand,
// counting every match, the least a search of the room can cost; ratio is
// the keystroke over that floor.
//
//   - first-letter: ctrl+u then "e", a one-letter query that matches 39
//     times per message (the costliest keystroke: every text scanned, every
//     match counted).
//   - word: ctrl+u then "flushes" typed a key at a time (each key after the
//     first scans only the texts the shorter query matched).
//   - first-slash: the first / of the screen, which indexes the room.
//   - next: n, moving to the next match of "flushes" (a message rendered
//     when it had not been shown yet).
func BenchmarkSearch10k(b *testing.B) {
	cwd := bigRoom(b, 10000)
	m, err := New(Options{Cwd: cwd, Room: "big", ExportDir: cwd, Dark: true, Location: time.UTC})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, "big", phaseOpening)())
	lowered := make([]string, len(m.st.Messages))
	for i := range m.st.Messages {
		lowered[i] = strings.ToLower(m.st.Messages[i].Text)
	}
	key := func(k string) {
		m, _ = press(m, k)
		_ = m.View()
	}
	// The first / indexes the room: 10,000 texts made plain and folded.
	b.Run("first-slash", func(b *testing.B) {
		for b.Loop() {
			m.find = nil
			key("/")
		}
	})

	// floor is the plain search of each query in turn, per query: what
	// the same keystrokes would cost with nothing but strings.Index.
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
		b.ReportMetric(float64(m.find.st.Total()), "matches")
		if floorNs > 0 {
			b.ReportMetric(ns/floorNs, "x-floor")
		}
		if !strings.Contains(plain(m), "matches") {
			b.Fatalf("the status does not count the matches:\n%s", plain(m))
		}
	}
	letter := []string{"", "e"}
	word := append([]string{""}, prefixes("flushes")...)
	var floorLetter, floorWord float64
	b.Run("floor-first-letter", func(b *testing.B) { floorLetter = floor(b, letter) })
	b.Run("first-letter", func(b *testing.B) { perKey(b, []string{"ctrl+u", "e"}, floorLetter) })
	b.Run("floor-word", func(b *testing.B) { floorWord = floor(b, word) })
	b.Run("word", func(b *testing.B) {
		perKey(b, append([]string{"ctrl+u"}, strings.Split("flushes", "")...), floorWord)
	})
	key("enter")
	b.Run("next", func(b *testing.B) {
		perKey(b, []string{"n"}, 0)
		if !strings.Contains(plain(m), fmt.Sprintf("/%d matches", m.find.st.Total())) {
			b.Fatalf("n did not keep the count:\n%s", plain(m))
		}
	})
}

// prefixes is "f", "fl", … up to s.
func prefixes(s string) []string {
	var out []string
	for i := 1; i <= len(s); i++ {
		out = append(out, s[:i])
	}
	return out
}
