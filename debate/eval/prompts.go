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

// stanceWords are what each stance asks of a persona, by debate's stance
// names.
var stanceWords = map[string]string{
	debate.StanceFor: "Your stance: FOR. Make the strongest case that the proposed answer is right. " +
		"If you find it wrong beyond doubt, say so and give the answer you believe.",
	debate.StanceAgainst: "Your stance: AGAINST. Look hard for what is wrong with the proposed answer and make the case for another. " +
		"If you find it right beyond doubt, say so and give it.",
	debate.StanceNeutral: "Your stance: NEUTRAL. Weigh the proposed answer on its merits, for and against.",
}

// stanceMessages ask persona i of n, in round (from 2) of the stances arm,
// its answer to q having read the rounds before, arguing stance on
// proposal (the round before's majority).
func stanceMessages(q Question, i, n, round, rounds int, read []debate.Turn, stance, proposal string) []debate.Message {
	msgs := debateMessages(q, i, n, round, rounds, read)
	msgs[1].Content = fmt.Sprintf("%s\n\nThe panel's answers so far:\n\n%s\n\n"+
		"The proposed answer is %s, the majority of round %d. %s\n\n"+
		"Round %d of %d: argue your stance, then give your answer now.",
		questionText(q), debate.FormatTranscript(read), proposal, round-1, stanceWords[stance], round, rounds)
	return msgs
}

// stanceModeratorMessages are moderatorMessages for the stances arm: the
// moderator is told the stances were assigned, not chosen.
func stanceModeratorMessages(q Question, panel []debate.Persona, transcript []debate.Turn) []debate.Message {
	msgs := moderatorMessages(q, len(panel), transcript)
	var stances []string
	for _, p := range panel {
		stances = append(stances, p.Name+" "+p.Stance)
	}
	msgs[0].Content += fmt.Sprintf(" From round 2 each panelist was assigned a stance on the proposed answer (the majority of the round before): %s. "+
		"They argued as told: judge the arguments, not the stances.", strings.Join(stances, ", "))
	return msgs
}

// rankInstruction is what a ranking request asks for now.
const rankInstruction = "Rank the responses now, best first."

// rankMessages ask persona i of n to rank the others' final replies to
// q, shown (in the order given) as Response A, B…, none named.
func rankMessages(q Question, i, n int, shown []string) []debate.Message {
	sys := fmt.Sprintf("You are %s, one of %d panelists who answered a question together. "+
		"Now judge the other panelists' final replies, shown without their names: "+
		"rank them by whether their answer is right and their reasoning sound, best first. "+
		"End your reply with a last line of the form `FINAL RANKING: C, A, B`, naming every response by its letter, best first.",
		PanelistName(i), n)
	var u strings.Builder
	u.WriteString(questionText(q))
	u.WriteString("\n\nThe other panelists' final replies, in no particular order:")
	for k, text := range shown {
		fmt.Fprintf(&u, "\n\n### Response %s\n\n%s", Letter(k), strings.TrimSpace(text))
	}
	u.WriteString("\n\n" + rankInstruction)
	return []debate.Message{
		{Role: debate.RoleSystem, Content: sys},
		{Role: debate.RoleUser, Content: u.String()},
	}
}

// rankModeratorMessages are moderatorMessages for the rank arm: after the
// replies, each persona's ranking of the others, de-anonymised, and each
// persona's mean position.
func rankModeratorMessages(q Question, panel []debate.Persona, transcript []debate.Turn, pr *peerRanks) []debate.Message {
	msgs := moderatorMessages(q, len(panel), transcript)
	msgs[0].Content += " After the last round each panelist ranked the others' final replies, shown without names; " +
		"the rankings are given to you with the names restored. Weigh them as evidence, not as a vote."
	var b strings.Builder
	b.WriteString("\n\nThe peer rankings (best first):\n")
	for _, rk := range pr.rankings {
		if rk.Unread {
			fmt.Fprintf(&b, "\n- %s gave no readable ranking", rk.By)
			continue
		}
		fmt.Fprintf(&b, "\n- %s ranked: %s", rk.By, strings.Join(rk.Order, ", "))
	}
	b.WriteString("\n\nMean position (1 is best), over the rankings that placed each panelist:\n")
	for j, p := range panel {
		if pr.counts[j] == 0 {
			fmt.Fprintf(&b, "\n- %s: not ranked", p.Name)
			continue
		}
		fmt.Fprintf(&b, "\n- %s: mean position %.2f (%s)", p.Name, pr.positions[j], plural(pr.counts[j], "ranking"))
	}
	u := msgs[1].Content
	cut := strings.LastIndex(u, "\n\nGive the panel's final answer now.")
	msgs[1].Content = u[:cut] + b.String() + u[cut:]
	return msgs
}

// plural is n and word, with an s when n is not 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
