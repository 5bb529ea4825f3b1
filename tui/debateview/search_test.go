package debateview

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
)

// filler is a long turn without the word searched for, so columns scroll.
func filler(who string, round int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s speaking in round %d.\n\n", who, round)
	for i := range 12 {
		fmt.Fprintf(&b, "Paragraph %d of plain argument about the API design and its trade-offs.\n\n", i)
	}
	return b.String()
}

// searchDebate is a finished debate of three rounds where "needle" is said
// by the Architect in round 1, the Security Reviewer in round 2 (twice),
// and in the verdict.
func searchDebate(t *testing.T) *synth {
	s := newSynth(t, 150, 40)
	for round := 1; round <= 3; round++ {
		s.events(debate.Event{Type: debate.EventRoundStart, Round: round})
		for _, p := range panel {
			text := filler(p, round)
			switch {
			case p == "Software Architect" && round == 1:
				text += "The Needle is the schema."
			case p == "Security Reviewer" && round == 2:
				text = "A needle first.\n\n" + text + "And a NEEDLE last."
			}
			s.speak(round, p, text)
		}
		s.events(debate.Event{Type: debate.EventRoundEnd, Round: round})
	}
	s.events(debate.Event{Type: debate.EventSummary, Text: "The verdict: keep the needle out of the haystack."},
		debate.Event{Type: debate.EventDone, Usage: &debate.Usage{}})
	s.close()
	s.settle()
	return s
}

func (s *synth) press(keys ...string) {
	for _, k := range keys {
		s.send(keytest.Press(k))
	}
}

func (s *synth) typeText(text string) {
	for _, r := range text {
		s.send(keytest.Press(string(r)))
	}
}

func TestSearchDebate(t *testing.T) {
	s := searchDebate(t)
	m := &s.m
	if m.keys.NextMatch.Enabled() {
		t.Error("n is enabled before a search")
	}
	// From the first column's top, so the search starts there.
	s.press("tab", "g")
	if m.focus != 0 {
		t.Fatalf("focus %d, want the first column", m.focus)
	}
	s.press("/")
	if !strings.Contains(s.view(), "/█ · type to search") {
		t.Fatalf("/ did not open the prompt:\n%s", s.view())
	}
	s.typeText("needle")
	if !strings.Contains(s.view(), "/needle█ · 1/4 matches") {
		t.Fatalf("the status does not count 4 matches:\n%s", s.view())
	}
	if m.focus != m.byName["Software Architect"] {
		t.Errorf("focus on pane %d, want the Architect's column", m.focus)
	}
	marks := m.find.marks
	if !strings.Contains(m.View(), marks.Current+"Needle") {
		t.Errorf("the current match is not marked in view:\n%s", s.view())
	}
	s.press("enter")
	if m.find.st.Typing() || !m.keys.NextMatch.Enabled() {
		t.Fatal("enter did not keep the query")
	}
	// n goes on to the Security Reviewer's column (round 2), switching
	// columns, and through both of its matches, then to the verdict.
	s.press("n")
	sec := m.byName["Security Reviewer"]
	if m.focus != sec || !strings.Contains(s.view(), "2/4 matches") {
		t.Errorf("after n: focus %d, want %d:\n%s", m.focus, sec, s.view())
	}
	if !strings.Contains(m.View(), marks.Current+"needle") {
		t.Errorf("the first needle of the reviewer is not current:\n%s", s.view())
	}
	s.press("n")
	if m.focus != sec || !strings.Contains(m.View(), marks.Current+"NEEDLE") {
		t.Errorf("the second n did not reach the reviewer's last NEEDLE, scrolled into view:\n%s", s.view())
	}
	s.press("n")
	if m.focus != len(m.cols) || !strings.Contains(s.view(), "4/4 matches") {
		t.Errorf("the third n did not reach the verdict: focus %d\n%s", m.focus, s.view())
	}
	s.press("n") // wraps
	if m.focus != m.byName["Software Architect"] || !strings.Contains(s.view(), "1/4 matches") {
		t.Errorf("n did not wrap to the first match: focus %d", m.focus)
	}
	s.press("N")
	if m.focus != len(m.cols) {
		t.Errorf("N did not go back to the verdict: focus %d", m.focus)
	}
	if !strings.Contains(s.view(), "esc clear search") && !strings.Contains(s.view(), "esc clears") {
		t.Errorf("the screen does not say esc clears the search:\n%s", s.view())
	}
	// esc clears the search; it does not leave the screen.
	cmd := s.send(keytest.Press("esc"))
	if cmd != nil {
		if _, back := cmd().(BackMsg); back {
			t.Fatal("esc left the screen instead of clearing the search")
		}
	}
	if m.find.st.Active() || strings.Contains(m.View(), marks.Match) {
		t.Error("esc did not clear the marks")
	}
}

