package watch

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/tui/internal/composer"
)

// keystrokes alternates a letter and a backspace, so the text stays one
// line however long the run.
var keystrokes = []tea.KeyPressMsg{keyMsg("a"), keyMsg("backspace")}

// p95 is the 95th percentile of ds (sorted in place).
func p95(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)*95/100]
}

// BenchmarkTakeComposerKeystroke is a key typed in the composer of a seat
// the person took, on a 200×50 watch screen over a room of 1,000
// messages: the screen's Update and its View, as the program does for a
// frame. It reports the p95 per key and its ratio to the floor, the bare
// composer's Update and View at the same width measured in the same run.
func BenchmarkTakeComposerKeystroke(b *testing.B) {
	m := leadScreen(b, bigRoom(b, 1000), "big", 200, 50)
	if !m.take.comp.IsOpen() {
		b.Fatal("the composer did not open on the lead's turn")
	}
	floor := composer.New("")
	floor.SetWidth(200)
	floor.Open("Your turn")

	screen := make([]time.Duration, 0, b.N)
	bare := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := keystrokes[i%len(keystrokes)]
		start := time.Now()
		m, _ = m.Update(k)
		_ = m.View()
		screen = append(screen, time.Since(start))

		start = time.Now()
		floor, _, _ = floor.Update(k)
		_ = floor.View()
		bare = append(bare, time.Since(start))
	}
	b.StopTimer()
	sp, fp := p95(screen), p95(bare)
	b.ReportMetric(float64(sp.Microseconds()), "p95-us/key")
	b.ReportMetric(float64(fp.Microseconds()), "floor-p95-us/key")
	b.ReportMetric(float64(sp)/float64(max(fp, 1)), "x-floor")
}
