package debateview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// rankSynth is liveSynth's debate in a room that ranks, its rounds over:
// the personas are about to rank each other.
func rankSynth(t *testing.T, w, h int) *synth {
	s := newSynth(t, w, h)
	r, _, err := room.Create(s.m.launch.Cwd, "ranked-room", room.CreateOptions{
		Topic: s.m.launch.Config.Topic, Budget: 1, Mode: room.ModeDebate, Agents: panel, Rounds: 1, Rank: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.m.room = r
	s.events(debate.Event{Type: debate.EventSessionStart, Topic: "Should we adopt GraphQL for the public API", Agents: panel, Rounds: 1, Provider: "mock"},
		debate.Event{Type: debate.EventRoundStart, Round: 1})
	for _, p := range panel {
		s.speak(1, p, turnText(p, 1))
	}
	s.events(debate.Event{Type: debate.EventRoundEnd, Round: 1})
	return s
}

// rankEvent is persona i's ranking of the others, in the order given.
func rankEvent(i int, order ...string) debate.Event {
	return debate.Event{
		Type: debate.EventRanking, Round: 1, Agent: panel[i], Model: "mock", Ranking: order,
		Text:  "Response A is best.\n\nFINAL RANKING: A, B",
		Usage: &debate.Usage{PromptTokens: 50, CompletionTokens: 10},
	}
}

func TestRankingTableInTheVerdictPane(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{60, 24}, {80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			s := rankSynth(t, sz.w, sz.h)
			s.settle()
			v := s.view()
			if !strings.Contains(flat(v), "The panel is ranking each other's final turns") || !strings.Contains(flat(v), "(0 of 3 in)") {
				t.Fatalf("the pane does not say the panel is ranking:\n%s", v)
			}
			if strings.Contains(v, debate.RankTableHeader) {
				t.Fatalf("a table before any ranking:\n%s", v)
			}

			s.events(rankEvent(0, panel[2], panel[1]))
			s.settle()
			v = s.view()
			if !strings.Contains(v, debate.RankTableHeader) || !strings.Contains(flat(v), "(1 of 3 in)") {
				t.Fatalf("after one ranking:\n%s", v)
			}

			s.events(rankEvent(1, panel[2], panel[0]), rankEvent(2, panel[1], panel[0]))
			s.settle()
			v = s.view()
			// Security Reviewer 1.0 (2), Software Architect 1.5 (2), Product Manager 2.0 (2).
			rows := tableRows(v)
			want := []struct{ name, mean string }{{"Security", "1.0"}, {"Software", "1.5"}, {"Product", "2.0"}}
			if len(rows) != 3 {
				t.Fatalf("table rows %q in:\n%s", rows, v)
			}
			for i, w := range want {
				if !strings.Contains(rows[i], fmt.Sprintf("%d. ", i+1)) || !strings.Contains(rows[i], w.name) || !strings.Contains(rows[i], w.mean) {
					t.Errorf("row %d is %q, want %s at %s", i+1, rows[i], w.name, w.mean)
				}
				if sz.w >= 80 && !strings.Contains(rows[i], "2 rankers") {
					t.Errorf("row %d is %q, without its rankers", i+1, rows[i])
				}
			}
			if strings.Contains(flat(v), "The panel is ranking") || !strings.Contains(flat(v), "writing the verdict") {
				t.Errorf("every ranking is in, and the moderator is writing:\n%s", v)
			}
			narrow(t, s.m, sz.w)
			if sz.w == 120 {
				golden(t, fmt.Sprintf("ranked-%dx%d", sz.w, sz.h), v)
			}

			// The verdict comes under the table, which stays.
			verdict := "**Decision:** adopt it for new endpoints."
			s.events(debate.Event{Type: debate.EventSummary, Round: 1, Text: verdict, Model: "mock"})
			s.settle()
			v = s.view()
			if !strings.Contains(v, debate.RankTableHeader) || !strings.Contains(v, "adopt it for new endpoints") ||
				strings.Index(v, debate.RankTableHeader) > strings.Index(v, "adopt it for new endpoints") {
				t.Errorf("the table and the verdict:\n%s", v)
			}
		})
	}
}

func TestRankingCountsInTheRankersUsage(t *testing.T) {
	s := rankSynth(t, 120, 40)
	before := s.m.acct.per[panel[0]]
	s.events(rankEvent(0, panel[1], panel[2]))
	after := s.m.acct.per[panel[0]]
	if after.PromptTokens != before.PromptTokens+50 || after.CompletionTokens != before.CompletionTokens+10 {
		t.Errorf("%s's usage went from %+v to %+v", panel[0], before, after)
	}
}

// tableRows are the view's lines of the ranking table's rows.
func tableRows(v string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(v, "\n") {
		switch {
		case strings.Contains(l, debate.RankTableHeader):
			in = true
		case in && strings.Contains(l, ". "):
			out = append(out, l)
		case in:
			return out
		}
	}
	return out
}

// flat is v with its white space run together, so a message wrapped
// across lines reads as one.
func flat(v string) string {
	var b strings.Builder
	for _, l := range strings.Split(v, "\n") {
		l = strings.Trim(l, "│ ")
		b.WriteString(strings.Join(strings.Fields(l), " "))
		b.WriteString(" ")
	}
	return b.String()
}

func TestRankRowsFit(t *testing.T) {
	ss := []debate.RankStanding{
		{Name: "A persona with a remarkably long name indeed", Mean: 1.5, Rankers: 2},
		{Name: "SRE", Mean: 2, Rankers: 12},
		{Name: "Nobody ranked me", Rankers: 0},
		{Name: "\x1b[31mred\x1b[0m\nnewline", Mean: 3, Rankers: 1},
	}
	for w := 10; w <= 100; w++ {
		rows := rankRows(ss, w)
		meanAt := -1
		for i, r := range rows {
			line := r.place + r.name + r.gap + r.mean + r.count
			if ansi.StringWidth(line) > w {
				t.Errorf("width %d: row %d is %d cells: %q", w, i, ansi.StringWidth(line), line)
			}
			if strings.ContainsAny(line, "\x1b\n") {
				t.Errorf("width %d: row %d carries a control character: %q", w, i, line)
			}
			at := ansi.StringWidth(r.place + r.name + r.gap)
			if meanAt >= 0 && at != meanAt {
				t.Errorf("width %d: the means are not aligned: %q", w, line)
			}
			meanAt = at
		}
		if got := rows[2].mean; strings.TrimSpace(got) != "–" {
			t.Errorf("width %d: an unranked persona's mean %q", w, got)
		}
		if w >= 80 && (rows[0].name != ss[0].Name || rows[1].count != "  12 rankers" || rows[3].count != "  1 ranker") {
			t.Errorf("width %d: rows %+v", w, rows)
		}
		if w == 40 && !strings.HasSuffix(rows[0].name, "…") {
			t.Errorf("width 40: a long name is not cut: %q", rows[0].name)
		}
	}
}
