package debate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// mockRank writes a persona's peer ranking of info.Ranked: a line on each
// response, best first, then the FINAL RANKING line. A response scores
// higher the closer its position is to the ranker's own last one, and the
// more it gives to quote; the seed breaks the rest, so the same debate
// ranks the same.
func mockRank(info TurnInfo) string {
	if len(info.Ranked) == 0 {
		return "There is nothing to rank: nobody else spoke.\n\nFINAL RANKING: none"
	}
	rng := newRNG(info.Seed, info.Topic, info.Speaker.Name, info.Round, "rank")
	own := posConditional
	for _, t := range info.Transcript {
		if t.Agent == info.Speaker.Name {
			if class, _, ok := parsePosition(t.Text); ok {
				own = class
			}
		}
	}
	type scored struct {
		i     int
		score float64
		quote string
	}
	rs := make([]scored, len(info.Ranked))
	for i, t := range info.Ranked {
		class, _, _ := parsePosition(t.Text)
		qs := quotables(t.Text)
		s := scored{i: i, score: rng.Float64()*1.5 - float64(abs(class-own))}
		if len(qs) > 0 {
			s.quote = pick(rng, qs)
			s.score += 0.5
		}
		rs[i] = s
	}
	slices.SortStableFunc(rs, func(a, b scored) int { return cmp.Compare(b.score, a.score) })

	best := []string{"makes the strongest case", "is the most concrete", "argues it best"}
	mid := []string{"is sound but leaves a cost open", "makes a fair point without the numbers behind it", "names the risk but not what to do about it"}
	worst := []string{"asserts more than it shows", "answers the objections least", "is the weakest on evidence"}
	var b strings.Builder
	letters := make([]string, len(rs))
	for k, s := range rs {
		letters[k] = responseLetter(s.i)
		words := mid
		switch {
		case k == 0:
			words = best
		case k == len(rs)-1 && len(rs) > 1:
			words = worst
		}
		fmt.Fprintf(&b, "**%s** %s", ResponseLabel(s.i), pick(rng, words))
		if s.quote != "" {
			fmt.Fprintf(&b, ": “%s”", s.quote)
		}
		b.WriteString(".\n\n")
	}
	fmt.Fprintf(&b, "FINAL RANKING: %s", strings.Join(letters, ", "))
	return b.String()
}
