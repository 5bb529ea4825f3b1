package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// t0 is the fixed clock of the built rooms; now is the screen's clock.
var (
	t0      = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	fixedAt = t0.Add(42 * time.Minute)
)

// fileMsg is a message as written on disk, every field under the test's
// control.
type fileMsg struct {
	Seq   int    `json:"seq"`
	At    string `json:"at"`
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	Round int    `json:"round,omitempty"`
}

// at is the fixed clock plus s seconds, in the format's layout.
func at(s float64) string {
	return t0.Add(time.Duration(s * float64(time.Second))).Format(room.TimeLayout)
}

// messageName is a message file name in the format.
func messageName(seq int, atStr string, i int) string {
	ms := t0.UnixMilli()
	if tm, err := time.Parse(time.RFC3339Nano, atStr); err == nil {
		ms = tm.UnixMilli()
	}
	return fmt.Sprintf("%04d-%d-%06x.json", seq, ms, i)
}

// writeRoom writes room name in the on-disk format under cwd. extra maps
// paths under the room folder to raw content (server.log, closed.json,
// broken message files).
func writeRoom(t testing.TB, cwd, name string, cfg room.Config, msgs []fileMsg, extra map[string]string) {
	t.Helper()
	dir := room.Dir(cwd, name)
	writeFile(t, filepath.Join(dir, "room.json"), encode(t, cfg))
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, m := range msgs {
		writeFile(t, filepath.Join(dir, "messages", messageName(m.Seq, m.At, i)), encode(t, m))
	}
	for p, content := range extra {
		writeFile(t, filepath.Join(dir, p), []byte(content))
	}
}

// newModelAt builds a screen on cwd/name with the clock stopped at now,
// UTC times and dark styles, sized w×h, and closes it when the test ends.
func newModelAt(t testing.TB, cwd, name string, w, h int, now time.Time) Model {
	t.Helper()
	m, err := New(Options{Cwd: cwd, Room: name, ExportDir: t.TempDir(), Dark: true, Now: func() time.Time { return now }, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m, _ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// openModel is newModelAt with the fixed clock, after the first look at the room and at its
// server.log, done synchronously.
func openModel(t testing.TB, cwd, name string, w, h int) Model {
	t.Helper()
	return openModelAt(t, cwd, name, w, h, fixedAt)
}

// openModelAt is openModel with the clock stopped at now.
func openModelAt(t testing.TB, cwd, name string, w, h int, now time.Time) Model {
	t.Helper()
	m := newModelAt(t, cwd, name, w, h, now)
	m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, name, phaseOpening)())
	if m.room != nil {
		m, _ = m.Update(seatsCmd(m.id, m.sess, m.room.Dir(), "")())
	}
	return m
}

// press sends one key.
func press(m Model, k string) (Model, tea.Cmd) {
	return m.Update(keyMsg(k))
}

// plain is the view without colours.
func plain(m Model) string { return stripANSI(m.View()) }

// flat is the view's words on one line, so a check does not depend on
// where text wraps.
func flat(m Model) string { return strings.Join(strings.Fields(plain(m)), " ") }

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func width(s string) int { return xansi.StringWidth(s) }

// onlyColours reports an escape sequence in s that is not a colour (SGR),
// or a control character other than a newline: agent text must never reach
// the terminal as a command.
func onlyColours(s string) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b:
			if i+1 >= len(s) || s[i+1] != '[' {
				return fmt.Errorf("escape sequence that is not a colour at %d: %q", i, s[i:min(i+12, len(s))])
			}
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			if j >= len(s) || s[j] != 'm' {
				return fmt.Errorf("CSI sequence that is not a colour at %d: %q", i, s[i:min(j+1, len(s))])
			}
			i = j
		case c < 0x20 && c != '\n':
			return fmt.Errorf("control character %#x at %d", c, i)
		}
	}
	return nil
}

// The format's JSON and file writing come from roomtest.
var (
	encode    = roomtest.Encode
	writeFile = roomtest.WriteFile
)

// keyMsg builds a key press by name.
var keyMsg = keytest.Press
