package watch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// noteRoom is an open MCP room with two messages.
func noteRoom(t *testing.T) (string, string) {
	t.Helper()
	cwd := t.TempDir()
	writeRoom(t, cwd, "steer", room.Config{Room: "steer", Topic: "Steering", Budget: 4, CreatedAt: at(0)}, []fileMsg{
		{1, at(10), "lead", "opus", "brief", "The brief: alpha.", 0},
		{2, at(20), "peer", "codex", "objection", "The objection: bravo.", 0},
	}, nil)
	return cwd, "steer"
}

// run runs cmd and, when it gives one, the message it returns: a note
// being written.
func runNote(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		t.Fatal("enter gave no command")
	}
	var sent noteSentMsg
	found := false
	var walk func(tea.Msg)
	walk = func(msg tea.Msg) {
		switch msg := msg.(type) {
		case noteSentMsg:
			sent, found = msg, true
		case tea.BatchMsg:
			for _, c := range msg {
				if c != nil {
					walk(c())
				}
			}
		}
	}
	walk(cmd())
	if !found {
		t.Fatal("enter did not write a note")
	}
	m, _ = m.Update(sent)
	return m
}

// refresh reads the room again, as the screen does on a change.
func refresh(t *testing.T, m Model) Model {
	t.Helper()
	st, err := m.room.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	m, _ = m.Update(stateMsg{id: m.id, st: st})
	return m
}

// TestNoteComposer: i opens the composer, which takes every key (q is
// text, not quit); enter writes the note from the host; the feed shows it
// as a band after the last message; the help lists i.
func TestNoteComposer(t *testing.T) {
	cwd, name := noteRoom(t)
	m := openModel(t, cwd, name, 100, 30)
	if !strings.Contains(plain(m), "i note to seats") {
		t.Fatalf("the short help does not offer i:\n%s", plain(m))
	}
	m, _ = press(m, "i")
	if !m.steer.c.IsOpen() || !strings.Contains(plain(m), "Steering note to both seats") {
		t.Fatalf("i did not open the composer:\n%s", plain(m))
	}
	if strings.Contains(plain(m), "f unfollow") {
		t.Fatalf("the screen's keys are still offered while writing:\n%s", plain(m))
	}
	m = typeQuery(m, "quit the cache talk; focus on g")
	if os.Getenv("SHOW") != "" {
		t.Log("\n" + plain(m))
	}
	m, _ = press(m, "G")
	if !m.steer.c.IsOpen() {
		t.Fatal("G left the composer")
	}
	if got := m.steer.c.Value(); got != "quit the cache talk; focus on gG" {
		t.Fatalf("composer holds %q", got)
	}
	m, cmd := press(m, "enter")
	m = runNote(t, m, cmd)
	if m.steer.c.IsOpen() || !strings.Contains(flat(m), "note 1 sent: both seats get it") {
		t.Fatalf("after enter:\n%s", plain(m))
	}
	m = refresh(t, m)
	st, _ := m.room.State()
	if len(st.Notes) != 1 || st.Notes[0].From != room.NoteFromHost || st.Notes[0].Text != "quit the cache talk; focus on gG" || st.Notes[0].AfterSeq != 2 {
		t.Fatalf("notes on disk: %+v", st.Notes)
	}
	view := flat(m)
	bravo, band := strings.Index(view, "bravo"), strings.Index(view, "host · steering note to both seats")
	if bravo < 0 || band < bravo || !strings.Contains(view[band:], "quit the cache talk") {
		t.Fatalf("the note is not a band after the last message:\n%s", plain(m))
	}
	if st.Round != 1 || st.Turn != room.SeatLead {
		t.Fatalf("the note moved the room: round %d turn %s", st.Round, st.Turn)
	}
}

// TestNoteComposerKeepsDrafts: esc puts the note away with its text, i
// brings it back; ctrl+c still quits while writing; an empty note is not
// sent.
func TestNoteComposerKeepsDrafts(t *testing.T) {
	cwd, name := noteRoom(t)
	m := openModel(t, cwd, name, 100, 30)
	m, _ = press(m, "i")
	m, cmd := press(m, "enter")
	if cmd != nil || !m.steer.c.IsOpen() {
		t.Fatal("an empty note was sent or closed the composer")
	}
	m = typeQuery(m, "half a thought")
	m, _ = press(m, "esc")
	if m.steer.c.IsOpen() || !strings.Contains(flat(m), "put away, not sent") {
		t.Fatalf("esc:\n%s", plain(m))
	}
	m, _ = press(m, "i")
	if m.steer.c.Value() != "half a thought" {
		t.Fatalf("draft lost: %q", m.steer.c.Value())
	}
	m, _ = press(m, "esc")
	if !strings.Contains(plain(m), "? help") || !strings.Contains(plain(m), "q quit") {
		t.Fatalf("the screen's keys did not come back after the composer:\n%s", plain(m))
	}
	m, _ = press(m, "i")
	_, cmd = press(m, "ctrl+c")
	if cmd == nil {
		t.Fatal("ctrl+c does nothing while writing")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c does not quit while writing")
	}
	if files, _ := filepath.Glob(filepath.Join(room.NotesDir(room.Dir(cwd, name)), "*.json")); len(files) != 0 {
		t.Fatalf("notes written: %v", files)
	}
}

