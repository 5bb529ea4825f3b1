package debateview

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
	"github.com/roundtable-dev/roundtable/tui/internal/search"
)

// stream feeds more of a turn being spoken and the grow tick that draws
// it.
func (s *synth) stream(round int, agent, more string) {
	var evs []debate.Event
	for _, tok := range tokens(more) {
		evs = append(evs, debate.Event{Type: debate.EventToken, Round: round, Agent: agent, Text: tok})
	}
	s.events(evs...)
	s.send(growTickMsg{id: s.m.id})
}

// currentLine is the text (without colours) of the column's line with
// the current match's mark, between the column's borders; "" when no line
// has it.
func (s *synth) currentLine() string {
	for _, l := range strings.Split(s.m.View(), "\n") {
		if i := strings.Index(l, s.m.find.marks.Current); i >= 0 {
			before, rest := plain(l[:i]), plain(l[i:])
			if j := strings.LastIndex(before, "│"); j >= 0 {
				before = before[j+len("│"):]
			}
			if j := strings.Index(rest, "│"); j >= 0 {
				rest = rest[:j]
			}
			return before + rest
		}
	}
	return ""
}

// sameAsFresh fails unless the screen's index and search are those a
// fresh search of the transcript on screen builds: the same texts of the
// same turns in the same order, the same counts.
func sameAsFresh(t *testing.T, m *Model) {
	t.Helper()
	f := m.find
	m.find = nil
	m.indexTurns()
	fresh := m.find
	m.find = f
	q := f.st.Query()
	fr := fresh.st.Index.Find(q, nil)
	if len(f.docs) != len(fresh.docs) || f.st.Index.Len() != fresh.st.Index.Len() {
		t.Fatalf("%d texts, a fresh search has %d", f.st.Index.Len(), fresh.st.Index.Len())
	}
	for i := range f.docs {
		if f.docs[i].t != fresh.docs[i].t || f.st.Index.Text(i) != fresh.st.Index.Text(i) {
			t.Fatalf("text %d is %q, a fresh search has %q", i, f.st.Index.Text(i), fresh.st.Index.Text(i))
		}
		if f.st.Result().InDoc(i) != fr.InDoc(i) {
			t.Fatalf("text %d: %d matches, a fresh search finds %d", i, f.st.Result().InDoc(i), fr.InDoc(i))
		}
	}
	if len(f.live) != 0 {
		t.Errorf("%d live texts left after the turns ended", len(f.live))
	}
}

// TestSearchStreamingTurn: with a search kept, the turn being streamed is
// searched as it is drawn: a match it adds is counted and marked, not
// before the grow tick draws it (no search per token); the current match
// stays where it is as the turn grows past it and a half word completes;
// when the turn ends the search is the one a fresh search finds.
func TestSearchStreamingTurn(t *testing.T) {
	s := needleFound(t)
	s.begin(1, panel[1], "The architect says")
	s.stream(1, panel[1], " the NEEDLE")
	if s.m.find.st.Total() != 2 || !strings.Contains(s.view(), "1/2 matches") {
		t.Fatalf("the streaming turn's match is not counted: %d\n%s", s.m.find.st.Total(), s.view())
	}
	s.press("n")
	if l := s.currentLine(); !strings.Contains(l, "the NEEDLE") || s.m.focus != 1 {
		t.Fatalf("n did not reach the streaming turn's match (focus %d): %q\n%s", s.m.focus, l, s.view())
	}
	doc, nth, off, _ := s.m.find.st.Current()

	// Tokens alone do not search again: the grow tick does.
	s.events(debate.Event{Type: debate.EventToken, Round: 1, Agent: panel[1], Text: " is the needle"})
	if s.m.find.st.Total() != 2 {
		t.Errorf("a token searched again before it was drawn: %d matches", s.m.find.st.Total())
	}
	s.send(growTickMsg{id: s.m.id})
	if s.m.find.st.Total() != 3 || !strings.Contains(s.view(), "2/3 matches") {
		t.Errorf("after the tick: %d matches\n%s", s.m.find.st.Total(), s.view())
	}
	// A half word, then the rest of it: one match more, counted once.
	s.stream(1, panel[1], " and a nee")
	s.stream(1, panel[1], "dle,")
	s.stream(1, panel[1], " with more words after it.")
	if s.m.find.st.Total() != 4 {
		t.Errorf("%d matches after a word completed across tokens, want 4", s.m.find.st.Total())
	}
	if d, n, o, _ := s.m.find.st.Current(); d != doc || n != nth || o != off {
		t.Errorf("the current match moved from %d#%d@%d to %d#%d@%d as the turn grew", doc, nth, off, d, n, o)
	}
	full := "The architect says the NEEDLE is the needle and a needle, with more words after it."
	s.events(debate.Event{Type: debate.EventTurnEnd, Round: 1, Agent: panel[1], Text: full, Usage: &debate.Usage{}})
	s.settle()
	if s.m.find.st.Total() != 4 || !strings.Contains(s.view(), "2/4 matches") {
		t.Errorf("after the turn ended: %d matches\n%s", s.m.find.st.Total(), s.view())
	}
	sameAsFresh(t, &s.m)

	// A turn that streams and ends, with no tick between: the same.
	s.begin(1, panel[2], "A needle from the reviewer")
	s.events(debate.Event{Type: debate.EventTurnEnd, Round: 1, Agent: panel[2], Text: "A needle from the reviewer, and the end.", Usage: &debate.Usage{}})
	if s.m.find.st.Total() != 5 {
		t.Errorf("%d matches after the third turn, want 5", s.m.find.st.Total())
	}
	sameAsFresh(t, &s.m)
}

