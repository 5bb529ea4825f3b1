package watch

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// findRoom is an open MCP room of n messages; the words "needle" are in
// messages 5, 20 (twice) and 33.
func findRoom(t *testing.T, n int) (string, string) {
	cwd := t.TempDir()
	var msgs []fileMsg
	for i := 1; i <= n; i++ {
		seat := "lead"
		if i%2 == 0 {
			seat = "peer"
		}
		text := fmt.Sprintf("Message %d says something plain.\n\nA second paragraph for height.", i)
		switch i {
		case 5, 33:
			text = fmt.Sprintf("Message %d holds the Needle in a haystack.", i)
		case 20:
			text = "Message 20: a needle here, and a NEEDLE there."
		}
		msgs = append(msgs, fileMsg{i, at(float64(i * 10)), seat, "agent-" + seat, "answer", text, 0})
	}
	writeRoom(t, cwd, "find", room.Config{Room: "find", Topic: "Finding", Budget: 100, CreatedAt: at(0)}, msgs, nil)
	return cwd, "find"
}

func typeQuery(m Model, s string) Model {
	m, _ = typeText(m, s)
	return m
}

// shownSeqs is the message numbers ("#12 ·") in view.
func shownSeqs(m Model) []int {
	var out []int
	for _, l := range strings.Split(plain(m), "\n") {
		var n int
		if i := strings.Index(l, "#"); i >= 0 {
			if _, err := fmt.Sscanf(l[i:], "#%d ·", &n); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

func showsSeq(m Model, seq int) bool {
	for _, n := range shownSeqs(m) {
		if n == seq {
			return true
		}
	}
	return false
}

func TestSearchKeys(t *testing.T) {
	cwd, name := findRoom(t, 40)
	m := openModel(t, cwd, name, 100, 30)
	if m.keys.NextMatch.Enabled() {
		t.Error("n is enabled before any search")
	}
	m, _ = press(m, "g") // from the top
	m, _ = press(m, "/")
	if !m.find.st.Typing() || !strings.Contains(plain(m), "/█ · type") {
		t.Fatalf("/ did not open the prompt:\n%s", plain(m))
	}
	m = typeQuery(m, "neeDLE")
	view := plain(m)
	if !strings.Contains(view, "/neeDLE█ · 1/4 matches") {
		t.Fatalf("the status does not count the matches:\n%s", view)
	}
	if !showsSeq(m, 5) {
		t.Errorf("the first match (#5) is not in view: %v", shownSeqs(m))
	}
	// Marked: the current match in the Current look, in the view's text.
	marks := m.find.marks
	if !strings.Contains(m.View(), marks.Current+"Needle") {
		t.Errorf("the current match is not marked:\n%q", m.View())
	}
	// n and N are letters while typing; enter keeps the query.
	m, _ = press(m, "enter")
	if m.find.st.Typing() || !m.keys.NextMatch.Enabled() {
		t.Fatal("enter did not close the prompt keeping the query")
	}
	m, _ = press(m, "n")
	if !strings.Contains(plain(m), "2/4 matches") || !showsSeq(m, 20) {
		t.Errorf("n did not move to #20: %v\n%s", shownSeqs(m), plain(m))
	}
	if !strings.Contains(m.View(), marks.Current+"needle") || !strings.Contains(m.View(), marks.Match+"NEEDLE") {
		t.Errorf("in #20 the first needle is not current and the second not marked:\n%q", m.View())
	}
	m, _ = press(m, "n")
	if !strings.Contains(m.View(), marks.Current+"NEEDLE") || !strings.Contains(plain(m), "3/4") {
		t.Errorf("the second n did not make the second match of #20 current:\n%s", plain(m))
	}
	m, _ = press(m, "n")
	m, _ = press(m, "n") // wraps round to the first
	if !strings.Contains(plain(m), "1/4 matches") || !showsSeq(m, 5) {
		t.Errorf("n did not wrap to #5: %v", shownSeqs(m))
	}
	m, _ = press(m, "N") // back round to the last
	if !strings.Contains(plain(m), "4/4 matches") || !showsSeq(m, 33) {
		t.Errorf("N did not go back to #33: %v", shownSeqs(m))
	}
	if m.list.follow {
		t.Error("the list follows while showing a match")
	}
	if h := m.keys.Back.Help(); !m.keys.Back.Enabled() || h.Desc != "clear search" {
		t.Errorf("esc is %v %q while a search is kept, want enabled, clear search", m.keys.Back.Enabled(), h.Desc)
	}
	// esc clears the search and stays; a second esc is the screen's again.
	m, _ = press(m, "esc")
	if m.find.st.Active() || strings.Contains(m.View(), marks.Match) || strings.Contains(plain(m), "matches") {
		t.Errorf("esc did not clear the search:\n%s", plain(m))
	}
	if m.keys.NextMatch.Enabled() {
		t.Error("n is still enabled")
	}
	if m.keys.Back.Enabled() || m.keys.Back.Help().Desc != "back" {
		t.Error("esc still says it clears the search")
	}
}

func TestSearchEscRestoresAndLiveCount(t *testing.T) {
	cwd, name := findRoom(t, 40)
	m := openModel(t, cwd, name, 100, 30)
	m, _ = press(m, "/")
	m = typeQuery(m, "needle")
	if m.list.follow {
		t.Fatal("typing did not move to a match")
	}
	m, _ = press(m, "esc")
	if !m.list.follow || !showsSeq(m, 40) {
		t.Errorf("esc in the prompt did not go back to the newest message: %v", shownSeqs(m))
	}

	// Messages that land while a search is kept are counted.
	m, _ = press(m, "/")
	m = typeQuery(m, "needle")
	m, _ = press(m, "enter")
	m, _ = press(m, "g") // the reader scrolls away from the match
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: "lead", Agent: "agent-lead", Kind: "answer", Text: "One more needle."}); err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	m, _ = m.Update(stateMsg{id: m.id, st: st})
	if !strings.Contains(plain(m), "/4 matches") && !strings.Contains(plain(m), "/5 matches") {
		t.Fatalf("no count after a new message:\n%s", plain(m))
	}
	if m.find.st.Total() != 5 {
		t.Errorf("%d matches after a new message with one more, want 5", m.find.st.Total())
	}
	if !strings.Contains(plain(m), "/5 matches") {
		t.Errorf("the status still shows the old count:\n%s", plain(m))
	}
	if m.list.top.item != 0 || !showsSeq(m, 1) {
		t.Errorf("a new message moved the view from where the reader was: %v", shownSeqs(m))
	}

	// While the prompt is typed in, it stays in the status line.
	m, _ = press(m, "/")
	m = typeQuery(m, "nee")
	m.setStatus("the room closed at 09:00:00", true)
	m, _ = m.Update(stateMsg{id: m.id, st: st})
	if !strings.Contains(plain(m), "/nee█") {
		t.Errorf("another status hid the prompt:\n%s", plain(m))
	}
}

func TestSearchNoMatchAndSpec(t *testing.T) {
	cwd, name := findRoom(t, 10)
	m := openModel(t, cwd, name, 100, 30)
	m, _ = press(m, "/")
	m = typeQuery(m, "zzz")
	if !strings.Contains(plain(m), "/zzz█ · no matches") {
		t.Errorf("no matches is not said:\n%s", plain(m))
	}
	// q is a letter in the prompt, not quit.
	var cmd any
	m, cmd2 := press(m, "q")
	cmd = cmd2
	if cmd2 != nil || m.find.st.Query() != "zzzq" {
		t.Errorf("q in the prompt: query %q, cmd %v", m.find.st.Query(), cmd)
	}
	m, _ = press(m, "enter")
	if m.keys.NextMatch.Enabled() {
		t.Error("n is enabled with no match")
	}
}

// TestPalette: ctrl+p lists the watch screen's actions, the find's
// included; enter runs the chosen one by sending its key.
func TestPalette(t *testing.T) {
	cwd, name := findRoom(t, 10)
	m := openModel(t, cwd, name, 100, 30)
	m, _ = press(m, "ctrl+p")
	view := plain(m)
	for _, want := range []string{"Commands", "unfollow", "export md", "search", "quit"} {
		if !strings.Contains(view, want) {
			t.Errorf("%q is not in the palette:\n%s", want, view)
		}
	}
	m = typeQuery(m, "unfol")
	m, cmd := press(m, "enter")
	key, ok := cmd().(tea.KeyPressMsg)
	if !ok || key.String() != "f" {
		t.Fatalf("enter sent %v, want f", cmd())
	}
	if !m.list.follow {
		t.Fatal("typing in the palette reached the screen")
	}
	m, _ = m.Update(key)
	if m.list.follow {
		t.Error("f from the palette did not stop following")
	}
	// The palette runs the find too: / then typing searches.
	m, _ = press(m, "ctrl+p")
	m = typeQuery(m, "search")
	m, cmd = press(m, "enter")
	m, _ = m.Update(cmd())
	m = typeQuery(m, "needle")
	if !strings.Contains(plain(m), "/needle█ · 1/") {
		t.Errorf("/ from the palette did not open the find:\n%s", plain(m))
	}
}
