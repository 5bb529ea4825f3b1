package eval_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/eval"
	"github.com/roundtable-dev/roundtable/debate/eval/evaltest"
)

// scripted is six questions whose answers 1,010 to 1,060 the panel's
// three models know as below (see evaltest.Panel for what they do).
func scripted(t *testing.T) ([]eval.Question, evaltest.Panel) {
	t.Helper()
	models := []string{"m1", "m2", "m3"}
	right := map[int][]string{
		1: {"m1", "m2", "m3"},
		2: {"m1"},
		3: {"m2", "m3"},
		4: {},
		5: {"m2"},
		6: {"m1", "m2"},
	}
	var lines strings.Builder
	p := evaltest.Panel{Gold: map[string]int{}, Right: map[string][]string{}, Models: models}
	for i := 1; i <= 6; i++ {
		text := fmt.Sprintf("How many widgets are in crate number %d?", i)
		fmt.Fprintf(&lines, `{"id":"q%d","question":%q,"answer":"%d"}`+"\n", i, text, 1000+10*i)
		p.Gold[text] = 1000 + 10*i
		p.Right[text] = right[i]
	}
	qs, err := eval.ParseQuestions(strings.NewReader(lines.String()), "scripted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return qs, p
}

func provider(t *testing.T, baseURL string) debate.Provider {
	t.Helper()
	pc, err := debate.ResolveProvider(debate.ProviderConfig{Name: "openai", BaseURL: baseURL, Model: "m1"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	p, err := debate.NewProvider(pc)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEvalScriptedArms runs every arm against the scripted panel and
// checks the report against figures the test works out itself from
// evaltest.Panel's rules: the first answers and the debate's second round
// are written out below by hand; the stances arm's second round, the peer
// rankings, the votes, the moderators, the accuracies, tokens, flips,
// conformity, pairs and the equal-budget readings are computed here from
// them, by code of the test's own.
//
// First answers (model: answer; gold 1010·i): q1 all right; q2 m1 right,
// m2 1022, m3 1023; q3 m1 1031, m2 and m3 right; q4 1041, 1042, 1043; q5
// 1051, right, 1053; q6 m1 and m2 right, m3 1063. Debate round 2:
// Panelists 1 and 2 take round 1's majority, Panelist 3 the right answer
// when round 1 had it, else its own. The moderator answers the last
// round's majority, but is scripted to answer 1012 on q1 (wrong against a
// right panel) and 1050 on q5 (right against a wrong majority), so the
// debate's answer is seen to be the moderator's. The rank arm's rounds
// are the debate's; its moderator answers the top-ranked panelist's. The
// stances arm's Panelist 1 argues for the proposal, 2 against, 3 is
// neutral.
func TestEvalScriptedArms(t *testing.T) {
	qs, panel := scripted(t)
	panel.Verdict = map[string]int{qs[0].Question: 1012, qs[4].Question: 1050}
	srv := evaltest.New(t, panel.Script())
	arms, err := eval.ParseArms("single,vote:3,vote:5,vote:9,vote:11,debate,rank,stances")
	if err != nil {
		t.Fatal(err)
	}
	var progress syncBuffer
	rep, err := eval.Run(context.Background(), eval.Options{
		Questions: qs, Arms: arms, Provider: provider(t, srv.BaseURL()), Models: panel.Models,
		Personas: 3, Rounds: 2, Concurrency: 4, Progress: &progress,
	})
	if err != nil {
		t.Fatal(err)
	}

	gold := []int{1010, 1020, 1030, 1040, 1050, 1060}
	first := [][]int{ // by model m1 m2 m3
		{1010, 1010, 1010},
		{1020, 1022, 1023},
		{1031, 1030, 1030},
		{1041, 1042, 1043},
		{1051, 1050, 1053},
		{1060, 1060, 1063},
	}
	second := [][]int{ // by panelist 1 2 3
		{1010, 1010, 1010},
		{1020, 1020, 1020},
		{1030, 1030, 1030},
		{1041, 1041, 1043},
		{1051, 1051, 1050},
		{1060, 1060, 1060},
	}
	verdict := map[int]int{0: 1012, 4: 1050}

	// The stances arm's round 2, by the stances the arm hands out (for,
	// against, neutral) and the panel's rule for each.
	stanced := make([][]int, len(gold))
	for q := range gold {
		prop := majorityOf(first[q])
		for p := range 3 {
			var a int
			switch p {
			case 0: // for
				a = prop
			case 1: // against: its own when not the proposal, else the first other
				a = prop
				if first[q][p] != prop {
					a = first[q][p]
				} else {
					for _, x := range first[q] {
						if x != prop {
							a = x
							break
						}
					}
				}
			case 2: // neutral: as in the debate (m3's rule)
				a = second[q][p]
			}
			stanced[q] = append(stanced[q], a)
		}
	}
	// The rank arm's rankings: each panelist ranks the two others' round-2
	// answers, right first, then the smaller answer first. Ties between
	// equal answers fall in the order shown, which the test does not
	// know: it works the mean positions out with ties broken both ways
	// and needs the top-ranked answer to be the same.
	rankOf := func(q, ranker int, reverse bool) []int {
		var others []int
		for j := range 3 {
			if j != ranker {
				others = append(others, j)
			}
		}
		if reverse {
			slices.Reverse(others)
		}
		key := func(j int) int {
			if second[q][j] == gold[q] {
				return 0
			}
			return second[q][j]
		}
		slices.SortStableFunc(others, func(a, b int) int { return key(a) - key(b) })
		return others
	}
	topAnswer := func(q int, reverse bool) int {
		sum, n := make([]int, 3), make([]int, 3)
		for ranker := range 3 {
			for pos, j := range rankOf(q, ranker, reverse) {
				sum[j] += pos + 1
				n[j]++
			}
		}
		best := 0
		for j := 1; j < 3; j++ {
			if sum[j]*n[best] < sum[best]*n[j] {
				best = j
			}
		}
		return second[q][best]
	}
	ranked := map[int]int{}
	for q := range gold {
		ranked[q] = topAnswer(q, false)
		if topAnswer(q, true) != ranked[q] {
			t.Fatalf("the test's scripted rankings on q%d depend on the order shown", q+1)
		}
	}

	solo := evaltest.PromptBase + evaltest.Completion // a call reading nothing
	later := solo + 3*evaltest.PerTurn                // a round-2 turn reads round 1
	ranking := solo + 2*evaltest.PerTurn              // a ranking reads the two others' replies
	moderator := solo + 6*evaltest.PerTurn            // the moderator reads both rounds
	lastRounds := map[string][][]int{"debate": second, "rank": second, "stances": stanced}
	type want struct{ correct, calls, tokens, prompt int }
	wants := map[string]want{}
	right := map[string][]bool{} // by arm, by question
	for _, a := range arms {
		var w want
		for q := range gold {
			var answer int
			switch a.Kind {
			case eval.ArmDebate, eval.ArmStances:
				answer = majorityOf(lastRounds[a.Name][q])
				if v, ok := verdict[q]; ok {
					answer = v
				}
				w.calls += 7
				w.tokens += 3*solo + 3*later + moderator
				w.prompt += 3*solo + 3*later + moderator - 7*evaltest.Completion
			case eval.ArmRank:
				answer = ranked[q]
				w.calls += 10
				w.tokens += 3*solo + 3*later + 3*ranking + moderator
				w.prompt += 3*solo + 3*later + 3*ranking + moderator - 10*evaltest.Completion
			default:
				var samples []int
				for k := range a.K {
					samples = append(samples, first[q][k%3])
				}
				answer = majorityOf(samples)
				w.calls += a.K
				w.tokens += a.K * solo
				w.prompt += a.K * evaltest.PromptBase
			}
			right[a.Name] = append(right[a.Name], answer == gold[q])
			if answer == gold[q] {
				w.correct++
			}
		}
		wants[a.Name] = w
	}
	requests := 0
	results := map[string]eval.ArmResult{}
	for _, a := range rep.Arms {
		results[a.Name] = a
		w := wants[a.Name]
		requests += w.calls
		if a.Items != 6 || a.Correct != w.correct || a.Calls != w.calls || a.Tokens != w.tokens || a.PromptTokens != w.prompt ||
			a.CompletionTokens != w.calls*evaltest.Completion || a.EstimatedCalls != 0 {
			t.Errorf("%s: %d/%d right, %d calls, %d tokens (%d prompt, %d completion, %d estimated calls); want %d/6, %d calls, %d tokens (%d prompt)",
				a.Name, a.Correct, a.Items, a.Calls, a.Tokens, a.PromptTokens, a.CompletionTokens, a.EstimatedCalls, w.correct, w.calls, w.tokens, w.prompt)
		}
		if math.Abs(a.Accuracy-float64(w.correct)/6) > 1e-9 {
			t.Errorf("%s: accuracy %v", a.Name, a.Accuracy)
		}
	}
	if got := len(srv.Requests()); got != requests {
		t.Errorf("%d requests reached the server, want %d", got, requests)
	}
	if wants["debate"].correct != 4 || !right["debate"][4] || right["debate"][0] {
		t.Fatalf("the test's own reckoning of the debate is off: %+v %v", wants["debate"], right["debate"])
	}
	if wants["rank"].correct == wants["debate"].correct || fmt.Sprint(stanced) == fmt.Sprint(second) {
		t.Fatalf("the test's rank and stances arms should differ from the debate: rank %+v, stances' round 2 %v", wants["rank"], stanced)
	}
	single, deb := results["single"], results["debate"]
	if strings.Join(single.Models, ",") != "m1" || single.Results[4].Answer != "1051" {
		t.Errorf("single: models %v, q5 answer %q", single.Models, single.Results[4].Answer)
	}
	if deb.Results[0].Answer != "1012" || deb.Results[4].Answer != "1050" {
		t.Errorf("the debate's answers on q1 and q5 are %q and %q, not the moderator's 1012 and 1050", deb.Results[0].Answer, deb.Results[4].Answer)
	}

	// The items keep each arm's rounds; the stances arm's proposals; the
	// rank arm's rankings, de-anonymised, and mean positions.
	for q := range gold {
		for name, last := range lastRounds {
			it := results[name].Results[q]
			if fmt.Sprint(it.Rounds) != fmt.Sprint(toStrings(first[q], last[q])) {
				t.Errorf("%s q%d: rounds %v, want %v then %v", name, q+1, it.Rounds, first[q], last[q])
			}
		}
		if it := results["stances"].Results[q]; fmt.Sprint(it.Proposals) != fmt.Sprint([]string{"", fmt.Sprint(majorityOf(first[q]))}) {
			t.Errorf("stances q%d: proposals %q, want none then %d", q+1, it.Proposals, majorityOf(first[q]))
		}
		it := results["rank"].Results[q]
		if len(it.Rankings) != 3 || len(it.Positions) != 3 {
			t.Fatalf("rank q%d: rankings %+v, positions %v", q+1, it.Rankings, it.Positions)
		}
		sum, n := make([]int, 3), make([]int, 3)
		for ranker, rk := range it.Rankings {
			var got, wantAns []int
			for pos, name := range rk.Order {
				j := slices.Index([]string{"Panelist 1", "Panelist 2", "Panelist 3"}, name)
				if j < 0 || j == ranker {
					t.Fatalf("rank q%d: %s ranked %q", q+1, rk.By, name)
				}
				got = append(got, second[q][j])
				sum[j] += pos + 1
				n[j]++
			}
			for _, j := range rankOf(q, ranker, false) {
				wantAns = append(wantAns, second[q][j])
			}
			if rk.By != eval.PanelistName(ranker) || rk.Unread || fmt.Sprint(got) != fmt.Sprint(wantAns) {
				t.Errorf("rank q%d: %s ranked answers %v (%+v), want %v", q+1, rk.By, got, rk, wantAns)
			}
		}
		for j := range 3 {
			if n[j] != 2 || math.Abs(it.Positions[j]-float64(sum[j])/2) > 1e-9 {
				t.Errorf("rank q%d: Panelist %d's mean position %v, its rankings make %d/%d", q+1, j+1, it.Positions[j], sum[j], n[j])
			}
		}
	}
	// Each ranking request showed the two other replies, unlabelled.
	shownOrders := map[string]bool{}
	for _, r := range srv.Requests() {
		if len(r.Responses) == 0 {
			continue
		}
		if len(r.Responses) != 2 || r.Responses[0].Agent != "Response A" || strings.Contains(r.User, "Panelist") {
			t.Errorf("a ranking request shows %+v and names a panelist: %v", r.Responses, strings.Contains(r.User, "Panelist"))
		}
		shownOrders[r.Responses[0].Answer+" "+r.Responses[1].Answer] = true
	}

	// Inside each debate arm: flips and conformity from the two rounds.
	if len(rep.Debates) != 3 {
		t.Fatalf("%d debate arms in the report, want 3: %+v", len(rep.Debates), rep.Debates)
	}
	for _, d := range rep.Debates {
		last := lastRounds[d.Arm]
		wantRounds := []eval.RoundStat{{Round: 1}, {Round: 2}}
		oracle, lastMajority := 0, 0
		for q, g := range gold {
			for r, answers := range [][]int{first[q], last[q]} {
				rs := &wantRounds[r]
				if majorityOf(answers) == g {
					rs.MajorityRight++
				}
				for p, a := range answers {
					if a == g {
						rs.Right++
					}
					if r == 0 {
						continue
					}
					was := first[q][p]
					if was == g && a != g {
						rs.RightToWrong++
					}
					if was != g && a == g {
						rs.WrongToRight++
					}
					if a != was {
						rs.Changed++
						if a == majorityOf(first[q]) {
							rs.ToMajority++
						}
					}
				}
			}
			if slices.Contains(first[q], g) {
				oracle++
			}
			if majorityOf(last[q]) == g {
				lastMajority++
			}
		}
		wantRounds[1].Conformity = float64(wantRounds[1].ToMajority) / float64(wantRounds[1].Changed)
		if d.Kind != d.Arm || d.Items != 6 || d.Oracle != oracle || d.Moderator != wants[d.Arm].correct || d.LastMajority != lastMajority ||
			d.Changed != wantRounds[1].Changed || d.ToMajority != wantRounds[1].ToMajority || fmt.Sprint(d.Rounds) != fmt.Sprint(wantRounds) {
			t.Errorf("%s: oracle %d, moderator %d, last majority %d, conformity %d/%d, rounds %+v; want %d, %d, %d, %d/%d, %+v",
				d.Arm, d.Oracle, d.Moderator, d.LastMajority, d.ToMajority, d.Changed, d.Rounds,
				oracle, wants[d.Arm].correct, lastMajority, wantRounds[1].ToMajority, wantRounds[1].Changed, wantRounds)
		}
		if d.Arm != "rank" {
			if d.Rank != nil {
				t.Errorf("%s has ranking figures: %+v", d.Arm, d.Rank)
			}
			continue
		}
		var wantRank eval.RankStat
		for q, g := range gold {
			wantRank.Ranked++
			if ranked[q] == g {
				wantRank.TopRight++
			}
			for ranker := range 3 {
				wantRank.Rankings++
				order := rankOf(q, ranker, false)
				if second[q][order[0]] == g || second[q][order[1]] == g {
					wantRank.RightShown++
					if second[q][order[0]] == g {
						wantRank.RightFirst++
					}
				}
			}
		}
		if d.Rank == nil || *d.Rank != wantRank {
			t.Errorf("rank: %+v, want %+v", d.Rank, wantRank)
		}
	}

	// The paired tests, from the questions each arm got right.
	for _, p := range rep.Pairs {
		aOnly, bOnly := 0, 0
		for q := range gold {
			ra, rb := right[p.A][q], right[p.B][q]
			if ra && !rb {
				aOnly++
			}
			if !ra && rb {
				bOnly++
			}
		}
		if p.Items != 6 || p.AOnly != aOnly || p.BOnly != bOnly || math.Abs(p.P-eval.McNemar(aOnly, bOnly)) > 1e-12 {
			t.Errorf("pair %s/%s: %+v; want %d and %d", p.A, p.B, p, aOnly, bOnly)
		}
	}
	if len(rep.Pairs) != len(arms)*(len(arms)-1)/2 {
		t.Errorf("%d pairs, want %d", len(rep.Pairs), len(arms)*(len(arms)-1)/2)
	}
	if eval.McNemar(1, 2) != 1 || math.Abs(eval.McNemar(0, 3)-0.25) > 1e-12 {
		t.Errorf("McNemar(1, 2) = %v, McNemar(0, 3) = %v; want 1 and 0.25", eval.McNemar(1, 2), eval.McNemar(0, 3))
	}

	// Equal budget: each debate arm's tokens a question against the vote
	// curve, read linearly between the two vote arms around it.
	if len(rep.Budgets) != 3 {
		t.Fatalf("%d equal-budget readings, want one per debate arm: %+v", len(rep.Budgets), rep.Budgets)
	}
	for _, b := range rep.Budgets {
		debTokens := float64(wants[b.Arm].tokens) / 6
		var lo, hi string
		var loT, hiT, loA, hiA float64
		for _, a := range arms {
			if a.IsDebate() {
				continue
			}
			tok, acc := float64(wants[a.Name].tokens)/6, float64(wants[a.Name].correct)/6
			if tok <= debTokens && (lo == "" || tok > loT) {
				lo, loT, loA = a.Name, tok, acc
			}
			if tok >= debTokens && (hi == "" || tok < hiT) {
				hi, hiT, hiA = a.Name, tok, acc
			}
		}
		if b.Arm == "debate" && (lo != "vote:9" || hi != "vote:11") {
			t.Fatalf("the test's debate (%v tokens) should fall between vote:9 and vote:11, not %s and %s", debTokens, lo, hi)
		}
		if lo == "" || hi == "" {
			if b.InRange || b.DebateTokens != debTokens {
				t.Errorf("equal budget of %s: %+v; want out of range at %v tokens", b.Arm, b, debTokens)
			}
			continue
		}
		voteAt := loA + (debTokens-loT)/(hiT-loT)*(hiA-loA)
		if !b.InRange || b.Below != lo || b.Above != hi || b.DebateTokens != debTokens || math.Abs(b.VoteAccuracy-voteAt) > 1e-9 {
			t.Errorf("equal budget of %s: %+v; want %s–%s at %v tokens, %v", b.Arm, b, lo, hi, debTokens, voteAt)
		}
	}
	if n := strings.Count(progress.String(), "\n"); n != 6*len(arms) {
		t.Errorf("%d progress lines, want one per question per arm (%d):\n%s", n, 6*len(arms), progress.String())
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"| debate | m1, m2, m3 | 4/6 = 66.7 % |",
		"| single | m1 | 3/6 = 50.0 % | 18.8 %–81.2 % | 174 (120 prompt + 54 completion) | 29.0 | no |",
		"| single | vote:3 | 6 | 0 | 1 | 1 |",
		"| vote:3 | debate | 6 | 1 | 1 | 1 |",
		"Oracle (some persona right in round 1): 5/6 = 83.3 %.",
		"The moderator (the debate arm's answer) was right on 4/6; the last round's majority would have been on 4/6.",
		"Conformity (changed answers that moved to the majority just read): 6/7 = 85.7 %.",
		"| 2 | 13 | 4 | 1 | 5 | 7 | 6 |",
		"(between vote:9 and vote:11) reads 66.7 %; the debate arm scored 66.7 % (+0.0 points)",
		"## Inside the rank arm",
		"## Inside the stances arm",
		fmt.Sprintf("Peer ranking: the top-ranked persona's final answer was right on %d/6 ranked questions; 0 of 18 rankings were unreadable.", wants["rank"].correct),
	} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("the Markdown report lacks %q:\n%s", s, md.String())
		}
	}
}

// toStrings is rounds of numbers as an item keeps them.
func toStrings(rounds ...[]int) [][]string {
	var out [][]string
	for _, r := range rounds {
		var row []string
		for _, a := range r {
			row = append(row, fmt.Sprint(a))
		}
		out = append(out, row)
	}
	return out
}

// TestShownOrder: a ranker is shown every other persona once, never
// itself, in an order fixed by the seed, the question and the ranker,
// and not the same for every question.
func TestShownOrder(t *testing.T) {
	orders := map[string]bool{}
	for q := range 20 {
		id := fmt.Sprintf("q%d", q)
		for ranker := range 5 {
			o := eval.ShownOrder(7, id, ranker, 5)
			if fmt.Sprint(o) != fmt.Sprint(eval.ShownOrder(7, id, ranker, 5)) {
				t.Fatalf("ShownOrder(7, %s, %d, 5) changes between calls", id, ranker)
			}
			sorted := slices.Sorted(slices.Values(o))
			var want []int
			for j := range 5 {
				if j != ranker {
					want = append(want, j)
				}
			}
			if fmt.Sprint(sorted) != fmt.Sprint(want) {
				t.Fatalf("ShownOrder(7, %s, %d, 5) = %v: not the others once each", id, ranker, o)
			}
			if ranker == 0 {
				orders[fmt.Sprint(o)] = true
			}
		}
	}
	if len(orders) < 5 {
		t.Errorf("Panelist 1 saw the others in %d orders over 20 questions: hardly shuffled", len(orders))
	}
}

// TestParseRanking: the eval reads its rankings as roundtable debate --rank
// does (debate.ParseRanking): the letters after the last FINAL RANKING, in
// order.
func TestParseRanking(t *testing.T) {
	for _, c := range []struct {
		reply string
		n     int
		want  []int
	}{
		{"Response A is weak.\n\nFINAL RANKING: C, A, B", 3, []int{2, 0, 1}},
		{"**Final ranking:**\n1. Response B\n2. Response A", 2, []int{1, 0}},
		{"FINAL RANKING: A, B\nOn second thought:\nFINAL RANKING: B, A", 2, []int{1, 0}},
		{"FINAL RANKING: B, D, B, A", 3, []int{1, 0}},
		{"I think A is best.", 3, nil},
		{"FINAL RANKING: none of them", 3, nil},
	} {
		if got := debate.ParseRanking(c.reply, c.n); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("ParseRanking(%q, %d) = %v, want %v", c.reply, c.n, got, c.want)
		}
	}
}

// TestEvalEstimatedTokens: a server that reports no usage is counted by
// our estimate, each call flagged, from what was sent and received.
func TestEvalEstimatedTokens(t *testing.T) {
	qs, panel := scripted(t)
	srv := evaltest.New(t, panel.Script())
	srv.SetNoUsage(true)
	arms, _ := eval.ParseArms("vote:2")
	rep, err := eval.Run(context.Background(), eval.Options{Questions: qs[:2], Arms: arms, Provider: provider(t, srv.BaseURL())})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, r := range srv.Requests() {
		for _, m := range r.Messages {
			want += len(m)/4 + 4
		}
		reply, _ := panel.Script()(r)
		want += (len(reply) + 3) / 4
	}
	a := rep.Arms[0]
	if a.Calls != 4 || a.EstimatedCalls != 4 || a.Tokens != want {
		t.Errorf("%d calls, %d estimated, %d tokens; want 4, 4, %d", a.Calls, a.EstimatedCalls, a.Tokens, want)
	}
}

// TestEvalStops: a run cancelled (ctrl+c) returns what it finished, and
// says it stopped; a failing call stops the run with the failure.
func TestEvalStops(t *testing.T) {
	qs, panel := scripted(t)
	srv := evaltest.New(t, panel.Script())
	arms, _ := eval.ParseArms("single,vote:3")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopper := writerFunc(func(p []byte) (int, error) { cancel(); return len(p), nil })
	rep, err := eval.Run(ctx, eval.Options{Questions: qs, Arms: arms, Provider: provider(t, srv.BaseURL()), Concurrency: 1, Progress: stopper})
	if !errors.Is(err, context.Canceled) || rep == nil || rep.Stopped == "" {
		t.Fatalf("cancelled: %v, report %+v", err, rep)
	}
	done := rep.Arms[0].Items + rep.Arms[1].Items
	if done < 1 || done >= 12 {
		t.Errorf("%d items done after a stop at the first", done)
	}

	srv.SetFail(func(r evaltest.Request) int {
		if strings.Contains(r.User, "crate number 4") {
			return 400
		}
		return 0
	})
	rep, err = eval.Run(context.Background(), eval.Options{Questions: qs, Arms: arms, Provider: provider(t, srv.BaseURL()), Concurrency: 1})
	if err == nil || !strings.Contains(err.Error(), "question q4") || rep == nil || rep.Arms[0].Items != 3 {
		t.Fatalf("a failing call: %v, report %+v", err, rep)
	}
	if !strings.HasPrefix(rep.Stopped, "a call failed: ") || !strings.Contains(rep.Stopped, "question q4") {
		t.Errorf("the report of a run stopped by a failing call says %q; want why", rep.Stopped)
	}

	// An arm that finished no question before the failure shows no figure
	// (not a 0 % that reads as every answer wrong) in either report.
	srv.SetFail(func(evaltest.Request) int { return 400 })
	deb, _ := eval.ParseArms("single,debate")
	rep, err = eval.Run(context.Background(), eval.Options{Questions: qs, Arms: deb, Provider: provider(t, srv.BaseURL()), Concurrency: 1})
	if err == nil || rep == nil || rep.Arms[1].Items != 0 {
		t.Fatalf("every call failing: %v, report %+v", err, rep)
	}
	var md, page bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**Stopped before the end** (a call failed: ", "| debate | m1 | no question finished | – |", "No question of the debate arm finished."} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md.String())
		}
	}
	if strings.Contains(md.String(), "0/0") || strings.Contains(md.String(), "| round |") {
		t.Errorf("report.md gives figures for arms that finished nothing:\n%s", md.String())
	}
	if !strings.Contains(page.String(), "<td>no question finished</td>") || strings.Contains(page.String(), "0/0") {
		t.Errorf("report.html:\n%s", page.String())
	}
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestEvalArmModels: an arm's own models (single=m2, vote:3=m3,
// debate=m2+m3) are the models its calls ask, given out in turn, the
// moderator taking the first; --models' are not asked; the accuracies are
// those of the models asked (evaltest.Panel: m2 is right on q1, q3, q5
// and q6, m3 on q1 and q3).
func TestEvalArmModels(t *testing.T) {
	qs, panel := scripted(t)
	srv := evaltest.New(t, panel.Script())
	arms, err := eval.ParseArms("single=m2,vote:3=m3,debate=m2+m3")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Run(context.Background(), eval.Options{
		Questions: qs, Arms: arms, Provider: provider(t, srv.BaseURL()), Models: panel.Models,
		Personas: 3, Rounds: 2, Concurrency: 4,
	})
	if err != nil {
		t.Fatal(err)
	}
	// The calls each model gets, by the arms' rules: single one of m2 a
	// question; vote:3 three of m3; the debate's personas m2, m3, m2 each
	// round, and its moderator m2.
	want := map[string]int{}
	for range qs {
		want["m2"]++
		want["m3"] += 3
		for range 2 {
			want["m2"] += 2
			want["m3"]++
		}
		want["m2"]++
	}
	got := map[string]int{}
	for _, r := range srv.Requests() {
		got[r.Model]++
	}
	if !maps.Equal(got, want) {
		t.Errorf("calls by model %v, want %v", got, want)
	}
	right := func(model string) (n int) {
		for _, q := range qs {
			if slices.Contains(panel.Right[q.Question], model) {
				n++
			}
		}
		return n
	}
	byName := map[string]eval.ArmResult{}
	for _, a := range rep.Arms {
		byName[a.Name] = a
	}
	if a := byName["single=m2"]; a.Correct != right("m2") || strings.Join(a.Models, ",") != "m2" {
		t.Errorf("single=m2: %d right (m2 knows %d), models %v", a.Correct, right("m2"), a.Models)
	}
	if a := byName["vote:3=m3"]; a.Correct != right("m3") || strings.Join(a.Models, ",") != "m3" {
		t.Errorf("vote:3=m3: %d right (m3 knows %d), models %v", a.Correct, right("m3"), a.Models)
	}
	if a := byName["debate=m2+m3"]; a.Items != len(qs) || strings.Join(a.Models, ",") != "m2,m3" {
		t.Errorf("debate=m2+m3: %d items, models %v", a.Items, a.Models)
	}
}

// TestEvalUnfinishedTokens: a run that stops inside an item (here the
// debate's moderator call fails) reports the tokens its finished calls
// spent as unfinished, in no arm's figures: the usage the scripted server
// reported for every call that succeeded.
func TestEvalUnfinishedTokens(t *testing.T) {
	qs, panel := scripted(t)
	script := panel.Script()
	srv := evaltest.New(t, script)
	srv.SetFail(func(r evaltest.Request) int {
		if strings.Contains(r.System, "moderator") {
			return http.StatusBadRequest
		}
		return 0
	})
	arms, err := eval.ParseArms("debate")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Run(context.Background(), eval.Options{
		Questions: qs[2:3], Arms: arms, Provider: provider(t, srv.BaseURL()), Models: panel.Models,
		Personas: 3, Rounds: 2, Concurrency: 1,
	})
	if err == nil || rep == nil {
		t.Fatalf("a failing moderator: %v, report %v", err, rep)
	}
	want, served := 0, 0
	for _, r := range srv.Requests() {
		if strings.Contains(r.System, "moderator") {
			continue // failed: no usage came back
		}
		_, u := script(r)
		want += u.Prompt + u.Completion
		served++
	}
	if served != 6 || rep.Arms[0].Items != 0 || rep.UnfinishedTokens != want || want == 0 {
		t.Errorf("%d calls served, %d items; unfinished %d tokens, want %d", served, rep.Arms[0].Items, rep.UnfinishedTokens, want)
	}
	var md strings.Builder
	if err := rep.WriteMarkdown(&md); err != nil || !strings.Contains(md.String(), fmt.Sprintf("spent %d tokens more, in none of the figures", want)) {
		t.Errorf("the Markdown does not say so: %v\n%s", err, md.String())
	}
}

// TestEvalMockRanks: the rank arm's ranking calls are ranking requests
// (PurposeRank, the replies shown in Ranked): the mock ranks the replies it
// is shown, as in roundtable debate --rank, so a demo on the mock reads
// every ranking (before, the mock argued again and all were unreadable).
func TestEvalMockRanks(t *testing.T) {
	qs, _ := scripted(t)
	arms, _ := eval.ParseArms("rank")
	rep, err := eval.Run(context.Background(), eval.Options{Questions: qs[:2], Arms: arms, Provider: debate.NewMock(0), Personas: 3, Rounds: 2, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := rep.Debates[0].Rank
	if d == nil || d.Rankings != 6 || d.Unread != 0 {
		t.Fatalf("rankings %+v; want 6, every one read", d)
	}
	for _, it := range rep.Arms[0].Results {
		for _, rk := range it.Rankings {
			if len(rk.Order) == 0 {
				t.Errorf("question %s: %s's ranking orders nobody", it.ID, rk.By)
			}
		}
	}
}