// TestSearchNotesDebate: a note (a band in every column) is one match, in
// speaking order among the turns: after the turns spoken before it,
// before those after; n shows it in the focused column.
func TestSearchNotesDebate(t *testing.T) {
	s := newSynth(t, 150, 40)
	s.events(debate.Event{Type: debate.EventSessionStart, Topic: "Adopt GraphQL", Agents: panel, Rounds: 2, Provider: "mock"},
		debate.Event{Type: debate.EventRoundStart, Round: 1})
	s.speak(1, panel[0], "The manager sees a needle.")
	s.events(debate.Event{Type: debate.EventNote, Round: 1, From: "user", Text: "Mind the lighthouse: the needle is small."})
	s.speak(1, panel[1], "The architect answers about the needle.")
	s.speak(1, panel[2], "The reviewer stays quiet.")
	s.events(debate.Event{Type: debate.EventRoundEnd, Round: 1})

	s.press("/")
	s.typeText("lighthouse")
	if !strings.Contains(s.view(), "/lighthouse█ · 1/1 matches") {
		t.Fatalf("a word only in a note is not found once:\n%s", s.view())
	}
	if l := s.currentLine(); !strings.Contains(l, "Mind the lighthouse") {
		t.Errorf("the note's match is not current in view: %q\n%s", l, s.view())
	}
	s.press("ctrl+u")
	s.typeText("needle")
	s.press("enter")
	if s.m.find.st.Total() != 3 {
		t.Fatalf("%d matches of needle, want 3 (turn, note, turn)", s.m.find.st.Total())
	}
	// Go to the first, then n walks turn, note, turn.
	for range 3 {
		if strings.Contains(s.currentLine(), "manager sees") {
			break
		}
		s.press("n")
	}
	want := []string{"manager sees", "needle is small", "architect answers"}
	for i, w := range want {
		if l := s.currentLine(); !strings.Contains(l, w) {
			t.Errorf("match %d: current line %q, want the one with %q\n%s", i+1, l, w, s.view())
		}
		s.press("n")
	}
	// Back to the note from the architect's column: it is shown there,
	// not in the first column.
	s.press("N", "N") // from the first match: the architect's, then the note
	if s.m.focus != 1 || !strings.Contains(s.currentLine(), "needle is small") {
		t.Errorf("the note was not shown in the focused column (focus %d): %q", s.m.focus, s.currentLine())
	}
	sameAsFresh(t, &s.m)
	// The index holds the note once.
	n := 0
	for i := range s.m.find.docs {
		if strings.Contains(s.m.find.st.Index.Text(i), search.Fold("lighthouse")) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the note is %d texts of the index, want 1", n)
	}
}

// TestSearchNotesReplay: in a replay the room's notes are found once each,
// between the turns they came between.
func TestSearchNotesReplay(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "noted", room.CreateOptions{Topic: "t", Mode: room.ModeDebate, Agents: panel, Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range panel {
		if _, err := r.Record(room.Post{Seat: p, Agent: "mock", Kind: debate.KindTurn, Text: p + " speaks of the harbor.", Round: 1}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if _, err := r.AddNote(room.NoteFromUser, "The harbor is closed on Sundays.", 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	m := NewReplay(Options{Context: context.Background(), Now: func() time.Time { return fixedNow }, Dark: true, ExportDir: cwd}, r, st, nil)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 150, Height: 40})
	for _, k := range []string{"/", "h", "a", "r", "b", "o", "r", "enter"} {
		m, _ = m.Update(keytest.Press(k))
	}
	if m.find.st.Total() != 4 {
		t.Fatalf("%d matches, want 4 (three turns, one note)", m.find.st.Total())
	}
	var order []string
	for i, d := range m.find.docs {
		if d.t != nil && strings.Contains(m.find.st.Index.Text(i), "harbor") {
			order = append(order, m.find.st.Index.Text(i)[:8])
		}
	}
	want := []string{"product ", "the harb", "software", "security"}
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Errorf("texts in the order %q, want %q", order, want)
	}
}
