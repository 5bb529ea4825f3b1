package watch

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestDebateRankingsAreNoTurns: a debate that ranked (--rank) counts each
// persona's turns, not its peer ranking.
func TestDebateRankingsAreNoTurns(t *testing.T) {
	cwd := t.TempDir()
	writeRoom(t, cwd, "ranked", room.Config{Room: "ranked", Topic: "T", Mode: room.ModeDebate, Rounds: 1, Agents: []string{"a", "b"}, CreatedAt: at(0), Rank: true}, []fileMsg{
		{1, at(0), "a", "mock", "turn", "a speaks", 1},
		{2, at(0), "b", "mock", "turn", "b speaks", 1},
		{3, at(0), "a", "mock", room.KindRanking, "FINAL RANKING: A", 1},
		{4, at(0), "b", "mock", room.KindRanking, "FINAL RANKING: A", 1},
	}, nil)
	m := openModel(t, cwd, "ranked", 120, 30)
	if f := flat(m); !strings.Contains(f, "a 1 turn") || !strings.Contains(f, "b 1 turn") {
		t.Fatalf("the seats line counts the rankings as turns:\n%s", plain(m))
	}
}

// TestDebateStancesShown: a debate argued with stances (--stances) shows
// each persona's stance beside its turns, on one line however hostile.
func TestDebateStancesShown(t *testing.T) {
	cwd := t.TempDir()
	writeRoom(t, cwd, "stanced", room.Config{
		Room: "stanced", Topic: "T", Mode: room.ModeDebate, Rounds: 1, Agents: []string{"a", "b", "c"}, CreatedAt: at(0),
		Personas: []room.PersonaInfo{{Name: "a", Stance: "for"}, {Name: "b", Stance: "against\n\x1b[2Jevil"}, {Name: "c"}},
	}, []fileMsg{
		{1, at(0), "a", "mock", "turn", "a speaks", 1},
	}, nil)
	m := openModel(t, cwd, "stanced", 120, 30)
	f := flat(m)
	if !strings.Contains(f, "a for · 1 turn") || !strings.Contains(f, "c 0 turns") || strings.Contains(f, "c  ·") {
		t.Fatalf("the seats line does not give each stance (a for, c none):\n%s", plain(m))
	}
	if strings.Contains(m.View(), "\x1b[2J") || !strings.Contains(plain(m), "against") {
		t.Fatalf("a hostile stance reaches the terminal raw:\n%q", m.View())
	}
	for _, line := range strings.Split(plain(m), "\n") {
		if strings.Contains(line, "against") && !strings.Contains(line, "evil") {
			t.Fatalf("a stance with a line break spans lines:\n%s", plain(m))
		}
	}
}