func TestSearchDebateEscRestores(t *testing.T) {
	s := searchDebate(t)
	m := &s.m
	s.press("tab") // off the verdict
	before := m.focus
	top := m.cols[before].scroll.top
	s.press("/")
	s.typeText("needle")
	if m.focus == before && m.cols[before].scroll.top == top {
		t.Fatal("typing did not move to a match")
	}
	s.press("esc")
	if m.focus != before || m.cols[before].scroll.top != top || m.find.st.Active() {
		t.Errorf("esc in the prompt: focus %d top %d, want %d %d", m.focus, m.cols[before].scroll.top, before, top)
	}
}

// TestSearchLiveDebate: turns spoken while a search is kept are counted,
// the one being spoken as it is drawn, and once only when it ends.
func TestSearchLiveDebate(t *testing.T) {
	s := needleFound(t)
	s.begin(1, panel[1], "Another needle is being")
	if s.m.find.st.Total() != 2 {
		t.Errorf("%d matches while a turn is spoken, want 2", s.m.find.st.Total())
	}
	s.events(debate.Event{Type: debate.EventTurnEnd, Round: 1, Agent: panel[1], Text: "Another needle is being said."})
	if s.m.find.st.Total() != 2 || !strings.Contains(s.view(), "/2 matches") {
		t.Errorf("%d matches after the turn ended, want 2:\n%s", s.m.find.st.Total(), s.view())
	}
}

func TestSearchKeysInHelp(t *testing.T) {
	s := searchDebate(t)
	s.press("/")
	s.typeText("needle")
	s.press("enter", "?")
	flat := strings.Join(strings.Fields(s.view()), " ")
	for _, want := range []string{"/ search", "n next match", "N previous match", "ctrl+p commands", "esc clear search"} {
		if !strings.Contains(flat, want) {
			t.Errorf("%q is not in the help:\n%s", want, s.view())
		}
	}
}

// TestPalette: ctrl+p lists the debate screen's actions; enter runs the
// chosen one by sending its key: here /, then the find takes the typing.
func TestPalette(t *testing.T) {
	s := searchDebate(t)
	s.press("ctrl+p")
	view := s.view()
	for _, want := range []string{"Commands", "next column", "export .md", "search", "run again"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q is not in the palette:\n%s", want, view)
		}
	}
	s.typeText("sear")
	cmd := s.send(keytest.Press("enter"))
	if s.m.find.pal.IsOpen() || cmd == nil {
		t.Fatal("enter did not close the palette and run the choice")
	}
	for _, k := range keyPresses(cmd) {
		s.send(k)
	}
	s.typeText("needle")
	if !strings.Contains(s.view(), "/needle█ · 4/4 matches") { // from the verdict, in focus
		t.Errorf("/ from the palette did not open the find:\n%s", s.view())
	}
}

// keyPresses runs cmd, batches included, and keeps the key presses it
// sends.
func keyPresses(cmd tea.Cmd) []tea.KeyPressMsg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.KeyPressMsg:
		return []tea.KeyPressMsg{msg}
	case tea.BatchMsg:
		var out []tea.KeyPressMsg
		for _, c := range msg {
			out = append(out, keyPresses(c)...)
		}
		return out
	}
	return nil
}

// needleFound is a debate in round one whose first turn says "needle",
// searched for it: one match.
func needleFound(t *testing.T) *synth {
	t.Helper()
	s := newSynth(t, 150, 40)
	s.events(debate.Event{Type: debate.EventRoundStart, Round: 1})
	s.speak(1, panel[0], "A needle in round one.")
	s.press("/")
	s.typeText("needle")
	s.press("enter")
	if s.m.find.st.Total() != 1 {
		t.Fatalf("%d matches, want 1", s.m.find.st.Total())
	}
	return s
}
