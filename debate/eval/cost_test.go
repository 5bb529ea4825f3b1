package eval_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/eval"
	"github.com/roundtable-dev/roundtable/debate/eval/evaltest"
)

// TestEvalMaxCost: a cost budget priced from a table stops the run once
// spent, one call at a time here, and the report says so; the items
// finished keep their cost.
func TestEvalMaxCost(t *testing.T) {
	qs, panel := scripted(t)
	srv := evaltest.New(t, panel.Script())
	arms, _ := eval.ParseArms("single")
	// A call is 20 prompt and 9 completion tokens: at $1 and $2 a million,
	// $0.000038. $0.0001 is spent by the third call.
	price := debate.Price{Prompt: 1, Completion: 2}
	perCall := (float64(evaltest.PromptBase)*price.Prompt + float64(evaltest.Completion)*price.Completion) / 1e6
	budget := 0.0001
	calls := int(math.Ceil(budget / perCall))
	rep, err := eval.Run(context.Background(), eval.Options{
		Questions: qs, Arms: arms, Provider: provider(t, srv.BaseURL()), Concurrency: 1,
		MaxCost: budget, Prices: debate.PriceTable{"M1": price}, // the provider's model m1, its case aside
	})
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Arms[0]
	if calls != 3 || a.Items != calls || a.Calls != calls || math.Abs(a.Cost-float64(calls)*perCall) > 1e-12 || len(srv.Requests()) != calls {
		t.Errorf("%d items, %d calls, $%v, %d requests; want %d, %d, $%v", a.Items, a.Calls, a.Cost, len(srv.Requests()), calls, calls, float64(calls)*perCall)
	}
	if !strings.Contains(rep.Stopped, "the cost budget of $0.0001 is spent") {
		t.Errorf("stopped: %q", rep.Stopped)
	}
	for _, it := range a.Results {
		if math.Abs(it.Cost-perCall) > 1e-15 {
			t.Errorf("%s costs $%v, want $%v", it.ID, it.Cost, perCall)
		}
	}
}

// TestEvalReportedCost: a cost the provider reports is the call's, over
// the price table's; the report gives each arm's cost.
func TestEvalReportedCost(t *testing.T) {
	qs, panel := scripted(t)
	const each = 0.25
	script := panel.Script()
	srv := evaltest.New(t, func(r evaltest.Request) (string, evaltest.Usage) {
		reply, u := script(r)
		u.Cost = each
		return reply, u
	})
	arms, _ := eval.ParseArms("single,vote:3")
	rep, err := eval.Run(context.Background(), eval.Options{
		Questions: qs[:2], Arms: arms, Provider: provider(t, srv.BaseURL()),
		Prices: debate.PriceTable{"m1": {Prompt: 1000, Completion: 1000}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Arms[0].Cost != 2*each || rep.Arms[1].Cost != 6*each {
		t.Errorf("costs $%v and $%v, want $%v and $%v", rep.Arms[0].Cost, rep.Arms[1].Cost, 2*each, 6*each)
	}
	var md strings.Builder
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| estimated? | cost |") || !strings.Contains(md.String(), "| no | $1.50 |") {
		t.Errorf("the arms table lacks the cost:\n%s", md.String())
	}
}

// TestCheckCost: a cost budget is refused where no cost can be counted,
// naming the model.
func TestCheckCost(t *testing.T) {
	prices := debate.PriceTable{"a": {Prompt: 1}}
	var nc *eval.NoCostError
	err := eval.CheckCost(1, debate.ProviderOpenAI, []string{"a", "b"}, prices)
	if !errors.Is(err, eval.ErrNoCost) || !errors.As(err, &nc) || nc.Model != "b" ||
		!strings.Contains(err.Error(), "give --prices FILE") || !strings.Contains(err.Error(), "--max-tokens-total") {
		t.Errorf("an unpriced model: %v", err)
	}
	for _, c := range []struct {
		cost     float64
		provider string
		models   []string
	}{
		{0, debate.ProviderOpenAI, []string{"b"}},
		{1, debate.ProviderOpenAI, []string{"a"}},
		{1, debate.ProviderOpenRouter, []string{"b"}},
		{1, debate.ProviderMock, []string{"b"}},
	} {
		if err := eval.CheckCost(c.cost, c.provider, c.models, prices); err != nil {
			t.Errorf("CheckCost(%v, %s, %v): %v", c.cost, c.provider, c.models, err)
		}
	}
}
