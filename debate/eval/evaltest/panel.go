package evaltest

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Panel is the behaviour the eval tests script, a known function of the
// request, so a test can work out every figure of a run by hand.
//
// Questions are named by their text; their answers are whole numbers. A
// request reading no transcript (a single or vote answer, a debate's
// blind round 1) is answered right when its model is in Right[question],
// else wrongly with Gold + 1 + the model's index in Models (so wrong
// answers of different models differ). A request reading a transcript
// (a debate's later round) comes from the persona the system prompt names
// ("You are <name>,"): the first two models of Models answer the majority
// of the round before (ties to the first to give it), conforming; any
// later model answers the right one when some persona gave it in the
// round before, else keeps its own answer.
//
// A later round with a stance (the stances arm: "The proposed answer is
// P, the majority…" and "Your stance: FOR|AGAINST|NEUTRAL") goes by the
// stance: FOR answers P; AGAINST keeps its own answer of the round before
// when it is not P, else takes the first answer of the round before (in
// the order read) that is not P, else P; NEUTRAL answers as in a debate.
//
// A ranking request (replies shown under "### Response A" headings)
// ranks the right replies first, then the others by their answer from
// the smallest, ties (and replies with no number, last) in the order
// shown, and ends "FINAL RANKING: C, A, B" (after naming a response in
// passing, which the eval must not read as the ranking).
//
// The moderator (a system prompt starting "You are the moderator")
// answers, when it reads mean positions ("- Panelist 2: mean position
// 1.50"), the last-round answer of the panelist with the lowest (ties to
// the first listed), Verdict not heeded; else Verdict[question] when it
// is set, else the majority of the last round it read (ties to the first
// to give it).
//
// Usage: PromptBase + PerTurn for each turn read and each response shown,
// and Completion.
type Panel struct {
	Gold    map[string]int
	Right   map[string][]string
	Verdict map[string]int
	Models  []string
}

// Panel's usage.
const (
	PromptBase = 20
	PerTurn    = 7
	Completion = 9
)

var (
	speakerRe  = regexp.MustCompile(`You are ([^,]+),`)
	stanceRe   = regexp.MustCompile(`Your stance: (FOR|AGAINST|NEUTRAL)\b`)
	proposalRe = regexp.MustCompile(`The proposed answer is (\S+), the majority`)
	positionRe = regexp.MustCompile(`(?m)^- (.+): mean position ([0-9.]+)`)
)

// Script is the panel as a Script.
func (p Panel) Script() Script {
	return func(r Request) (string, Usage) {
		u := Usage{Prompt: PromptBase + PerTurn*(len(r.Read)+len(r.Responses)), Completion: Completion}
		q, gold, ok := p.question(r.User)
		if !ok {
			return "I do not know this question.\nAnswer: none", u
		}
		idx := -1
		for i, m := range p.Models {
			if m == r.Model {
				idx = i
			}
		}
		var answer int
		switch {
		case len(r.Responses) > 0:
			return rankReply(r.Responses, gold), u
		case strings.HasPrefix(r.System, "You are the moderator") && positionRe.MatchString(r.User):
			answer = topRanked(r)
		case strings.HasPrefix(r.System, "You are the moderator"):
			_, last := lastRound(r.Read)
			answer = majority(last)
			if v, ok := p.Verdict[q]; ok {
				answer = v
			}
		case stanceRe.MatchString(r.User) && proposalRe.MatchString(r.User):
			answer = p.stanced(r, gold, idx)
		case len(r.Read) == 0:
			answer = gold + 1 + idx
			for _, m := range p.Right[q] {
				if m == r.Model {
					answer = gold
				}
			}
		default:
			answer = p.later(r, gold, idx)
		}
		// Hostile formatting the extraction must see through.
		reply := fmt.Sprintf("Let me work it out: 3 steps, 1,000 checks, 12%% doubt.\n\n**Answer:** $%s.", withCommas(answer))
		return reply, u
	}
}

