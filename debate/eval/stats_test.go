package eval

import (
	"math"
	"reflect"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 5e-5 }

func TestEvalWilson(t *testing.T) {
	cases := []struct {
		k, n   int
		lo, hi float64
	}{
		{8, 10, 0.4902, 0.9433},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{50, 100, 0.4038, 0.5962},
		{0, 0, 0, 0},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.k, c.n)
		if !near(lo, c.lo) || !near(hi, c.hi) {
			t.Errorf("Wilson(%d, %d) = %.4f–%.4f, want %.4f–%.4f", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestEvalMcNemar(t *testing.T) {
	cases := []struct {
		b, c int
		p    float64
	}{
		{0, 0, 1},
		{1, 9, 22.0 / 1024},   // 2·(C(10,0)+C(10,1))/2^10
		{9, 1, 22.0 / 1024},   // symmetric
		{0, 6, 2.0 / 64},      // 2·1/2^6
		{3, 10, 756.0 / 8192}, // 2·(1+13+78+286)/2^13
		{5, 5, 1},             // capped at 1
		{0, 1, 1},             // one discordant pair proves nothing
		{20, 80, 1.1159e-09},  // large n: log-space sums
	}
	for _, c := range cases {
		p := McNemar(c.b, c.c)
		if math.Abs(p-c.p) > 1e-6*math.Max(c.p, 1e-6) {
			t.Errorf("McNemar(%d, %d) = %.10g, want %.10g", c.b, c.c, p, c.p)
		}
	}
}

func TestEvalInterpolate(t *testing.T) {
	pts := []Point{{"vote:5", 500, 0.8}, {"single", 100, 0.5}, {"vote:3", 300, 0.7}}
	cases := []struct {
		at     float64
		acc    float64
		lo, hi string
		ok     bool
	}{
		{200, 0.6, "single", "vote:3", true},
		{400, 0.75, "vote:3", "vote:5", true},
		{300, 0.7, "vote:3", "vote:3", true},
		{100, 0.5, "single", "single", true},
		{99, 0, "", "", false},
		{501, 0, "", "", false},
	}
	for _, c := range cases {
		acc, lo, hi, ok := Interpolate(pts, c.at)
		if ok != c.ok || !near(acc, c.acc) || lo.Arm != c.lo || hi.Arm != c.hi {
			t.Errorf("Interpolate at %v = %v %s %s %v, want %v %s %s %v", c.at, acc, lo.Arm, hi.Arm, ok, c.acc, c.lo, c.hi, c.ok)
		}
	}
	if _, _, _, ok := Interpolate(pts[:1], 200); ok {
		t.Error("one point: nothing to interpolate")
	}
}

func TestEvalMajorityTieRule(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"B", "A", "A", "B"}, "B"}, // a tie: the first to appear
		{[]string{"A", "B", "B"}, "B"},
		{[]string{"A", "B", "C"}, "A"},
		{[]string{"", "", "C"}, "C"}, // no answer is no vote
		{[]string{"", "7", "", "9", "9"}, "9"},
		{[]string{"", ""}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		if got := Majority(c.in); got != c.want {
			t.Errorf("Majority(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEvalDebateStats(t *testing.T) {
	items := []Item{
		{ID: "1", Expected: "1", Rounds: [][]string{{"1", "2", "2"}, {"2", "2", "1"}}},
		{ID: "2", Expected: "5", Rounds: [][]string{{"4", "4", "5"}, {"4", "5", "5"}, {"5", "5", "5"}}},
		{ID: "3", Expected: "9", Correct: true, Rounds: [][]string{{"", "7", "9"}, {"7", "7", "9"}}},
		{ID: "4", Expected: "0", Rounds: [][]string{{"1", "1", "1"}, {"1", "1", "1"}}},
	}
	d := DebateStats(items)
	want := Debate{
		Items: 4, Oracle: 3, OracleAccuracy: 0.75, Moderator: 1, LastMajority: 1, // item 3's moderator; item 2's round 3
		Rounds: []RoundStat{
			{Round: 1, Right: 3},
			{Round: 2, Right: 4, MajorityRight: 1, RightToWrong: 1, WrongToRight: 2, Changed: 4, ToMajority: 2, Conformity: 0.5},
			{Round: 3, Right: 3, MajorityRight: 1, WrongToRight: 1, Changed: 1, ToMajority: 1, Conformity: 1},
		},
		Changed: 5, ToMajority: 3, Conformity: 0.6,
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("DebateStats =\n%+v\nwant\n%+v", d, want)
	}
}

func TestEvalPairsAndBudget(t *testing.T) {
	mk := func(arm Arm, tokens int, right ...bool) ArmResult {
		ar := ArmResult{Name: arm.Name, arm: arm}
		for i, r := range right {
			ar.Results = append(ar.Results, Item{ID: string(rune('a' + i)), Correct: r, Tokens: tokens, Calls: 1})
		}
		ar.tally()
		return ar
	}
	arms := []ArmResult{
		mk(Arm{Name: "single", Kind: ArmSingle, K: 1}, 10, true, false, false, false),
		mk(Arm{Name: "vote:5", Kind: ArmVote, K: 5}, 50, true, true, true, false),
		mk(Arm{Name: "debate", Kind: ArmDebate}, 20, false, true, false, false),
	}
	pairs := Pairs(arms)
	want := []Pair{
		{A: "single", B: "vote:5", Items: 4, AOnly: 0, BOnly: 2, P: 0.5},
		{A: "single", B: "debate", Items: 4, AOnly: 1, BOnly: 1, P: 1},
		{A: "vote:5", B: "debate", Items: 4, AOnly: 2, BOnly: 0, P: 0.5},
	}
	if !reflect.DeepEqual(pairs, want) {
		t.Errorf("Pairs = %+v\nwant %+v", pairs, want)
	}
	bs := EqualBudget(arms)
	// The debate's 20 tokens lie a quarter of the way from single (10,
	// 0.25) to vote:5 (50, 0.75): 0.375.
	if len(bs) != 1 {
		t.Fatalf("EqualBudget = %+v, want one for the debate", bs)
	}
	if b := bs[0]; b.Arm != "debate" || !b.InRange || !near(b.VoteAccuracy, 0.375) || b.Below != "single" || b.Above != "vote:5" || !near(b.DebateAccuracy, 0.25) {
		t.Errorf("EqualBudget = %+v", b)
	}
	arms[2] = mk(Arm{Name: "debate", Kind: ArmDebate}, 60, true, true, true, true)
	if b := EqualBudget(arms); len(b) != 1 || b[0].InRange {
		t.Errorf("a debate beyond the vote arms' tokens: %+v, want out of range", b)
	}
	if b := EqualBudget(arms[:2]); b != nil {
		t.Errorf("no debate: %+v", b)
	}
}
