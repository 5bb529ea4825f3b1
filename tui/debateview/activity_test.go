package debateview

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/debate"
)

// TestActivityLine: a persona spoken by a coding agent shows, dim under its
// turns, the latest thing its agent did; the next turn starts clean, and
// the moderator's activity makes no column.
func TestActivityLine(t *testing.T) {
	s := newSynth(t, 160, 40)
	defer s.close()
	s.begin(1, "Product Manager", "Reading first.")
	s.events(debate.Event{Type: debate.EventActivity, Round: 1, Agent: "Product Manager", Kind: debate.ActivityTool, Text: "reading room/store.go"})
	s.settle()
	if v := s.view(); !strings.Contains(v, "⚙ reading room/store.go") {
		t.Fatalf("no activity line:\n%s", v)
	}
	s.events(debate.Event{Type: debate.EventActivity, Round: 1, Agent: "Product Manager", Kind: debate.ActivityRefused, Text: "refused: edit main.go"})
	s.settle()
	v := s.view()
	if !strings.Contains(v, "✗ refused: edit main.go") || strings.Contains(v, "reading room/store.go") {
		t.Fatalf("the latest activity only, please:\n%s", v)
	}
	if strings.Contains(s.m.cols[0].turns[0].text+s.m.cols[0].grow.Text(), "refused") {
		t.Fatal("activity went into the turn's text")
	}
	n := len(s.m.cols)
	s.events(debate.Event{Type: debate.EventActivity, Round: 1, Agent: "Moderator", Kind: debate.ActivityTool, Text: "reading go.mod"})
	if len(s.m.cols) != n {
		t.Fatal("the moderator's activity made a column")
	}
	s.events(debate.Event{Type: debate.EventRoundStart, Round: 3}, debate.Event{Type: debate.EventRoundEnd, Round: 3})
	s.settle()
	if v := s.view(); !strings.Contains(v, "The moderator is reading the whole debate") || !strings.Contains(v, "⚙ reading go.mod") {
		t.Fatalf("the awaited verdict does not show the moderator's agent at work:\n%s", v)
	}
	s.events(debate.Event{Type: debate.EventTurnEnd, Round: 1, Agent: "Product Manager", Text: "Reading first."},
		debate.Event{Type: debate.EventTurnStart, Round: 2, Agent: "Product Manager"})
	s.settle()
	if strings.Contains(s.view(), "refused: edit main.go") {
		t.Fatalf("a new turn still shows the last turn's activity:\n%s", s.view())
	}
}
