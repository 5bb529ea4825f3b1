package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// bigCouncil writes an eight-seat council of n messages, the seats taking
// turns in order, and returns its cwd.
func bigCouncil(tb testing.TB, n int) string {
	tb.Helper()
	cwd := tb.TempDir()
	seats := []string{"lead", "critic", "security", "peer", "ops", "data", "ux", "legal"}
	dir := room.Dir(cwd, "council")
	writeFile(tb, filepath.Join(dir, "room.json"), encode(tb, room.Config{Room: "council", Topic: "Eight seats", Budget: n, Spec: "SPEC-council.md", CreatedAt: at(0), SeatNames: seats}))
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		tb.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		seat := seats[(i-1)%len(seats)]
		m := fileMsg{i, at(float64(i)), seat, "agent-" + seat, "answer", fmt.Sprintf(bigText, i), 0}
		writeFile(tb, filepath.Join(dir, "messages", messageName(i, m.At, i)), encode(tb, m))
	}
	return cwd
}

// BenchmarkCouncilFrame is one message landing in an eight-seat council of
// 10,000 messages at 200 columns (every seat side by side): the state
// taken in, the columns synced and laid out, the view joined.
func BenchmarkCouncilFrame(b *testing.B) {
	cwd := bigCouncil(b, 10000)
	m, err := New(Options{Cwd: cwd, Room: "council", ExportDir: cwd, Dark: true, Location: time.UTC})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(m.Close)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 240, Height: 50})
	m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, "council", phaseOpening)())
	if !strings.Contains(m.View(), "#10000 ·") || len(m.seatsInColumns()) != 8 {
		b.Fatalf("the first frame does not show eight columns and the newest message:\n%s", plain(m))
	}
	st := m.st
	full := st.Messages
	for b.Loop() {
		// The newest message lands again and again: the list and the
		// columns rebuild as for a new message.
		st.Messages = full[:len(full)-1]
		m.applyState(st, nil)
		st.Messages = full
		m.applyState(st, nil)
		m.layout()
		_ = m.View()
	}
}
