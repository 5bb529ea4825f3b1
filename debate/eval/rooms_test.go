package eval_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/eval"
	"github.com/roundtable-dev/roundtable/debate/eval/evaltest"
	"github.com/roundtable-dev/roundtable/room"
)

// TestEvalRooms: each debate arm's item is a room in RoomsDir, a finished
// debate: room.Open gives the panel's turns, round by round, and the
// moderator's reply as the summary; debate.NewRoomReader reads it whole,
// to the end. Vote arms make no room.
func TestEvalRooms(t *testing.T) {
	qs, panel := scripted(t)
	srv := evaltest.New(t, panel.Script())
	arms, _ := eval.ParseArms("single,debate,rank,stances")
	dir := t.TempDir()
	rep, err := eval.Run(context.Background(), eval.Options{
		Questions: qs[:2], Arms: arms, Provider: provider(t, srv.BaseURL()), Models: panel.Models,
		Personas: 3, Rounds: 2, RoomsDir: dir,
	})
	if err != nil {
		t.Fatal(err)
	}
	rooms := 0
	for _, a := range rep.Arms {
		for _, it := range a.Results {
			if a.Name == "single" {
				if it.Room != "" {
					t.Errorf("single made room %q", it.Room)
				}
				continue
			}
			rooms++
			if it.Room != eval.RoomName(a.Name, it.ID) {
				t.Fatalf("%s %s: room %q, want %q", a.Name, it.ID, it.Room, eval.RoomName(a.Name, it.ID))
			}
			r, err := room.Open(dir, it.Room)
			if err != nil {
				t.Fatal(err)
			}
			st, err := r.State()
			if err != nil {
				t.Fatal(err)
			}
			cfg := r.Config()
			if cfg.Mode != room.ModeDebate || cfg.Rounds != 2 || st.Closed == nil {
				t.Errorf("%s: mode %q, %d rounds, closed %v", it.Room, cfg.Mode, cfg.Rounds, st.Closed)
			}
			var got []string
			verdict := ""
			var rankings [][]string
			for _, m := range st.Messages {
				switch m.Kind {
				case room.KindSummary:
					verdict = m.Text
					continue
				case room.KindRanking:
					if verdict != "" {
						t.Errorf("%s: a ranking after the verdict", it.Room)
					}
					rankings = append(rankings, append([]string{m.Seat}, m.Ranking...))
					continue
				}
				got = append(got, fmt.Sprintf("%d %s", m.Round, m.Seat))
			}
			// The rank arm's rooms hold each persona's ranking as the
			// item has it, and say they rank (room.json's rank).
			var wantRankings [][]string
			for _, rk := range it.Rankings {
				wantRankings = append(wantRankings, append([]string{rk.By}, rk.Order...))
			}
			if fmt.Sprint(rankings) != fmt.Sprint(wantRankings) || cfg.Rank != (a.Name == "rank") || (a.Name == "rank") != (len(rankings) == 3) {
				t.Errorf("%s: rankings %v (rank %v), the item's %v", it.Room, rankings, cfg.Rank, wantRankings)
			}
			want := []string{"1 Panelist 1", "1 Panelist 2", "1 Panelist 3", "2 Panelist 1", "2 Panelist 2", "2 Panelist 3"}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: turns %v, want %v", it.Room, got, want)
			}
			if ans, _ := eval.Score(qs[indexOf(qs, it.ID)], verdict); ans != it.Answer || verdict == "" {
				t.Errorf("%s: the summary %q reads %q, the item's answer is %q", it.Room, verdict, ans, it.Answer)
			}
			rr := debate.NewRoomReader(cfg)
			turns, summary, ranked, done := 0, 0, 0, false
			for _, ev := range rr.Read(st, nil) {
				switch ev.Type {
				case debate.EventRanking:
					ranked++
				case debate.EventTurnEnd:
					turns++
				case debate.EventSummary:
					summary++
				case debate.EventDone:
					done = true
				default:
				}
			}
			if turns != 6 || summary != 1 || ranked != len(rankings) || !done || !rr.Ended() {
				t.Errorf("%s read as a debate: %d turns, %d rankings, %d summaries, done %v, ended %v", it.Room, turns, ranked, summary, done, rr.Ended())
			}
		}
	}
	if rooms != 6 {
		t.Errorf("%d rooms, want 6", rooms)
	}
}

func indexOf(qs []eval.Question, id string) int {
	for i, q := range qs {
		if q.ID == id {
			return i
		}
	}
	return -1
}
