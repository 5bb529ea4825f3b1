package debate

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// mockTurn writes a persona's turn: an opening or a reply to a named
// earlier speaker, a few concrete points, and a position line.
func mockTurn(info TurnInfo) string {
	p := info.Speaker
	v := voiceFor(p)
	tw := parseTopic(info.Topic)
	rng := newRNG(info.Seed, info.Topic, p.Name, info.Round, "turn")
	path := trajectory(info, p, v)
	pos := path[min(info.Round, len(path)-1)]
	fill := filler(tw, p)

	others := latestByOthers(info.Transcript, p.Name)
	var paras []string
	var target *Turn
	if info.Round <= 1 || len(others) == 0 {
		paras = append(paras, fill(pick(rng, v.openers), "", ""))
		if !info.Blind && len(others) > 0 {
			target = &others[len(others)-1]
			paras = append(paras, reply(rng, v, fill, pos, *target))
		}
	} else {
		target = farthest(others, pos)
		paras = append(paras, reply(rng, v, fill, pos, *target))
		if second := mostRecentExcept(others, target.Agent); second != nil && rng.IntN(2) == 0 {
			paras = append(paras, reply(rng, v, fill, pos, *second))
		}
	}

	n := 2
	if info.Round <= 1 {
		n = 3
	}
	heads := []string{"What I need to see:", "Where I'll be looking:", "Concretely:", "What this has to get right:"}
	if info.Round > 1 {
		heads = []string{"What still needs an answer:", "So, concretely:", "Where that leaves the plan:"}
	}
	var b strings.Builder
	b.WriteString(pick(rng, heads))
	for _, c := range concernsFor(info, p, v, n) {
		b.WriteString("\n- ")
		b.WriteString(fill(c, "", ""))
	}
	paras = append(paras, b.String())

	final := info.Round == info.Rounds && info.Rounds > 1
	switch {
	case final && path[1] != pos && len(others) > 0:
		who := closest(others, pos)
		_, q, ok := parsePosition(who.Text)
		if !ok || q == "" {
			q = pick(rng, quotables(who.Text))
		}
		why := "answered enough of my concerns"
		if pos < path[1] {
			why = "made me more cautious, not less"
		}
		paras = append(paras, fmt.Sprintf("I've moved since round 1, from %s to %s: %s's point, “%s”, %s.",
			posWords[path[1]], posWords[pos], who.Agent, q, why))
	case final:
		paras = append(paras, "I haven't moved since round 1. "+fill(v.demand, "", ""))
	case info.Round <= 1:
		paras = append(paras, fill(v.demand, "", ""))
	}
	paras = append(paras, positionMark+" "+pick(rng, v.positions[pos+1]))
	return strings.Join(paras, "\n\n")
}

// reply answers another speaker: a rebuttal when their position differs
// from pos, an agreement when it matches, quoting their own words.
func reply(rng *rand.Rand, v *voice, fill func(s, other, quote string) string, pos int, t Turn) string {
	theirs, reason, ok := parsePosition(t.Text)
	q := pick(rng, quotables(t.Text))
	tmpl := pick(rng, v.agreements)
	if theirs != pos {
		// A rebuttal answers the stance itself most of the time.
		tmpl = pick(rng, v.rebuttals)
		if ok && reason != "" && rng.IntN(10) < 7 {
			q = reason
		}
	}
	if q == "" {
		q = "we should move carefully"
	}
	return fill(tmpl, t.Agent, q)
}

// filler returns a function that fills a voice template.
func filler(tw topicWords, p Persona) func(s, other, quote string) string {
	desc := strings.TrimSpace(p.Persona)
	if first, _, found := strings.Cut(desc, ". "); found {
		desc = first
	}
	desc = strings.TrimRight(desc, ". ")
	if words := strings.Fields(desc); len(words) > 18 {
		desc = strings.Join(words[:18], " ") + "…"
	}
	desc = describe(p.Name, desc)
	return func(s, other, quote string) string {
		return strings.NewReplacer(
			"{action}", tw.Action, "{gerund}", tw.Gerund, "{Gerund}", upperFirst(tw.Gerund),
			"{thing}", tw.Thing, "{other}", other, "{quote}", quote, "{desc}", desc,
		).Replace(s)
	}
}

