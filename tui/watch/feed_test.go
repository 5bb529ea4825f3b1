package watch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// runScreen runs the screen on cwd/name as a program until the test ends.
func runScreen(t *testing.T, cwd, name string) (recorder, *teatest.TestModel) {
	t.Helper()
	m, err := New(Options{Cwd: cwd, Room: name, ExportDir: t.TempDir(), Dark: true, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder(m)
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(100, 30))
	t.Cleanup(func() {
		tm.Type("q")
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		m.Close()
	})
	return rec, tm
}

func TestRoomDeletedWhileWatching(t *testing.T) {
	cwd, name := openMCPRoom(t)
	rec, _ := runScreen(t, cwd, name)
	rec.waitText(t, "Queue for the indexer")
	if err := os.RemoveAll(room.Dir(cwd, name)); err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "gone (deleted or moved?)")
	rec.waitText(t, "#3 ·") // the last messages stay
}

func TestMessagesFolderBroken(t *testing.T) {
	cwd, name := openMCPRoom(t)
	rec, _ := runScreen(t, cwd, name)
	rec.waitText(t, "Queue for the indexer")
	msgs := filepath.Join(room.Dir(cwd, name), "messages")
	if err := os.RemoveAll(msgs); err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "cannot read the room")
	// The folder comes back (empty): the error goes away.
	if err := os.Mkdir(msgs, 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Record(room.Post{Seat: "peer", Agent: "codex", Text: "back-again"}); err != nil {
		t.Fatal(err)
	}
	rec.waitText(t, "back-again")
	rec.waitFrame(t, "the error cleared", func(f string) bool { return !strings.Contains(f, "cannot read the room") })
}

func TestSeatsFollowServerLog(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "seats", room.CreateOptions{Topic: "Seats", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := runScreen(t, cwd, "seats")
	rec.waitText(t, "not connected yet")
	steps := []struct {
		event  string
		fields []room.Field
		want   string
	}{
		{"connect", []room.Field{room.F("seat", "lead"), room.F("agent", "opus-5"), room.F("pid", 1), room.F("waits", room.WaitsLogged)}, "connected but never started: it has not been given its brief"},
		{"call", []room.Field{room.F("seat", "lead"), room.F("tool", "post")}, "working, last tool post"},
		{"call", []room.Field{room.F("seat", "lead"), room.F("tool", "wait_for_message")}, "parked · "},
		{"wait_return", []room.Field{room.F("seat", "lead"), room.F("reason", "message"), room.F("waited_ms", 5)}, "since its wait returned a message"},
		{"call", []room.Field{room.F("seat", "lead"), room.F("tool", "read_room")}, ", then read_room"},
		{"call", []room.Field{room.F("seat", "lead"), room.F("tool", "wait_for_message")}, "listening for the peer"},
		{"disconnect", []room.Field{room.F("seat", "lead"), room.F("pid", 1)}, "disconnected, last tool wait_for_message"},
		{"connect", []room.Field{room.F("seat", "peer"), room.F("agent", "codex"), room.F("pid", 2)}, "connected but never started"},
		{"disconnect", []room.Field{room.F("seat", "peer"), room.F("pid", 2)}, "BOTH SEATS HAVE DISCONNECTED"},
	}
	for _, s := range steps {
		if err := r.Log(s.event, s.fields...); err != nil {
			t.Fatal(err)
		}
		rec.waitText(t, s.want)
	}
}

func TestWaitingForUnreadableRoomJSON(t *testing.T) {
	cwd := t.TempDir()
	dir := room.Dir(cwd, "later")
	writeFile(t, filepath.Join(dir, "room.json"), []byte("{ half written"))
	rec, _ := runScreen(t, cwd, "later")
	rec.waitText(t, "waiting for the first seat")
	rec.waitText(t, "cannot be read yet")
	writeFile(t, filepath.Join(dir, "room.json"), encode(t, room.Config{Room: "later", Topic: "Readable now", Budget: 2}))
	rec.waitText(t, "Readable now")
	rec.waitText(t, "the room appeared: attached")
}

func TestDirWatchStops(t *testing.T) {
	s := newSession(t.Context())
	w := s.appearWatch(t.TempDir(), "r")
	ch := w.Changed()
	s.close()
	if s.appearWatch("x", "y") != nil || s.logWatch("x") != nil {
		t.Error("a closed session starts watches")
	}
	select {
	case <-ch:
		t.Error("a stopped watch fired")
	default:
	}
}
