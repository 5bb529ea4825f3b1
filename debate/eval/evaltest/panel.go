package evaltest

import (
	"fmt"
	"regexp"
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
// The moderator (a system prompt starting "You are the moderator")
// answers Verdict[question] when it is set, else the majority of the last
// round it read (ties to the first to give it).
//
// Usage: PromptBase + PerTurn for each turn read, and Completion.
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

var speakerRe = regexp.MustCompile(`You are ([^,]+),`)

// Script is the panel as a Script.
func (p Panel) Script() Script {
	return func(r Request) (string, Usage) {
		u := Usage{Prompt: PromptBase + PerTurn*len(r.Read), Completion: Completion}
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
		case strings.HasPrefix(r.System, "You are the moderator"):
			_, last := lastRound(r.Read)
			answer = majority(last)
			if v, ok := p.Verdict[q]; ok {
				answer = v
			}
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