// TestNoteRefusedWhenClosed: a closed room takes no note: i says so, and
// the help does not offer it; a room that closes while the note is
// written keeps the text in the composer.
func TestNoteRefusedWhenClosed(t *testing.T) {
	cwd, name := noteRoom(t)
	m := openModel(t, cwd, name, 100, 30)
	m, _ = press(m, "i")
	m = typeQuery(m, "too late")
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: "done"}); err != nil {
		t.Fatal(err)
	}
	m, cmd := press(m, "enter")
	m = runNote(t, m, cmd)
	if !strings.Contains(flat(m), "the room closed before the note was sent") || m.steer.c.Value() != "too late" {
		t.Fatalf("closed while writing: value %q\n%s", m.steer.c.Value(), plain(m))
	}
	m = refresh(t, m)
	if strings.Contains(plain(m), "i note to seats") {
		t.Fatalf("a closed room offers i:\n%s", plain(m))
	}
	m, _ = press(m, "i")
	if m.steer.c.IsOpen() || !strings.Contains(flat(m), "the room is closed and takes no more notes") {
		t.Fatalf("i on a closed room:\n%s", plain(m))
	}
	if _, err := os.Stat(room.NotesDir(r.Dir())); err == nil {
		if files, _ := filepath.Glob(filepath.Join(room.NotesDir(r.Dir()), "*.json")); len(files) != 0 {
			t.Fatalf("a note was written to a closed room: %v", files)
		}
	}
}

// TestNoteRefusedInDebate: a persona debate watched here takes no host
// note; i says where to speak instead.
func TestNoteRefusedInDebate(t *testing.T) {
	cwd := t.TempDir()
	writeRoom(t, cwd, "panel", room.Config{Room: "panel", Topic: "t", Mode: room.ModeDebate, Rounds: 2, Agents: []string{"A", "B"}, CreatedAt: at(0)}, []fileMsg{
		{1, at(10), "A", "mock", "turn", "A speaks.", 1},
	}, nil)
	m := openModel(t, cwd, "panel", 100, 30)
	if strings.Contains(plain(m), "i note to seats") {
		t.Fatalf("a debate offers i:\n%s", plain(m))
	}
	m, _ = press(m, "i")
	if m.steer.c.IsOpen() || !strings.Contains(flat(m), "this is a persona debate: speak to the panel with i in its debate screen") {
		t.Fatalf("i in a debate:\n%s", plain(m))
	}
}

// TestNotesPlacedInFeed: notes written by another process sit in the feed
// after the message they followed, before the next one, in order.
func TestNotesPlacedInFeed(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "place", room.CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	add := func(text string) {
		if _, err := r.AddNote(room.NoteFromHost, text, 0); err != nil {
			t.Fatal(err)
		}
	}
	post := func(seat, text string) {
		if _, _, err := r.PostMessage(room.Post{Seat: seat, Agent: "a", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	add("NOTE-ZERO before anything")
	post(room.SeatLead, "MSG-ONE")
	add("NOTE-ONE after the brief")
	add("NOTE-TWO also after the brief")
	post(room.SeatPeer, "MSG-TWO")
	m := openModel(t, cwd, "place", 100, 80)
	view := flat(m)
	order := []string{"NOTE-ZERO", "MSG-ONE", "NOTE-ONE", "NOTE-TWO", "MSG-TWO"}
	last := -1
	for _, w := range order {
		i := strings.Index(view, w)
		if i <= last {
			t.Fatalf("%s out of place (at %d, after %d):\n%s", w, i, last, plain(m))
		}
		last = i
	}
	if n := strings.Count(view, "host · steering note to both seats"); n != 3 {
		t.Fatalf("%d host bands, want 3:\n%s", n, plain(m))
	}
	if err := onlyColours(m.View()); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SHOW") != "" {
		t.Log("\n" + plain(m))
	}
}