func (p Panel) question(user string) (string, int, bool) {
	for q, g := range p.Gold {
		if strings.Contains(user, q) {
			return q, g, true
		}
	}
	return "", 0, false
}

// lastRound is the turns of the last round read, those whose answer is a
// number, with their answers.
func lastRound(read []Turn) (turns []Turn, answers []int) {
	last := 0
	for _, t := range read {
		last = max(last, t.Round)
	}
	for _, t := range read {
		if t.Round != last {
			continue
		}
		n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimPrefix(t.Answer, "$"), ",", ""))
		if err != nil {
			continue
		}
		turns, answers = append(turns, t), append(answers, n)
	}
	return turns, answers
}

// later answers a debate round after the first.
func (p Panel) later(r Request, gold, idx int) int {
	own := 0
	name := ""
	if m := speakerRe.FindStringSubmatch(r.System); m != nil {
		name = m[1]
	}
	turns, prev := lastRound(r.Read)
	for i, t := range turns {
		if t.Agent == name {
			own = prev[i]
		}
	}
	if idx < 2 {
		return majority(prev)
	}
	for _, n := range prev {
		if n == gold {
			return gold
		}
	}
	return own
}

// number reads an answer as the transcript gives it ("$1,041"); ok is
// false for none.
func number(s string) (int, bool) {
	n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimPrefix(s, "$"), ",", ""))
	return n, err == nil
}

// stanced answers a later round of the stances arm by the speaker's
// stance on the proposal.
func (p Panel) stanced(r Request, gold, idx int) int {
	stance := stanceRe.FindStringSubmatch(r.User)[1]
	proposal, _ := number(proposalRe.FindStringSubmatch(r.User)[1])
	if stance == "FOR" {
		return proposal
	}
	if stance == "NEUTRAL" {
		return p.later(r, gold, idx)
	}
	name := ""
	if m := speakerRe.FindStringSubmatch(r.System); m != nil {
		name = m[1]
	}
	turns, prev := lastRound(r.Read)
	for i, t := range turns {
		if t.Agent == name && prev[i] != proposal {
			return prev[i]
		}
	}
	for _, a := range prev {
		if a != proposal {
			return a
		}
	}
	return proposal
}

// rankReply ranks the responses shown: right ones first, then by answer
// from the smallest, those with no number last, ties in the order shown.
func rankReply(shown []Turn, gold int) string {
	key := func(t Turn) (int, int) {
		n, ok := number(t.Answer)
		switch {
		case !ok:
			return 2, 0
		case n == gold:
			return 0, 0
		}
		return 1, n
	}
	order := make([]int, len(shown))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ka, na := key(shown[order[a]])
		kb, nb := key(shown[order[b]])
		if ka != kb {
			return ka < kb
		}
		return na < nb
	})
	letters := make([]string, len(order))
	for i, k := range order {
		letters[i] = strings.TrimPrefix(shown[k].Agent, "Response ")
	}
	return fmt.Sprintf("Response A makes a case; I weigh each in turn.\n\nFINAL RANKING: %s", strings.Join(letters, ", "))
}

// topRanked is the last-round answer of the panelist the moderator's
// mean positions put first (ties to the first listed).
func topRanked(r Request) int {
	best, bestPos := "", 0.0
	for _, m := range positionRe.FindAllStringSubmatch(r.User, -1) {
		pos, err := strconv.ParseFloat(m[2], 64)
		if err == nil && (best == "" || pos < bestPos) {
			best, bestPos = m[1], pos
		}
	}
	turns, answers := lastRound(r.Read)
	for i, t := range turns {
		if t.Agent == best {
			return answers[i]
		}
	}
	return 0
}

func majority(xs []int) int {
	count := map[int]int{}
	for _, x := range xs {
		count[x]++
	}
	best, bestN := 0, 0
	for _, x := range xs {
		if count[x] > bestN {
			best, bestN = x, count[x]
		}
	}
	return best
}

func withCommas(n int) string {
	s := strconv.Itoa(n)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
