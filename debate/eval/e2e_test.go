package eval_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
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

// TestEvalScriptedArms runs every arm against the scripted panel; each
// figure below is worked out by hand from evaltest.Panel's rules.
//
// First answers (model: answer, r = right): q1 all r; q2 m1 r, m2 1022,
// m3 1023; q3 m1 1031, m2 r, m3 r; q4 1041, 1042, 1043; q5 1051, r,
// 1053; q6 r, r, 1063. Votes (samples m1 m2 m3 m1 m2 …, ties to the
// first): single right on q1 q2 q6; vote:3, vote:5 and vote:9 on q1 q2
// q3 q6 (q2's tie goes to m1's right answer, q5's to m1's wrong one).
// Debate round 2: Panelists 1 and 2 take round 1's majority, Panelist 3
// takes the right answer when round 1 had it: q2 [r r r] (two changed, to
// the majority, wrong→right), q3 [r r r] (P1 changed, to the majority,
// wrong→right), q4 [1041 1041 1043] (P2 changed, to the majority), q5
// [1051 1051 r] (P2 right→wrong to the majority, P3 wrong→right away from
// it), q6 [r r r] (P3 changed, to the majority, wrong→right).
func TestEvalScriptedArms(t *testing.T) {
	qs, panel := scripted(t)
	srv := evaltest.New(t, panel.Script())
	arms, err := eval.ParseArms("single,vote:3,vote:5,vote:9,debate")
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
	call := evaltest.PromptBase + evaltest.Completion // a call reading nothing
	laterCall := evaltest.PromptBase + 3*evaltest.PerTurn + evaltest.Completion
	want := map[string]struct {
		correct, calls, tokens, prompt int
	}{
		"single": {3, 6, 6 * call, 6 * evaltest.PromptBase},
		"vote:3": {4, 18, 18 * call, 18 * evaltest.PromptBase},
		"vote:5": {4, 30, 30 * call, 30 * evaltest.PromptBase},
		"vote:9": {4, 54, 54 * call, 54 * evaltest.PromptBase},
		"debate": {4, 36, 6 * (3*call + 3*laterCall), 6 * (3*evaltest.PromptBase + 3*(evaltest.PromptBase+3*evaltest.PerTurn))},
	}
	for _, a := range rep.Arms {
		w := want[a.Name]
		if a.Items != 6 || a.Correct != w.correct || a.Calls != w.calls || a.Tokens != w.tokens || a.PromptTokens != w.prompt ||
			a.CompletionTokens != w.calls*evaltest.Completion || a.EstimatedCalls != 0 {
			t.Errorf("%s: %d/%d right, %d calls, %d tokens (%d prompt, %d completion, %d estimated calls); want %d/6, %d calls, %d tokens (%d prompt)",
				a.Name, a.Correct, a.Items, a.Calls, a.Tokens, a.PromptTokens, a.CompletionTokens, a.EstimatedCalls, w.correct, w.calls, w.tokens, w.prompt)
		}
		if math.Abs(a.Accuracy-float64(w.correct)/6) > 1e-9 {
			t.Errorf("%s: accuracy %v", a.Name, a.Accuracy)
		}
	}
	if got := len(srv.Requests()); got != 6+18+30+54+36 {
		t.Errorf("%d requests reached the server, want %d", got, 6+18+30+54+36)
	}
	var single eval.ArmResult
	for _, a := range rep.Arms {
		if a.Name == "single" {
			single = a
		}
	}
	if strings.Join(single.Models, ",") != "m1" || single.Results[4].Answer != "1051" {
		t.Errorf("single: models %v, q5 answer %q", single.Models, single.Results[4].Answer)
	}
	d := rep.Debate
	if d == nil {
		t.Fatal("no debate details")
	}
	wantRounds := []eval.RoundStat{
		{Round: 1, Right: 9, MajorityRight: 4},
		{Round: 2, Right: 13, MajorityRight: 4, RightToWrong: 1, WrongToRight: 5, Changed: 7, ToMajority: 6, Conformity: 6.0 / 7},
	}
	if d.Oracle != 5 || d.Changed != 7 || d.ToMajority != 6 || fmt.Sprint(d.Rounds) != fmt.Sprint(wantRounds) {
		t.Errorf("debate: oracle %d, conformity %d/%d, rounds %+v; want 5, 6/7, %+v", d.Oracle, d.ToMajority, d.Changed, d.Rounds, wantRounds)
	}
	// Every pair of arms but single's differ on no question; single
	// misses q3, which the others get.
	for _, p := range rep.Pairs {
		wantB := 0
		if p.A == "single" {
			wantB = 1
		}
		if p.Items != 6 || p.AOnly != 0 || p.BOnly != wantB || p.P != 1 {
			t.Errorf("pair %s/%s: %+v", p.A, p.B, p)
		}
	}
	// The debate's 6·(3·29+3·50)/6 = 237 tokens a question lie between
	// vote:5 (145) and vote:9 (261), both at 4/6.
	b := rep.Budget
	if b == nil || !b.InRange || b.Below != "vote:5" || b.Above != "vote:9" || b.DebateTokens != 237 || math.Abs(b.VoteAccuracy-4.0/6) > 1e-9 {
		t.Errorf("equal budget: %+v", b)
	}
	if n := strings.Count(progress.String(), "\n"); n != 6*5 {
		t.Errorf("%d progress lines, want one per question per arm (30):\n%s", n, progress.String())
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"| debate | m1, m2, m3 | 4/6 = 66.7 % |",
		"| single | m1 | 3/6 = 50.0 % | 18.8 %–81.2 % | 174 (120 prompt + 54 completion) | 29.0 | no |",
		"| single | vote:3 | 6 | 0 | 1 | 1 |",
		"Oracle (some persona right in round 1): 5/6 = 83.3 %.",
		"Conformity (changed answers that moved to the majority just read): 6/7 = 85.7 %.",
		"| 2 | 13 | 4 | 1 | 5 | 7 | 6 |",
		"(between vote:5 and vote:9) reads 66.7 %; the debate scored 66.7 % (+0.0 points)",
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
	srv.NoUsage = true
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

	srv.Fail = func(r evaltest.Request) int {
		if strings.Contains(r.User, "crate number 4") {
			return 400
		}
		return 0
	}
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
