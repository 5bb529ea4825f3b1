package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/debate/eval"
	"github.com/roundtable-dev/roundtable/debate/eval/evaltest"
)

// runOut runs arms over qs against srv with dir as the --out folder, as
// the command does, cancelling after stopAfter items when it is above 0.
func runOut(t *testing.T, srv *evaltest.Server, qs []eval.Question, models []string, armSpec, dir string, stopAfter int) (*eval.Report, error) {
	t.Helper()
	arms, err := eval.ParseArms(armSpec)
	if err != nil {
		t.Fatal(err)
	}
	cfg := eval.Config{Questions: eval.HashQuestions(qs), Arms: strings.Split(armSpec, ","), Personas: 3, Rounds: 2, Models: models, Provider: "openai", Model: "m1"}
	out, done, err := eval.OpenOut(dir, cfg)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	landed := 0
	opt := eval.Options{
		Questions: qs, Arms: arms, Provider: provider(t, srv.BaseURL()), Models: models,
		Personas: 3, Rounds: 2, Concurrency: 1, Done: done,
		OnItem: func(arm string, it eval.Item) error {
			landed++
			if stopAfter > 0 && landed == stopAfter {
				cancel()
			}
			return out.Append(arm, it)
		},
	}
	rep, err := eval.Run(ctx, opt)
	if rep != nil {
		if werr := out.WriteReports(rep); werr != nil {
			t.Fatal(werr)
		}
	}
	return rep, err
}

// TestEvalResume: a run stopped after some items and run again with the
// same folder asks no finished item again, and ends with the report of
// an unbroken run; a folder made under another configuration is refused.
func TestEvalResume(t *testing.T) {
	qs, panel := scripted(t)
	const arms = "single,vote:3,debate"
	whole := evaltest.New(t, panel.Script())
	wholeDir := t.TempDir()
	if _, err := runOut(t, whole, qs, panel.Models, arms, wholeDir, 0); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(wholeDir, eval.ReportJSON))
	if err != nil {
		t.Fatal(err)
	}

	srv := evaltest.New(t, panel.Script())
	dir := filepath.Join(t.TempDir(), "new", "folder")
	rep, err := runOut(t, srv, qs, panel.Models, arms, dir, 7)
	if !errors.Is(err, context.Canceled) || rep.Stopped == "" {
		t.Fatalf("the first run: %v, stopped %q", err, rep.Stopped)
	}
	first := len(srv.Requests())
	// A line cut short by a kill is dropped on the rerun.
	f, err := os.OpenFile(filepath.Join(dir, eval.ItemsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"arm":"single","id":"q6","answ`)
	f.Close()
	saved, calls := 0, 0
	data, _ := os.ReadFile(filepath.Join(dir, eval.ItemsFile))
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var r eval.Record
		if json.Unmarshal([]byte(line), &r) == nil {
			saved++
			calls += r.Calls
		}
	}
	if saved != 7 || first != calls {
		t.Fatalf("the first run saved %d items of %d calls and made %d requests; want 7 items, every request in one", saved, calls, first)
	}

	if _, err := runOut(t, srv, qs, panel.Models, arms, dir, 0); err != nil {
		t.Fatal(err)
	}
	if again := len(srv.Requests()) - first; again != len(whole.Requests())-calls {
		t.Errorf("the rerun made %d requests; want %d (the unbroken run's %d less the %d of the saved items)", again, len(whole.Requests())-calls, len(whole.Requests()), calls)
	}
	got, _ := os.ReadFile(filepath.Join(dir, eval.ReportJSON))
	if !bytes.Equal(got, want) {
		t.Errorf("the resumed report differs from the unbroken run's:\n%s\nwant\n%s", got, want)
	}
	md, _ := os.ReadFile(filepath.Join(dir, eval.ReportMD))
	wantMD, _ := os.ReadFile(filepath.Join(wholeDir, eval.ReportMD))
	if !bytes.Equal(md, wantMD) {
		t.Errorf("the resumed Markdown report differs from the unbroken run's")
	}
	// Once more: nothing left to ask.
	before := len(srv.Requests())
	if _, err := runOut(t, srv, qs, panel.Models, arms, dir, 0); err != nil || len(srv.Requests()) != before {
		t.Errorf("a rerun of a finished folder: %v, %d requests", err, len(srv.Requests())-before)
	}

	for _, c := range []struct {
		arms   string
		models []string
		qs     []eval.Question
		diff   string
	}{
		{"single,vote:5,debate", panel.Models, qs, "arms"},
		{arms, []string{"m1", "m2"}, qs, "models"},
		{arms, panel.Models, qs[:5], "questions_sha256"},
	} {
		_, err := runOut(t, srv, c.qs, c.models, c.arms, dir, 0)
		if !errors.Is(err, eval.ErrOutChanged) || !strings.Contains(err.Error(), c.diff) {
			t.Errorf("another %s: %v", c.diff, err)
		}
	}
}

