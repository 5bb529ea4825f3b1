package watch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// remoteModel is the note room's screen as a remote watch shows it.
func remoteModel(t *testing.T) (Model, *RemoteLink) {
	t.Helper()
	cwd, name := noteRoom(t)
	link := NewRemoteLink("far.example:8765")
	m, err := New(Options{Cwd: cwd, Room: name, ExportDir: t.TempDir(), Dark: true, Now: func() time.Time { return fixedAt }, Location: time.UTC, Remote: link})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, name, phaseOpening)())
	return m, link
}

// TestRemoteScreenReadOnly checks the remote screen: its header names the
// host, the keys that write are off and out of the help, and pressing one
// says why and writes nothing.
func TestRemoteScreenReadOnly(t *testing.T) {
	m, _ := remoteModel(t)
	if got := flat(m); !strings.Contains(got, "remote: far.example:8765") {
		t.Errorf("the header does not name the host:\n%s", got)
	}
	for name, b := range map[string]bool{
		"i": m.keys.Note.Enabled(), "t": m.keys.Take.Enabled(),
		"S": m.keys.WriteSpec.Enabled(), "C": m.keys.CloseRoom.Enabled(),
	} {
		if b {
			t.Errorf("%s is enabled on a remote screen", name)
		}
	}
	m, _ = press(m, "?")
	help := flat(m)
	for _, word := range []string{"note to seats", "take a seat", "write the spec", "close the room"} {
		if strings.Contains(help, word) {
			t.Errorf("the help offers %q on a remote screen", word)
		}
	}
	m, _ = press(m, "?")
	for _, k := range []string{"i", "t", "S", "C"} {
		var cmd tea.Cmd
		m, cmd = press(m, k)
		if cmd != nil {
			t.Errorf("%s gave a command on a remote screen", k)
		}
		if !strings.Contains(flat(m), "read-only: an observer cannot") {
			t.Errorf("%s did not say the room is read-only:\n%s", k, flat(m))
		}
	}
	if _, err := os.Stat(room.NotesDir(m.room.Dir())); err == nil {
		t.Error("a note folder appeared")
	}
	if _, err := os.Stat(filepath.Join(m.room.Dir(), room.LogFile)); err == nil {
		t.Error("server.log was written: a seat was taken")
	}
}

// TestLocalScreenNotReadOnly checks that a local screen keeps i and t.
func TestLocalScreenNotReadOnly(t *testing.T) {
	cwd, name := noteRoom(t)
	m := openModel(t, cwd, name, 120, 30)
	if !m.keys.Note.Enabled() || !m.keys.Take.Enabled() {
		t.Errorf("a local screen lost its keys: note %v, take %v", m.keys.Note.Enabled(), m.keys.Take.Enabled())
	}
	if strings.Contains(flat(m), "remote:") {
		t.Error("a local screen says remote")
	}
}

// TestRemoteStatus checks that the link's state reaches the status line,
// the latest winning.
func TestRemoteStatus(t *testing.T) {
	m, link := remoteModel(t)
	link.Set("connection to far.example:8765 lost (refused); retrying in 2s", false)
	link.Set("connection to far.example:8765 lost (refused); retrying in 4s", false)
	msg := remoteStatusCmd(m.id, m.sess, link)()
	m, cmd := m.Update(msg)
	if got := flat(m); !strings.Contains(got, "retrying in 4s") {
		t.Errorf("the status does not show the latest state:\n%s", got)
	}
	if cmd == nil {
		t.Fatal("the screen stopped listening to the link")
	}
	// The next status is waited for; the screen's end stops the wait.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got := make(chan tea.Msg, 1)
	go func() { got <- remoteStatusCmd(m.id, m.sess, link)() }()
	select {
	case <-got:
		t.Fatal("a status arrived with none set")
	case <-time.After(50 * time.Millisecond):
	}
	link.Set("reconnected to far.example:8765", true)
	select {
	case msg := <-got:
		m, _ = m.Update(msg)
		if !strings.Contains(flat(m), "reconnected to far.example:8765") {
			t.Errorf("reconnected not shown:\n%s", flat(m))
		}
	case <-ctx.Done():
		t.Fatal("the status never arrived")
	}
}

func TestObserveURL(t *testing.T) {
	for _, tt := range []struct{ in, endpoint, label string }{
		{"https://far.example:8765", "https://far.example:8765/mcp", "far.example:8765"},
		{"http://127.0.0.1:9/", "http://127.0.0.1:9/mcp", "127.0.0.1:9"},
		{"https://far.example/rt/mcp", "https://far.example/rt/mcp", "far.example:443"},
		{" http://[::1]:8765 ", "http://[::1]:8765/mcp", "[::1]:8765"},
	} {
		endpoint, label, err := observeURL(tt.in)
		if err != nil || endpoint != tt.endpoint || label != tt.label {
			t.Errorf("observeURL(%q) = %q, %q, %v; want %q, %q", tt.in, endpoint, label, err, tt.endpoint, tt.label)
		}
	}
	for _, in := range []string{"", "far.example:8765", "ftp://x", "http://", "::"} {
		if _, _, err := observeURL(in); err == nil {
			t.Errorf("observeURL(%q) accepted", in)
		}
	}
}
