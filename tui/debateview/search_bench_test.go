package debateview

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
	"github.com/roundtable-dev/roundtable/tui/internal/search/searchtest"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// BenchmarkSearchReplay10k is a keystroke in the find prompt of a debate
// replay of 10,000 turns (five personas, 2,000 rounds of ~100-word turns,
// about 6 MB), Update and View per key, beside the floor measured in the
// same run: a plain strings.Index over the same texts, lowered beforehand,
// for each query typed. Sub-benchmarks as BenchmarkSearch10k in the watch
// screen: first-slash (indexing every turn), first-letter (ctrl+u, "e"),
// word (ctrl+u, "measure" a key at a time) and next (n, which may switch
// column); screen-j is a key that only scrolls, the screen's own cost.
func BenchmarkSearchReplay10k(b *testing.B) {
	cwd := b.TempDir()
	r, _, err := room.Create(cwd, "big", room.CreateOptions{Topic: "Ten thousand turns", Mode: room.ModeDebate, Agents: benchPanel, Rounds: 2000})
	if err != nil {
		b.Fatal(err)
	}
	var st room.State
	for i := range 10000 {
		st.Messages = append(st.Messages, room.Message{
			Seq: i + 1, Seat: benchPanel[i%len(benchPanel)], Agent: "mock", Round: i/len(benchPanel) + 1,
			Kind: "turn", Text: fmt.Sprintf("Turn %d. ", i+1) + words(100, i),
		})
	}
	opts := Options{Context: context.Background(), Now: func() time.Time { return fixedNow }, Dark: true, ExportDir: cwd, Renderer: mdrender.New(true)}
	m := NewReplay(opts, r, st, nil)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
	lowered := make([]string, len(st.Messages))
	for i := range st.Messages {
		lowered[i] = strings.ToLower(st.Messages[i].Text)
	}
	key := func(k string) {
		m, _ = m.Update(keytest.Press(k))
		_ = m.View()
	}
	// The screen's own cost of a key, for scale: j scrolls the focused
	// pane.
	b.Run("screen-j", func(b *testing.B) {
		for b.Loop() {
			key("j")
		}
	})
	b.Run("first-slash", func(b *testing.B) {
		for b.Loop() {
			m.find = nil
			key("/")
		}
	})
	searchtest.Run(b, lowered, "measure", key,
		func() int { return m.find.st.Total() }, func() string { return plain(m.View()) })
}