// TestEvalReportRecomputes: every figure of report.json is recomputed
// here from its per-item records, read as plain JSON.
func TestEvalReportRecomputes(t *testing.T) {
	qs, panel := scripted(t)
	panel.Verdict = map[string]int{qs[0].Question: 1012, qs[4].Question: 1050}
	srv := evaltest.New(t, panel.Script())
	dir := t.TempDir()
	if _, err := runOut(t, srv, qs, panel.Models, "single,vote:3,vote:11,debate", dir, 0); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, eval.ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		ID               string     `json:"id"`
		Expected         string     `json:"expected"`
		Answer           string     `json:"answer"`
		Correct          bool       `json:"correct"`
		PromptTokens     int        `json:"prompt_tokens"`
		CompletionTokens int        `json:"completion_tokens"`
		Tokens           int        `json:"tokens"`
		Calls            int        `json:"calls"`
		EstimatedCalls   int        `json:"estimated_calls"`
		Rounds           [][]string `json:"rounds"`
	}
	var rep struct {
		Questions int `json:"questions"`
		Arms      []struct {
			Name             string   `json:"name"`
			Models           []string `json:"models"`
			Items            int      `json:"items"`
			Correct          int      `json:"correct"`
			Accuracy         float64  `json:"accuracy"`
			CILow            float64  `json:"ci_low"`
			CIHigh           float64  `json:"ci_high"`
			PromptTokens     int      `json:"prompt_tokens"`
			CompletionTokens int      `json:"completion_tokens"`
			Tokens           int      `json:"tokens"`
			PerQuestion      float64  `json:"tokens_per_question"`
			Calls            int      `json:"calls"`
			EstimatedCalls   int      `json:"estimated_calls"`
			Estimated        *bool    `json:"estimated"`
			Results          []item   `json:"results"`
		} `json:"arms"`
		Pairs []struct {
			A, B  string
			Items int     `json:"items"`
			AOnly int     `json:"a_right_b_wrong"`
			BOnly int     `json:"a_wrong_b_right"`
			P     float64 `json:"p_value"`
		} `json:"pairs"`
		Debates []struct {
			Arm          string  `json:"arm"`
			Items        int     `json:"items"`
			Oracle       int     `json:"oracle"`
			Moderator    int     `json:"moderator_right"`
			LastMajority int     `json:"last_round_majority_right"`
			OracleAcc    float64 `json:"oracle_accuracy"`
			Changed      int     `json:"changed"`
			ToMajority   int     `json:"to_majority"`
			Conformity   float64 `json:"conformity"`
			Rounds       []struct {
				Right         int `json:"right"`
				MajorityRight int `json:"majority_right"`
				RightToWrong  int `json:"right_to_wrong"`
				WrongToRight  int `json:"wrong_to_right"`
				Changed       int `json:"changed"`
				ToMajority    int `json:"to_majority"`
			} `json:"rounds"`
		} `json:"debates"`
		Budgets []struct {
			Arm            string  `json:"arm"`
			DebateTokens   float64 `json:"debate_tokens_per_question"`
			DebateAccuracy float64 `json:"debate_accuracy"`
			InRange        bool    `json:"in_range"`
			VoteAccuracy   float64 `json:"vote_accuracy"`
			Below          string  `json:"below"`
			Above          string  `json:"above"`
		} `json:"equal_budget"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	right := map[string]map[string]bool{}
	type point struct {
		name     string
		tok, acc float64
	}
	var curve []point
	var debTok, debAcc float64
	for _, a := range rep.Arms {
		var correct, prompt, completion, tokens, calls, est int
		right[a.Name] = map[string]bool{}
		for _, it := range a.Results {
			if it.Correct != (it.Answer != "" && it.Answer == it.Expected) || it.Tokens != it.PromptTokens+it.CompletionTokens {
				t.Errorf("%s %s: %+v does not add up", a.Name, it.ID, it)
			}
			if it.Correct {
				correct++
			}
			right[a.Name][it.ID] = it.Correct
			prompt, completion, tokens = prompt+it.PromptTokens, completion+it.CompletionTokens, tokens+it.Tokens
			calls, est = calls+it.Calls, est+it.EstimatedCalls
		}
		n := len(a.Results)
		lo, hi := eval.Wilson(correct, n)
		if a.Items != n || a.Correct != correct || !near(a.Accuracy, float64(correct)/float64(n)) || a.PromptTokens != prompt ||
			a.CompletionTokens != completion || a.Tokens != tokens || a.Calls != calls || a.EstimatedCalls != est ||
			a.Estimated == nil || *a.Estimated != (est > 0) || !near(a.PerQuestion, float64(tokens)/float64(n)) ||
			!near(a.CILow, lo) || !near(a.CIHigh, hi) || len(a.Models) == 0 {
			t.Errorf("arm %s does not match its items: %+v", a.Name, a)
		}
		if a.Name == "debate" {
			debTok, debAcc = float64(tokens)/float64(n), float64(correct)/float64(n)
			if len(rep.Debates) != 1 || rep.Debates[0].Arm != "debate" {
				t.Fatalf("debates %+v, want the debate arm's alone", rep.Debates)
			}
			d := rep.Debates[0]
			var oracle, lastMaj int
			rounds := make([][6]int, 2)
			for _, it := range a.Results {
				for _, x := range it.Rounds[0] {
					if x == it.Expected {
						oracle++
						break
					}
				}
				for r, answers := range it.Rounds {
					maj := majorityOf(answers)
					if maj == it.Expected {
						rounds[r][1]++
						if r == len(it.Rounds)-1 {
							lastMaj++
						}
					}
					for p, x := range answers {
						if x == it.Expected {
							rounds[r][0]++
						}
						if r == 0 {
							continue
						}
						was := it.Rounds[r-1][p]
						if was == it.Expected && x != it.Expected {
							rounds[r][2]++
						}
						if was != it.Expected && x == it.Expected {
							rounds[r][3]++
						}
						if x != was {
							rounds[r][4]++
							if x == majorityOf(it.Rounds[r-1]) {
								rounds[r][5]++
							}
						}
					}
				}
			}
			if d.Items != n || d.Oracle != oracle || d.Moderator != correct || d.LastMajority != lastMaj || !near(d.OracleAcc, float64(oracle)/float64(n)) ||
				len(d.Rounds) != 2 || d.Changed != rounds[1][4] || d.ToMajority != rounds[1][5] || !near(d.Conformity, float64(rounds[1][5])/float64(rounds[1][4])) {
				t.Errorf("debate %+v; recomputed oracle %d, moderator %d, last majority %d, rounds %v", d, oracle, correct, lastMaj, rounds)
			}
			for r, rs := range d.Rounds {
				if [6]int{rs.Right, rs.MajorityRight, rs.RightToWrong, rs.WrongToRight, rs.Changed, rs.ToMajority} != rounds[r] {
					t.Errorf("round %d: %+v, recomputed %v", r+1, rs, rounds[r])
				}
			}
			if d.Moderator == lastMaj && d.Changed == 0 {
				t.Error("a degenerate debate: the test checks nothing")
			}
		} else {
			curve = append(curve, point{a.Name, float64(tokens) / float64(n), float64(correct) / float64(n)})
		}
	}
	var pairs int
	for i, a := range rep.Arms {
		for _, b := range rep.Arms[i+1:] {
			p := rep.Pairs[pairs]
			pairs++
			var aOnly, bOnly, both int
			for id, ra := range right[a.Name] {
				rb, ok := right[b.Name][id]
				if !ok {
					continue
				}
				both++
				if ra && !rb {
					aOnly++
				}
				if !ra && rb {
					bOnly++
				}
			}
			if p.A != a.Name || p.B != b.Name || p.Items != both || p.AOnly != aOnly || p.BOnly != bOnly || !near(p.P, eval.McNemar(aOnly, bOnly)) {
				t.Errorf("pair %+v; recomputed %s/%s %d %d %d", p, a.Name, b.Name, both, aOnly, bOnly)
			}
		}
	}
	if pairs != len(rep.Pairs) {
		t.Errorf("%d pairs, want %d", len(rep.Pairs), pairs)
	}
	if len(rep.Budgets) != 1 || rep.Budgets[0].Arm != "debate" {
		t.Fatalf("equal budget %+v, want the debate arm's alone", rep.Budgets)
	}
	b := rep.Budgets[0]
	var lo, hi *point
	for i, p := range curve {
		if p.tok <= debTok && (lo == nil || p.tok > lo.tok) {
			lo = &curve[i]
		}
		if p.tok >= debTok && (hi == nil || p.tok < hi.tok) {
			hi = &curve[i]
		}
	}
	if lo == nil || hi == nil || lo == hi {
		t.Fatalf("the debate (%v tokens) should sit strictly inside the vote curve %+v", debTok, curve)
	}
	at := lo.acc + (debTok-lo.tok)/(hi.tok-lo.tok)*(hi.acc-lo.acc)
	if !b.InRange || b.Below != lo.name || b.Above != hi.name || !near(b.VoteAccuracy, at) || !near(b.DebateTokens, debTok) || !near(b.DebateAccuracy, debAcc) {
		t.Errorf("equal budget %+v; recomputed %s–%s %v at %v", b, lo.name, hi.name, at, debTok)
	}
}

// majorityOf is the answer most give, the zero answer (none) not counted,
// ties to the first given: worked out here apart from the package's own
// rule, for the tests to check it.
func majorityOf[T comparable](xs []T) T {
	var best, none T
	bestN := 0
	for _, x := range xs {
		if x == none {
			continue
		}
		n := 0
		for _, y := range xs {
			if y == x {
				n++
			}
		}
		if n > bestN {
			best, bestN = x, n
		}
	}
	return best
}

// TestEvalBudget: under --max-tokens-total no call starts once the budget
// is spent; the report keeps the items finished, says the run stopped,
// and the run is no failure. One call at a time, so the test can follow
// the calls: each costs PromptBase + Completion, items in question order,
// single then vote:3.
func TestEvalBudget(t *testing.T) {
	qs, panel := scripted(t)
	arms, _ := eval.ParseArms("single,vote:3")
	solo := evaltest.PromptBase + evaltest.Completion
	for _, budget := range []int{50, 100, 240, 10000} {
		srv := evaltest.New(t, panel.Script())
		rep, err := eval.Run(context.Background(), eval.Options{
			Questions: qs, Arms: arms, Provider: provider(t, srv.BaseURL()), Concurrency: 1, MaxTokensTotal: budget,
		})
		// The test's own count: calls start while less than the budget is spent.
		spent, requests, items, stopped := 0, 0, map[string]int{}, false
	walk:
		for range qs {
			for _, a := range arms {
				for range a.K {
					if spent >= budget {
						stopped = true
						break walk
					}
					spent += solo
					requests++
				}
				items[a.Name]++
			}
		}
		if err != nil || (rep.Stopped != "") != stopped || (stopped && !strings.Contains(rep.Stopped, "token budget of")) {
			t.Errorf("budget %d: %v, stopped %q; want stopped %v", budget, err, rep.Stopped, stopped)
		}
		if got := len(srv.Requests()); got != requests {
			t.Errorf("budget %d: %d requests, want %d", budget, got, requests)
		}
		for i, a := range rep.Arms {
			if a.Items != items[a.Name] || a.Tokens != items[a.Name]*arms[i].K*solo || len(a.Results) != a.Items {
				t.Errorf("budget %d: %s has %d items (%d tokens); want %d", budget, a.Name, a.Items, a.Tokens, items[a.Name])
			}
		}
	}
}
