package eval

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// debate runs q through the panel of arm a (debate, rank or stances): in
// round 1 every persona answers blind; in each later round every persona
// reads the whole transcript of the rounds before (all personas of a
// round speak at once, so none reads a turn of its own round) and answers
// again; in the stances arm, from round 2, each argues its stance on the
// proposed answer, the round before's majority. In the rank arm each
// persona then ranks the others' final replies, shown unlabelled. Then
// the moderator reads the question and every reply as written (and the
// rankings) and gives the final answer, which is the debate's.
func (r *runner) debate(ctx context.Context, q Question, a Arm, it *Item) error {
	n, rounds := r.opt.Personas, r.opt.Rounds
	panel := panelOf(n, func(i int) string { return r.model(a, i) }, a.Kind == ArmStances)
	var transcript []debate.Turn
	var posts []room.Post // the room's messages, when rooms are saved
	for round := 1; round <= rounds; round++ {
		read := append([]debate.Turn(nil), transcript...)
		proposal := ""
		if a.Kind == ArmStances {
			if round > 1 {
				proposal = Majority(it.Rounds[round-2])
			}
			it.Proposals = append(it.Proposals, proposal)
		}
		calls := make([]Call, n)
		err := r.parallel(ctx, n, func(ctx context.Context, i int) error {
			info := debate.TurnInfo{
				Purpose: debate.PurposeTurn, Topic: q.Question, Speaker: panel[i], Personas: panel,
				Round: round, Rounds: rounds, Seed: r.opt.Seed, Blind: round == 1, Transcript: read,
			}
			msgs := debateMessages(q, i, n, round, rounds, read)
			if proposal != "" {
				msgs = stanceMessages(q, i, n, round, rounds, read, panel[i].Stance, proposal)
			}
			c, err := r.call(ctx, q, msgs, panel[i].Model, info)
			calls[i] = c
			return err
		})
		if err != nil {
			return err
		}
		for i, c := range calls {
			it.add(c)
			transcript = append(transcript, debate.Turn{Round: round, Agent: panel[i].Name, Model: c.Model, Text: c.Reply})
			posts = append(posts, postOf(panel[i].Name, debate.KindTurn, round, c))
		}
		it.Rounds = append(it.Rounds, answersOf(calls))
	}
	var ranked *peerRanks
	if a.Kind == ArmRank {
		var err error
		if ranked, err = r.rank(ctx, q, panel, transcript, it); err != nil {
			return err
		}
		for i, c := range ranked.calls {
			p := postOf(panel[i].Name, room.KindRanking, rounds, c)
			p.Ranking = ranked.rankings[i].Order
			posts = append(posts, p)
		}
	}
	mod := debate.Persona{Name: ModeratorName, Persona: "the moderator of the panel", Model: r.model(a, 0)}
	info := debate.TurnInfo{
		Purpose: debate.PurposeVerdict, Topic: q.Question, Speaker: mod, Personas: panel,
		Round: rounds, Rounds: rounds, Seed: r.opt.Seed, Transcript: transcript,
	}
	var msgs []debate.Message
	switch a.Kind {
	case ArmRank:
		msgs = rankModeratorMessages(q, panel, transcript, ranked)
	case ArmStances:
		msgs = stanceModeratorMessages(q, panel, transcript)
	default:
		msgs = moderatorMessages(q, n, transcript)
	}
	c, err := r.call(ctx, q, msgs, mod.Model, info)
	if err != nil {
		return err
	}
	it.add(c)
	it.Answer = c.Answer
	it.Correct = it.Answer != "" && it.Answer == q.gold
	if r.opt.RoomsDir != "" {
		posts = append(posts, postOf(room.SeatModerator, room.KindSummary, rounds, c))
		name, err := r.saveRoom(q, a, panel, mod, posts)
		if err != nil {
			return fmt.Errorf("saving the debate's room: %w", err)
		}
		it.Room = name
	}
	return nil
}

// panelOf is the debate arms' panel of n: persona i is PanelistName(i) on
// model(i); with stances, persona i's stance is for, against and
// neutral in turn, as debate.AssignStances gives them out.
func panelOf(n int, model func(int) string, stances bool) []debate.Persona {
	panel := make([]debate.Persona, n)
	for i := range panel {
		panel[i] = debate.Persona{Name: PanelistName(i), Persona: "a panelist answering a question", Model: model(i)}
	}
	if stances {
		panel = debate.AssignStances(panel)
	}
	return panel
}

