package eval

import (
	"fmt"
	"strings"

	"github.com/roundtable-dev/roundtable/debate"
)

// answerFormat asks for the final line without a worked example: a model
// (or a scripted server) could read "Answer: 42" as an answer already
// given.
func answerFormat(q Question) string {
	s := "End your reply with a last line of the form `Answer: <your answer>`"
	switch KindOf(q) {
	case KindChoice:
		s += ", where <your answer> is the letter of one choice"
	case KindNumber:
		s += ", where <your answer> is a number alone"
	case KindText:
	}
	return s + "."
}

// questionText is q as a model reads it: the question, then its choices
// one a line ("A. text").
func questionText(q Question) string {
	var b strings.Builder
	b.WriteString(q.Question)
	if len(q.Choices) > 0 {
		b.WriteString("\n")
		for i, c := range q.Choices {
			fmt.Fprintf(&b, "\n%s. %s", Letter(i), strings.TrimSpace(c))
		}
	}
	return b.String()
}

// soloMessages ask one answer to q, seeing no other (single and vote).
func soloMessages(q Question) []debate.Message {
	return []debate.Message{
		{Role: debate.RoleSystem, Content: "You answer questions. Work the question out step by step. " + answerFormat(q)},
		{Role: debate.RoleUser, Content: questionText(q)},
	}
}

// soloInfo is what the mock provider writes a single or vote answer from.
func soloInfo(q Question, seed int64) debate.TurnInfo {
	p := debate.Persona{Name: "Solver", Persona: "someone answering a question"}
	return debate.TurnInfo{
		Purpose: debate.PurposeTurn, Topic: q.Question, Speaker: p, Personas: []debate.Persona{p},
		Round: 1, Rounds: 1, Seed: seed, Blind: true,
	}
}

// PanelistName is the name of debate persona i (from 0).
func PanelistName(i int) string { return fmt.Sprintf("Panelist %d", i+1) }

// debateMessages ask persona i of n its answer to q in round (from 1) of
// rounds, having read the turns of the rounds before (none in round 1:
// the opening round is blind).
func debateMessages(q Question, i, n, round, rounds int, read []debate.Turn) []debate.Message {
	sys := fmt.Sprintf("You are %s, one of %d panelists answering a question together over %d rounds. "+
		"Think for yourself: agree with the others only where they convince you. %s",
		PanelistName(i), n, rounds, answerFormat(q))
	var u strings.Builder
	u.WriteString(questionText(q))
	if round == 1 {
		u.WriteString("\n\nRound 1: give your own answer; you have not seen the others' yet.")
	} else {
		fmt.Fprintf(&u, "\n\nThe panel's answers so far:\n\n%s\n\nRound %d of %d: weigh what the others said, then give your answer now.",
			debate.FormatTranscript(read), round, rounds)
	}
	return []debate.Message{
		{Role: debate.RoleSystem, Content: sys},
		{Role: debate.RoleUser, Content: u.String()},
	}
}

// ModeratorName is the name the debate's moderator goes by.
const ModeratorName = "Moderator"

// moderatorMessages ask the moderator of a panel of n for the final answer
// to q, having read every reply of every round as written.
func moderatorMessages(q Question, n int, transcript []debate.Turn) []debate.Message {
	sys := fmt.Sprintf("You are the moderator of a panel of %d who answered a question over several rounds. "+
		"Read their replies, weigh their reasoning rather than counting heads, and give the final answer. %s",
		n, answerFormat(q))
	u := fmt.Sprintf("%s\n\nThe panel's replies:\n\n%s\n\nGive the panel's final answer now.",
		questionText(q), debate.FormatTranscript(transcript))
	return []debate.Message{
		{Role: debate.RoleSystem, Content: sys},
		{Role: debate.RoleUser, Content: u},
	}
}
