package eval

import (
	"math"
	"sort"
)

// z95 is the normal quantile of a two-sided 95 % interval.
const z95 = 1.959963984540054

// Wilson is the 95 % Wilson score interval of k successes in n trials;
// (0, 0) when n is 0.
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 0
	}
	p, nf := float64(k)/float64(n), float64(n)
	z2 := z95 * z95
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return math.Max(0, center-half), math.Min(1, center+half)
}

// McNemar is the two-sided exact McNemar test on paired outcomes: b items
// the first arm got right and the second wrong, c the other way round. The
// p-value is twice the binomial(b+c, 1/2) tail at min(b, c), at most 1; 1
// when there is no discordant pair.
func McNemar(b, c int) float64 {
	n := b + c
	if n == 0 {
		return 1
	}
	k := min(b, c)
	tail := 0.0
	for i := 0; i <= k; i++ {
		tail += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
	}
	return math.Min(1, 2*tail)
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// Point is an arm's accuracy at its tokens per question.
type Point struct {
	Arm      string  `json:"arm"`
	Tokens   float64 `json:"tokens_per_question"`
	Accuracy float64 `json:"accuracy"`
}

// Interpolate reads the curve through pts (sorted by tokens here) at
// tokens, linearly between the two points around it. ok is false when
// tokens lies outside the points' range (nothing is extrapolated) or there
// are fewer than two points, unless tokens equals a point's. Where points
// share a token count their accuracies are averaged.
func Interpolate(pts []Point, tokens float64) (acc float64, lo, hi Point, ok bool) {
	ps := append([]Point(nil), pts...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Tokens < ps[j].Tokens })
	for _, p := range ps {
		if p.Tokens == tokens {
			sum, n := 0.0, 0
			for _, q := range ps {
				if q.Tokens == tokens {
					sum += q.Accuracy
					n++
				}
			}
			return sum / float64(n), p, p, true
		}
	}
	for i := 1; i < len(ps); i++ {
		a, b := ps[i-1], ps[i]
		if a.Tokens < tokens && tokens < b.Tokens {
			f := (tokens - a.Tokens) / (b.Tokens - a.Tokens)
			return a.Accuracy + f*(b.Accuracy-a.Accuracy), a, b, true
		}
	}
	return 0, Point{}, Point{}, false
}

// Majority is the answer most of answers give, empty answers not counted;
// a tie goes to the tied answer that comes first in answers. "" when every
// answer is empty.
func Majority(answers []string) string {
	count := map[string]int{}
	best, bestN := "", 0
	for _, a := range answers {
		if a == "" {
			continue
		}
		count[a]++
	}
	for _, a := range answers {
		if a != "" && count[a] > bestN {
			best, bestN = a, count[a]
		}
	}
	return best
}
