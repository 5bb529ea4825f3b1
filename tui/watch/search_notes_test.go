package watch

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/search"
)

// currentLine is the view's line (without colours) that holds the
// current match's mark, "" when none does.
func currentLine(m Model) string {
	for _, l := range strings.Split(m.View(), "\n") {
		if strings.Contains(l, m.find.marks.Current) {
			return stripANSI(l)
		}
	}
	return ""
}

// TestSearchFindsNotes: steering notes are searched where their bands
// are: a word only a note holds is found, counted and marked, and n and N
// visit notes among the messages in the order the feed shows them; a note
// that lands while a search is kept is counted.
func TestSearchFindsNotes(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "noted", room.CreateOptions{Topic: "t", Budget: 10})
	if err != nil {
		t.Fatal(err)
	}
	note := func(text string) {
		if _, err := r.AddNote(room.NoteFromHost, text, 0); err != nil {
			t.Fatal(err)
		}
	}
	post := func(seat, text string) {
		if _, _, err := r.PostMessage(room.Post{Seat: seat, Agent: "a", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	post(room.SeatLead, "The brief: weigh the anchor design.")
	note("Host says: keep the Anchor small, and mind the compass.")
	post(room.SeatPeer, "The peer drops the anchor idea.")
	m := openModel(t, cwd, "noted", 100, 60)

	m, _ = press(m, "/")
	m = typeQuery(m, "compass")
	if !strings.Contains(plain(m), "/compass█ · 1/1 matches") {
		t.Fatalf("a word only in a note is not found:\n%s", plain(m))
	}
	if l := currentLine(m); !strings.Contains(l, "mind the compass") {
		t.Errorf("the current match is not marked in the note's band: %q\n%s", l, plain(m))
	}

	m, _ = press(m, "ctrl+u")
	m = typeQuery(m, "anchor")
	m, _ = press(m, "enter")
	if m.find.st.Total() != 3 {
		t.Fatalf("%d matches of anchor, want 3 (message, note, message):\n%s", m.find.st.Total(), plain(m))
	}
	// Screen order: the brief, the note, the peer's message.
	want := []string{"weigh the anchor", "keep the Anchor", "drops the anchor"}
	k := 0
	for i, w := range want {
		if strings.Contains(currentLine(m), w) {
			k = i
		}
	}
	for step := range 4 {
		w := want[(k+step)%3]
		if l := currentLine(m); !strings.Contains(l, w) {
			t.Errorf("step %d: current line %q, want the one with %q", step, l, w)
		}
		m, _ = press(m, "n")
	}
	m, _ = press(m, "N")
	m, _ = press(m, "N")
	if l := currentLine(m); !strings.Contains(l, want[(k+2)%3]) {
		t.Errorf("N did not go back through the note: %q", l)
	}

	// A note that lands while the search is kept is counted.
	note("A second note: anchor again.")
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	m, _ = m.Update(stateMsg{id: m.id, st: st})
	if m.find.st.Total() != 4 || !strings.Contains(plain(m), "/4 matches") {
		t.Errorf("%d matches after a new note, want 4:\n%s", m.find.st.Total(), plain(m))
	}
	// Each note is one text of the index, as drawn.
	notes := 0
	for i := range m.list.base {
		if m.list.items[i].kind == kindNote && search.Fold(m.find.st.Index.Text(i)) != "" {
			notes++
		}
	}
	if notes != 2 {
		t.Errorf("%d notes indexed, want 2", notes)
	}
}
