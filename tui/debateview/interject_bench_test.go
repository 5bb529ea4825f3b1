package debateview

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// BenchmarkComposerKeystroke is a key typed in the note composer, Update
// then View, on the debate screen at 200×50 while the debate runs: five
// columns, three rounds of ~400-word turns on screen. It reports the
// keystroke's p50 and p95 (target p95 ≤ 8 ms) and, as a floor measured in
// the same run, the p95 of a spinner frame (an anim tick: Update and View
// with nothing new), with their ratio.
func BenchmarkComposerKeystroke(b *testing.B) {
	clock := fixedNow
	s := benchScreen(b, 200, 50, &clock)
	for r := 1; r <= 3; r++ {
		for i, p := range benchPanel {
			s.speak(r, p, words(400, r*7+i))
		}
	}
	s.events(debate.Event{Type: debate.EventRoundEnd, Round: 3})
	s.settle()
	s.send(startedMsg{id: s.m.id, run: s.m.run, room: s.m.room, events: make(chan debate.Event), cancel: func() {}, sess: startedSession(b)})
	s.send(tea.KeyPressMsg{Code: 'i', Text: "i"})
	if !s.m.composing() {
		b.Fatal("the composer did not open")
	}
	text := []rune("What about the mobile clients and the cost of two APIs? ")
	keys := make([]tea.KeyPressMsg, len(text))
	for i, r := range text {
		keys[i] = tea.KeyPressMsg{Code: r, Text: string(r)}
	}
	// Warm up: the first frame with the composer lays the columns out
	// again at their new height.
	s.m, _ = s.m.Update(keys[0])
	_ = s.m.View()

	lat := make([]time.Duration, 0, b.N)
	floor := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%len(keys) == 0 {
			b.StopTimer()
			s.m.note.box.SetValue("") // a new note, so the text stays one line or two
			b.StartTimer()
		}
		t0 := time.Now()
		s.m, _ = s.m.Update(keys[i%len(keys)])
		_ = s.m.View()
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	for i := 0; i < max(b.N, 50); i++ {
		t0 := time.Now()
		s.m, _ = s.m.Update(animTickMsg{id: s.m.id})
		_ = s.m.View()
		floor = append(floor, time.Since(t0))
	}
	slices.Sort(lat)
	slices.Sort(floor)
	p95 := lat[len(lat)*95/100]
	f95 := floor[len(floor)*95/100]
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p95.Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(f95.Microseconds())/1000, "floor-p95-ms")
	b.ReportMetric(float64(p95)/float64(max(f95, 1)), "x-floor")
}