// describe makes a persona's description fit "Speaking as {desc}": "a
// finance-minded reviewer..." stays, "carries the pager" becomes "someone
// who carries the pager", and anything else falls back to the name.
func describe(name, desc string) string {
	low := strings.ToLower(desc)
	first, _, _ := strings.Cut(low, " ")
	switch {
	case desc == "":
		return "the " + name
	case first == "a" || first == "an" || first == "the" || first == "someone" || first == "somebody" || first == "one":
		return desc
	case strings.HasSuffix(first, "s") && !strings.HasSuffix(first, "ss"):
		return "someone who " + desc
	}
	return "the " + name
}

// trajectory is a persona's position in each round (index 1..Rounds): it
// starts at the voice's lean (or the persona's stance) and may move one step
// toward agreement per round, now and then hardening instead. It depends on
// the seed, topic and persona only, so every round agrees on it.
func trajectory(info TurnInfo, p Persona, v *voice) []int {
	pos, lo, hi := v.lean, posOppose, posSupport
	switch p.Stance {
	case StanceFor:
		pos, lo = posSupport, posConditional
	case StanceAgainst:
		pos, hi = posOppose, posConditional
	case StanceNeutral:
		pos = posConditional
	}
	rounds := max(info.Rounds, info.Round, 1)
	path := make([]int, rounds+1)
	path[0], path[1] = pos, pos
	rng := newRNG(info.Seed, info.Topic, p.Name, "path")
	for r := 2; r <= rounds; r++ {
		roll := rng.IntN(100)
		switch {
		case roll < v.flex && pos < hi:
			pos++
		case roll >= 92 && pos > lo:
			pos--
		}
		path[r] = pos
	}
	return path
}

// concernsFor picks n of the voice's concerns for this round, different
// from the ones the persona raised in earlier rounds.
func concernsFor(info TurnInfo, p Persona, v *voice, n int) []string {
	rng := newRNG(info.Seed, info.Topic, p.Name, "concerns")
	order := rng.Perm(len(v.concerns))
	start := 0
	for r := 1; r < info.Round; r++ {
		if r <= 1 {
			start += 3
		} else {
			start += 2
		}
	}
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, v.concerns[order[(start+i)%len(order)]])
	}
	return out
}

// latestByOthers is the latest turn of every other speaker, in the order
// those turns were spoken.
func latestByOthers(ts []Turn, self string) []Turn {
	latest := map[string]int{}
	for i, t := range ts {
		if t.Agent != self {
			latest[t.Agent] = i
		}
	}
	var out []Turn
	for i, t := range ts {
		if j, ok := latest[t.Agent]; ok && j == i {
			out = append(out, t)
		}
	}
	return out
}

// farthest is the turn whose position is farthest from pos, the most
// recent one on a tie.
func farthest(ts []Turn, pos int) *Turn {
	best, bestD := len(ts)-1, -1
	for i := len(ts) - 1; i >= 0; i-- {
		theirs, _, _ := parsePosition(ts[i].Text)
		if d := abs(theirs - pos); d > bestD {
			best, bestD = i, d
		}
	}
	return &ts[best]
}

// closest is the most recent turn whose position is nearest pos.
func closest(ts []Turn, pos int) *Turn {
	best, bestD := len(ts)-1, 3
	for i := len(ts) - 1; i >= 0; i-- {
		theirs, _, _ := parsePosition(ts[i].Text)
		if d := abs(theirs - pos); d < bestD {
			best, bestD = i, d
		}
	}
	return &ts[best]
}

func mostRecentExcept(ts []Turn, agent string) *Turn {
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i].Agent != agent {
			return &ts[i]
		}
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
