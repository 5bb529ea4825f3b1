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
