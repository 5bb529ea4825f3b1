package eval

import (
	"context"

	"github.com/roundtable-dev/roundtable/debate"
)

// debate runs q through the panel: in round 1 every persona answers blind;
// in each later round every persona reads the whole transcript of the
// rounds before (all personas of a round speak at once, so none reads a
// turn of its own round) and answers again. Then the moderator reads the
// question and every reply as written and gives the final answer, which
// is the debate's.
func (r *runner) debate(ctx context.Context, q Question, it *Item) error {
	n, rounds := r.opt.Personas, r.opt.Rounds
	panel := make([]debate.Persona, n)
	for i := range panel {
		panel[i] = debate.Persona{Name: PanelistName(i), Persona: "a panelist answering a question", Model: r.model(i)}
	}
	var transcript []debate.Turn
	for round := 1; round <= rounds; round++ {
		read := append([]debate.Turn(nil), transcript...)
		calls := make([]Call, n)
		err := r.parallel(ctx, n, func(ctx context.Context, i int) error {
			info := debate.TurnInfo{
				Purpose: debate.PurposeTurn, Topic: q.Question, Speaker: panel[i], Personas: panel,
				Round: round, Rounds: rounds, Seed: r.opt.Seed, Blind: round == 1, Transcript: read,
			}
			c, err := r.call(ctx, q, debateMessages(q, i, n, round, rounds, read), panel[i].Model, info)
			calls[i] = c
			return err
		})
		if err != nil {
			return err
		}
		for i, c := range calls {
			it.add(c)
			transcript = append(transcript, debate.Turn{Round: round, Agent: panel[i].Name, Model: c.Model, Text: c.Reply})
		}
		it.Rounds = append(it.Rounds, answersOf(calls))
	}
	mod := debate.Persona{Name: ModeratorName, Persona: "the moderator of the panel", Model: r.model(0)}
	info := debate.TurnInfo{
		Purpose: debate.PurposeVerdict, Topic: q.Question, Speaker: mod, Personas: panel,
		Round: rounds, Rounds: rounds, Seed: r.opt.Seed, Transcript: transcript,
	}
	c, err := r.call(ctx, q, moderatorMessages(q, n, transcript), mod.Model, info)
	if err != nil {
		return err
	}
	it.add(c)
	it.Answer = c.Answer
	it.Correct = it.Answer != "" && it.Answer == q.gold
	return nil
}
