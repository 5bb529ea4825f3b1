package debateview

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
	"github.com/roundtable-dev/roundtable/tui/internal/search/searchtest"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// BenchmarkSearchStreaming is the find on a live debate of 10,000
// finished turns (five personas, 2,000 rounds of ~100-word turns) while
// the next turn streams, at 200×50, Update and View each time:
//
//   - keystroke: the sub-benchmarks of BenchmarkSearchReplay10k (screen-j,
//     one letter, a word, n) typed while the turn streams, beside the floor of
//     a plain strings.Index over the same texts, the live one included;
//   - token/no-search is a streamed token (an event batch of one token and
//     the grow tick that draws it: every token is drawn, the worst case;
//     60 tokens, a paragraph, per iteration), the floor; token/search-e the same with a one-letter search kept,
//     which counts the live turn again on every draw, reported as a ratio
//     to the floor (x-floor).
func BenchmarkSearchStreaming(b *testing.B) {
	clock := fixedNow
	s := benchScreen(b, 200, 50, &clock)
	var lowered []string
	const rounds = 2000
	var evs []debate.Event
	for r := 1; r <= rounds; r++ {
		for i, p := range benchPanel {
			text := fmt.Sprintf("Turn %d. ", (r-1)*len(benchPanel)+i+1) + words(100, r*len(benchPanel)+i)
			lowered = append(lowered, strings.ToLower(text))
			evs = append(evs, debate.Event{Type: debate.EventTurnStart, Round: r, Agent: p},
				debate.Event{Type: debate.EventToken, Round: r, Agent: p, Text: text},
				debate.Event{Type: debate.EventTurnEnd, Round: r, Agent: p, Text: text})
		}
		if r%50 == 0 {
			s.events(evs...)
			evs = evs[:0]
		}
	}
	// The next turn starts and streams 200 words.
	live := words(200, 7)
	s.begin(rounds+1, benchPanel[0], live)
	lowered = append(lowered, strings.ToLower(live))
	if !s.m.cols[0].turns[len(s.m.cols[0].turns)-1].streaming {
		b.Fatal("the last turn is not streaming")
	}
	key := func(k string) {
		s.m, _ = s.m.Update(keytest.Press(k))
		_ = s.m.View()
	}
	// The screen's own cost of a key, for scale: j scrolls the focused
	// pane.
	b.Run("screen-j", func(b *testing.B) {
		for b.Loop() {
			key("j")
		}
	})
	key("/")
	searchtest.Run(b, lowered, "measure", key,
		func() int { return s.m.find.st.Total() }, func() string { return plain(s.m.View()) })

	// A paragraph of tokens per iteration (words starts one every 60
	// words), so that both runs see tails of every length.
	const perIter = 60
	more := tokens(words(100000, 11))
	next := 0
	token := func() {
		for range perIter {
			clock = clock.Add(mdrender.GrowingInterval)
			s.m, _ = s.m.Update(eventsMsg{id: s.m.id, run: s.m.run, events: []debate.Event{{Type: debate.EventToken, Round: rounds + 1, Agent: benchPanel[0], Text: more[next%len(more)]}}})
			s.m, _ = s.m.Update(growTickMsg{id: s.m.id})
			_ = s.m.View()
			next++
		}
	}
	var floor float64
	b.Run("token/no-search", func(b *testing.B) {
		key("esc")
		for b.Loop() {
			token()
		}
		floor = float64(b.Elapsed().Nanoseconds()) / float64(b.N) / perIter
		b.ReportMetric(floor/1e6, "ms/token")
	})
	b.Run("token/search-e", func(b *testing.B) {
		key("/")
		key("e")
		key("enter")
		before := s.m.find.st.Total()
		took := time.Duration(0)
		for b.Loop() {
			t0 := time.Now()
			token()
			took += time.Since(t0)
		}
		ns := float64(took.Nanoseconds()) / float64(b.N) / perIter
		b.ReportMetric(ns/1e6, "ms/token")
		if floor > 0 {
			b.ReportMetric(ns/floor, "x-floor")
		}
		if s.m.find.st.Total() <= before {
			b.Fatalf("the streamed tokens added no match: %d, %d before", s.m.find.st.Total(), before)
		}
		b.ReportMetric(float64(s.m.find.st.Total()), "matches")
	})
}
