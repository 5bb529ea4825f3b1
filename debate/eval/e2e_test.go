package eval_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
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
// are written out below by hand; the votes, the moderator, the accuracies,
// tokens, flips, conformity, pairs and the equal-budget reading are
// computed here from them, by code of the test's own.
//
// First answers (model: answer; gold 1010·i): q1 all right; q2 m1 right,
// m2 1022, m3 1023; q3 m1 1031, m2 and m3 right; q4 1041, 1042, 1043; q5
// 1051, right, 1053; q6 m1 and m2 right, m3 1063. Debate round 2:
// Panelists 1 and 2 take round 1's majority, Panelist 3 the right answer
// when round 1 had it, else its own. The moderator answers the last
// round's majority, but is scripted to answer 1012 on q1 (wrong against a
// right panel) and 1050 on q5 (right against a wrong majority), so the
// debate's answer is seen to be the moderator's.
func TestEvalScriptedArms(t *testing.T) {
	qs, panel := scripted(t)
	panel.Verdict = map[string]int{qs[0].Question: 1012, qs[4].Question: 1050}
	srv := evaltest.New(t, panel.Script())
	arms, err := eval.ParseArms("single,vote:3,vote:5,vote:9,vote:11,debate")
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
	solo := evaltest.PromptBase + evaltest.Completion // a call reading nothing
	later := solo + 3*evaltest.PerTurn                // a round-2 turn reads round 1
	moderator := solo + 6*evaltest.PerTurn            // the moderator reads both rounds
	type want struct{ correct, calls, tokens, prompt int }
	wants := map[string]want{}
	right := map[string][]bool{} // by arm, by question
	for _, a := range arms {
		var w want
		for q := range gold {
			var answer int
			switch a.Kind {
			case eval.ArmDebate:
				answer = majorityOf(second[q])
				if v, ok := verdict[q]; ok {
					answer = v
				}
				w.calls += 7
				w.tokens += 3*solo + 3*later + moderator
				w.prompt += 3*solo + 3*later + moderator - 7*evaltest.Completion
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
	for _, a := range rep.Arms {
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
	var single, deb eval.ArmResult
	for _, a := range rep.Arms {
		switch a.Name {
		case "single":
			single = a
		case "debate":
			deb = a
		}
	}
	if strings.Join(single.Models, ",") != "m1" || single.Results[4].Answer != "1051" {
		t.Errorf("single: models %v, q5 answer %q", single.Models, single.Results[4].Answer)
	}
	if deb.Results[0].Answer != "1012" || deb.Results[4].Answer != "1050" {
		t.Errorf("the debate's answers on q1 and q5 are %q and %q, not the moderator's 1012 and 1050", deb.Results[0].Answer, deb.Results[4].Answer)
	}

	// Inside the debate: flips and conformity from the two rounds.
	wantRounds := []eval.RoundStat{{Round: 1}, {Round: 2}}
	oracle, lastMajority := 0, 0
	for q, g := range gold {
		for r, answers := range [][]int{first[q], second[q]} {
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
		if majorityOf(second[q]) == g {
			lastMajority++
		}
	}
	wantRounds[1].Conformity = float64(wantRounds[1].ToMajority) / float64(wantRounds[1].Changed)
	d := rep.Debate
	if d == nil {
		t.Fatal("no debate details")
	}
	if d.Oracle != oracle || d.Moderator != wants["debate"].correct || d.LastMajority != lastMajority ||
		d.Changed != wantRounds[1].Changed || d.ToMajority != wantRounds[1].ToMajority || fmt.Sprint(d.Rounds) != fmt.Sprint(wantRounds) {
		t.Errorf("debate: oracle %d, moderator %d, last majority %d, conformity %d/%d, rounds %+v; want %d, %d, %d, %d/%d, %+v",
			d.Oracle, d.Moderator, d.LastMajority, d.ToMajority, d.Changed, d.Rounds,
			oracle, wants["debate"].correct, lastMajority, wantRounds[1].ToMajority, wantRounds[1].Changed, wantRounds)
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
	if eval.McNemar(1, 2) != 1 || math.Abs(eval.McNemar(0, 3)-0.25) > 1e-12 {
		t.Errorf("McNemar(1, 2) = %v, McNemar(0, 3) = %v; want 1 and 0.25", eval.McNemar(1, 2), eval.McNemar(0, 3))
	}

	// Equal budget: the debate's tokens a question against the vote
	// curve, read linearly between the two vote arms around it.
	debTokens := float64(wants["debate"].tokens) / 6
	var lo, hi string
	var loT, hiT, loA, hiA float64
	for _, a := range arms {
		if a.Kind == eval.ArmDebate {
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
	if lo != "vote:9" || hi != "vote:11" {
		t.Fatalf("the test's debate (%v tokens) should fall between vote:9 and vote:11, not %s and %s", debTokens, lo, hi)
	}
	voteAt := loA + (debTokens-loT)/(hiT-loT)*(hiA-loA)
	b := rep.Budget
	if b == nil || !b.InRange || b.Below != lo || b.Above != hi || b.DebateTokens != debTokens || math.Abs(b.VoteAccuracy-voteAt) > 1e-9 {
		t.Errorf("equal budget: %+v; want %s–%s at %v tokens, %v", b, lo, hi, debTokens, voteAt)
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
		"The moderator (the debate's answer) was right on 4/6; the last round's majority would have been on 4/6.",
		"Conformity (changed answers that moved to the majority just read): 6/7 = 85.7 %.",
		"| 2 | 13 | 4 | 1 | 5 | 7 | 6 |",
		"(between vote:9 and vote:11) reads 66.7 %; the debate scored 66.7 % (+0.0 points)",
	} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("the Markdown report lacks %q:\n%s", s, md.String())
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
		t.Errorf("a failing call: %v, report %+v", err, rep)
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
