package watch

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/tui/internal/search/searchtest"
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

	searchtest.Run(b, lowered, "flushes", key,
		func() int { return m.find.st.Total() }, func() string { return plain(m) })
	if !strings.Contains(plain(m), fmt.Sprintf("/%d matches", m.find.st.Total())) {
		b.Fatalf("n did not keep the count:\n%s", plain(m))
	}
}