// peerRanks is what the rank arm's rankings come to.
type peerRanks struct {
	rankings  []Ranking // one per persona, in panel order
	positions []float64 // mean position per persona; 0: not ranked
	counts    []int     // rankings that placed each persona
	calls     []Call    // the ranking calls, in panel order
}

// rank has every persona of panel rank the others' final replies (the
// last round's), shown as Response A, B… in an order shuffled by
// ShownOrder, and reads the rankings into it (Rankings, Positions). Every
// call is charged to it.
func (r *runner) rank(ctx context.Context, q Question, panel []debate.Persona, transcript []debate.Turn, it *Item) (*peerRanks, error) {
	n := len(panel)
	final := transcript[len(transcript)-n:] // the last round, in panel order
	calls := make([]Call, n)
	orders := make([][]int, n)
	err := r.parallel(ctx, n, func(ctx context.Context, i int) error {
		orders[i] = ShownOrder(r.opt.Seed, q.ID, i, n)
		shown := make([]string, len(orders[i]))
		ranked := make([]debate.Turn, len(orders[i]))
		for k, j := range orders[i] {
			shown[k], ranked[k] = final[j].Text, final[j]
		}
		// A ranking request, as roundtable debate --rank makes it: the
		// mock (and any provider that reads Info) ranks rather than
		// argues again.
		info := debate.TurnInfo{
			Purpose: debate.PurposeRank, Topic: q.Question, Speaker: panel[i], Personas: panel,
			Round: r.opt.Rounds, Rounds: r.opt.Rounds, Seed: r.opt.Seed, Transcript: transcript,
			Instruction: rankInstruction, Ranked: ranked,
		}
		c, err := r.call(ctx, q, rankMessages(q, i, n, shown), panel[i].Model, info)
		calls[i] = c
		return err
	})
	if err != nil {
		return nil, err
	}
	pr := &peerRanks{positions: make([]float64, n), counts: make([]int, n), calls: calls}
	given := make([]debate.Ranking, 0, n)
	for i, c := range calls {
		it.add(c)
		rk := Ranking{By: panel[i].Name, Order: []string{}}
		letters := debate.ParseRanking(c.Reply, len(orders[i]))
		rk.Unread = len(letters) == 0
		for _, l := range letters {
			rk.Order = append(rk.Order, panel[orders[i][l]].Name)
		}
		pr.rankings = append(pr.rankings, rk)
		given = append(given, debate.Ranking{Agent: rk.By, Order: rk.Order})
	}
	// Each persona's mean position, as roundtable debate --rank counts it.
	names, at := make([]string, n), make(map[string]int, n)
	for j, p := range panel {
		names[j], at[p.Name] = p.Name, j
	}
	for _, s := range debate.AggregateRankings(given, names) {
		pr.counts[at[s.Name]], pr.positions[at[s.Name]] = s.Rankers, s.Mean
	}
	it.Rankings, it.Positions = pr.rankings, pr.positions
	return pr, nil
}

// ShownOrder is the order persona ranker (from 0) of n sees the others'
// replies in, as indices into the panel: a shuffle seeded by seed, the
// question's id and the ranker, so a rerun shows the same order and no
// persona sits first for every ranker and question.
func ShownOrder(seed int64, questionID string, ranker, n int) []int {
	others := make([]int, 0, max(n-1, 0))
	for j := range n {
		if j != ranker {
			others = append(others, j)
		}
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(questionID)) // a hash's Write never fails
	rng := rand.New(rand.NewPCG(uint64(seed), h.Sum64()^uint64(ranker)))
	rng.Shuffle(len(others), func(a, b int) { others[a], others[b] = others[b], others[a] })
	return others
}

// TopRanked is the persona with the best (lowest) mean position among
// those ranked, ties to the first in panel order; -1 when none was.
func TopRanked(positions []float64) int {
	best := -1
	for j, p := range positions {
		if p > 0 && (best < 0 || p < positions[best]) {
			best = j
		}
	}
	return best
}
