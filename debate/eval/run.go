package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
)

// Options configure a run.
type Options struct {
	Questions []Question
	Arms      []Arm
	Provider  debate.Provider
	// Models, when set, are given round-robin: vote sample k to
	// Models[k%len], debate persona i to Models[i%len], single and the
	// moderator to Models[0]. Empty: the provider's model.
	Models      []string
	Personas    int   // debate panel size; 0: DefaultPersonas
	Rounds      int   // debate rounds; 0: DefaultRounds
	Concurrency int   // calls at once; 0: DefaultConcurrency
	Seed        int64 // the mock's seed (other providers ignore it)
	// Progress, when set, gets a line as each question of each arm is
	// done; with Terminal, a progress bar redrawn in place instead (items
	// done, each arm's, tokens, time, ETA), each second and as each item
	// lands, at most Width cells wide (0: no limit), its line ended when
	// the run ends.
	Progress io.Writer
	Terminal bool
	Width    int
	// Done are items finished by an earlier run (an --out folder's): they
	// are not asked again, and the report counts them as if just made.
	// Those of an arm or question not in this run are ignored.
	Done []Record
	// OnItem, when set, is told each item as it lands (to save it); an
	// error stops the run as a failing call does.
	OnItem func(arm string, it Item) error
	// MaxTokensTotal, when above 0, is a budget: once the run's calls
	// (and the Done items') have spent that many tokens no call starts;
	// the calls under way finish, the items they complete are kept, and
	// the report says the run stopped early.
	MaxTokensTotal int
	// MaxCost, when above 0, is a budget in dollars, kept as
	// MaxTokensTotal is: a call's cost is the one the provider reports
	// (OpenRouter's), else its tokens at Prices. CheckCost says before a
	// run whether the cost can be counted.
	MaxCost float64
	// Prices price the calls whose provider reports no cost, by model
	// (the call's, or the provider's when it names none).
	Prices debate.PriceTable
	// RoomsDir, when set, is the folder whose .roundtable holds a room
	// for each debate arm's item (RoomName), a finished debate that
	// roundtable rooms and roundtable tui open there.
	RoomsDir string
}

// ErrBudgetSpent is the cause of a run stopped by MaxTokensTotal or
// MaxCost. Run does not return it: the report's Stopped says so.
var ErrBudgetSpent = errors.New("budget spent")

// Defaults of Options.
const (
	DefaultPersonas    = 3
	DefaultRounds      = 2
	DefaultConcurrency = 4
	MaxPersonas        = 12
	MaxRounds          = 10
)

// Call is one request to the model and what came of it.
type Call struct {
	Model            string `json:"model,omitempty"`
	Answer           string `json:"answer"`
	Correct          bool   `json:"correct"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	// Estimated: the provider reported no usage (or, the mock, only its
	// own estimate), so the tokens are counted by estimateUsage.
	Estimated bool `json:"estimated,omitempty"`
	// Cost in dollars: the provider's, else priced by Options.Prices; 0
	// when neither gives one.
	Cost  float64 `json:"cost,omitempty"`
	Reply string  `json:"-"`
}

// Item is one question answered by one arm.
type Item struct {
	ID               string `json:"id"`
	Expected         string `json:"expected"`
	Answer           string `json:"answer"` // as extracted; the arm's decision
	Correct          bool   `json:"correct"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	Tokens           int    `json:"tokens"`
	Calls            int    `json:"calls"`
	EstimatedCalls   int    `json:"estimated_calls,omitempty"`
	// Cost is the calls' cost in dollars, where the provider reports one
	// or Options.Prices prices the model; 0 when neither does.
	Cost float64 `json:"cost,omitempty"`
	// Samples are a vote's answers, sample by sample.
	Samples []string `json:"samples,omitempty"`
	// Rounds are a debate's answers, round by round, persona by persona.
	Rounds [][]string `json:"rounds,omitempty"`
	// Proposals are the stances arm's proposed answer of each round: ""
	// in round 1 (blind) and when the round before gave no answer, else
	// the round before's majority.
	Proposals []string `json:"proposals,omitempty"`
	// Rankings are the rank arm's peer rankings, one per persona that
	// gave a readable one, de-anonymised: the others' names, best first.
	Rankings []Ranking `json:"rankings,omitempty"`
	// Positions are the rank arm's mean position of each persona (1 is
	// best) over the rankings that placed it; 0 when none did.
	Positions []float64 `json:"mean_positions,omitempty"`
	// Room is the room a debate arm's item was saved in (RoomName), under
	// Options.RoomsDir; "" when none was.
	Room string `json:"room,omitempty"`
}

// Ranking is one persona's ranking of the others' final replies.
type Ranking struct {
	By    string   `json:"by"`
	Order []string `json:"order"` // persona names, best first
	// Unread: the reply had no FINAL RANKING line naming a response;
	// Order is then empty and the ranking counts for nothing.
	Unread bool `json:"unread,omitempty"`
}

// add charges c to it.
func (it *Item) add(c Call) {
	it.PromptTokens += c.PromptTokens
	it.CompletionTokens += c.CompletionTokens
	it.Tokens += c.PromptTokens + c.CompletionTokens
	it.Calls++
	it.Cost += c.Cost
	if c.Estimated {
		it.EstimatedCalls++
	}
}

// runner runs the calls of a run, at most Concurrency at once.
type runner struct {
	opt       Options
	sem       chan struct{}
	estimated bool         // the provider's usage is an estimate itself (the mock)
	spent     atomic.Int64 // tokens of every call made, and of the Done items

	costMu sync.Mutex
	cost   float64 // dollars of every call made, and of the Done items
}

// addCost counts d dollars spent.
func (r *runner) addCost(d float64) {
	r.costMu.Lock()
	defer r.costMu.Unlock()
	r.cost += d
}

// spentCost is the dollars spent so far.
func (r *runner) spentCost() float64 {
	r.costMu.Lock()
	defer r.costMu.Unlock()
	return r.cost
}

// Run answers every question with every arm and reports. When ctx is
// cancelled or a call fails, it stops, and returns the report of what was
// done with the error: context's cause, or the first failure.
func Run(ctx context.Context, opt Options) (*Report, error) {
	if opt.Personas <= 0 {
		opt.Personas = DefaultPersonas
	}
	if opt.Rounds <= 0 {
		opt.Rounds = DefaultRounds
	}
	if opt.Concurrency <= 0 {
		opt.Concurrency = DefaultConcurrency
	}
	r := &runner{
		opt:       opt,
		sem:       make(chan struct{}, opt.Concurrency),
		estimated: opt.Provider.Name() == debate.ProviderMock,
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	type task struct{ q, a int }
	tasks := make(chan task)
	results := make([][]*Item, len(opt.Arms)) // [arm][question], nil: not done
	for i := range results {
		results[i] = make([]*Item, len(opt.Questions))
	}
	total := len(opt.Questions) * len(opt.Arms)
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		wg       sync.WaitGroup
	)
	armIdx, qIdx := map[string]int{}, map[string]int{}
	for i, a := range opt.Arms {
		armIdx[a.Name] = i
	}
	for i, q := range opt.Questions {
		qIdx[q.ID] = i
	}
	prog := newProgress(opt, r.spent.Load)
	for _, rec := range opt.Done {
		a, okA := armIdx[rec.Arm]
		q, okQ := qIdx[rec.ID]
		if !okA || !okQ || results[a][q] != nil {
			continue
		}
		it := rec.Item
		results[a][q] = &it
		done++
		r.spent.Add(int64(it.Tokens))
		r.addCost(it.Cost)
		prog.resumed(a)
	}
	if opt.Progress != nil && opt.Terminal {
		prog.draw()
		stopTicks := make(chan struct{})
		ticked := make(chan struct{})
		go func() {
			defer close(ticked)
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					prog.draw()
				case <-stopTicks:
					return
				}
			}
		}()
		defer func() { close(stopTicks); <-ticked; prog.end() }()
	}
	for range min(opt.Concurrency, max(total-done, 1)) {
		wg.Go(func() {
			for t := range tasks {
				it, err := r.item(ctx, opt.Questions[t.q], opt.Arms[t.a])
				mu.Lock()
				if err != nil {
					if errors.Is(err, ErrBudgetSpent) {
						cancel(ErrBudgetSpent)
					}
					if firstErr == nil && ctx.Err() == nil {
						firstErr = fmt.Errorf("%s, question %s: %w", opt.Arms[t.a].Name, opt.Questions[t.q].ID, err)
						cancel(firstErr)
					}
					mu.Unlock()
					continue
				}
				if opt.OnItem != nil {
					if err := opt.OnItem(opt.Arms[t.a].Name, *it); err != nil {
						if firstErr == nil {
							firstErr = fmt.Errorf("saving %s, question %s: %w", opt.Arms[t.a].Name, it.ID, err)
							cancel(firstErr)
						}
						mu.Unlock()
						continue
					}
				}
				results[t.a][t.q] = it
				done++
				prog.item(t.a, t.q, len(opt.Questions), opt.Arms[t.a].Name, it)
				mu.Unlock()
			}
		})
	}
feed:
	for q := range opt.Questions {
		for a := range opt.Arms {
			if results[a][q] != nil { // done earlier; a slot is written only after it is fed
				continue
			}
			select {
			case tasks <- task{q, a}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(tasks)
	wg.Wait()
	rep := buildReport(opt, results)
	// Calls made for items that did not finish (a stopped run, a failed
	// call) are in no item: said beside the figures, never in them.
	counted := 0
	for _, a := range rep.Arms {
		counted += a.Tokens
	}
	rep.UnfinishedTokens = max(int(r.spent.Load())-counted, 0)
	if firstErr != nil {
		rep.Stopped = "a call failed: " + firstErr.Error()
		return rep, firstErr
	}
	if errors.Is(context.Cause(ctx), ErrBudgetSpent) {
		rep.Stopped = r.budgetSpent()
		return rep, nil
	}
	if err := context.Cause(ctx); err != nil && ctx.Err() != nil {
		rep.Stopped = err.Error()
		return rep, err
	}
	return rep, nil
}

func orNone(s string) string {
	if s == "" {
		return "no answer"
	}
	return s
}

// item answers q with arm a.
func (r *runner) item(ctx context.Context, q Question, a Arm) (*Item, error) {
	it := &Item{ID: q.ID, Expected: q.gold}
	switch {
	case a.IsDebate():
		return it, r.debate(ctx, q, a, it)
	default:
		calls := make([]Call, a.K)
		err := r.parallel(ctx, a.K, func(ctx context.Context, k int) error {
			c, err := r.call(ctx, q, soloMessages(q), r.model(a, k), soloInfo(q, r.opt.Seed+int64(k)))
			calls[k] = c
			return err
		})
		if err != nil {
			return nil, err
		}
		for _, c := range calls {
			it.add(c)
			if a.Kind == ArmVote {
				it.Samples = append(it.Samples, c.Answer)
			}
		}
		it.Answer = Majority(answersOf(calls))
	}
	it.Correct = it.Answer != "" && it.Answer == q.gold
	return it, nil
}

func answersOf(calls []Call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Answer
	}
	return out
}

// model is arm a's model of sample or persona i: from the arm's own
// models, else Options.Models; "" for the provider's.
func (r *runner) model(a Arm, i int) string {
	ms := a.Models
	if len(ms) == 0 {
		ms = r.opt.Models
	}
	if len(ms) == 0 {
		return ""
	}
	return ms[i%len(ms)]
}

// parallel runs f(0..n-1) at once; when one fails, the others are
// cancelled, and the error returned is the first one's (the cause, not a
// cancelled sibling's).
func (r *runner) parallel(ctx context.Context, n int, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = f(ctx, i)
			if errs[i] != nil {
				cancel(errs[i])
			}
		})
	}
	wg.Wait()
	if errors.Join(errs...) == nil {
		return nil
	}
	return context.Cause(ctx)
}

// call makes one request, when a slot is free, and scores the reply.
func (r *runner) call(ctx context.Context, q Question, msgs []debate.Message, model string, info debate.TurnInfo) (Call, error) {
	if ctx.Err() != nil {
		return Call{}, context.Cause(ctx)
	}
	select {
	case r.sem <- struct{}{}:
	case <-ctx.Done():
		return Call{}, context.Cause(ctx)
	}
	defer func() { <-r.sem }()
	if r.budgetSpent() != "" {
		return Call{}, ErrBudgetSpent
	}
	var text strings.Builder
	u, err := r.opt.Provider.Stream(ctx, debate.Request{Messages: msgs, Model: model, Info: info}, func(d string) error {
		text.WriteString(d)
		return nil
	})
	if err != nil {
		return Call{}, err
	}
	c := Call{Model: model, Reply: text.String(), PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, Estimated: r.estimated}
	if u.PromptTokens == 0 && u.CompletionTokens == 0 {
		c.PromptTokens, c.CompletionTokens = estimateUsage(msgs, c.Reply)
		c.Estimated = true
	}
	r.spent.Add(int64(c.PromptTokens + c.CompletionTokens))
	label := model
	if label == "" {
		label = r.opt.Provider.Model()
	}
	// The provider's cost, else the tokens at Prices.
	c.Cost = r.opt.Prices.Apply(label, debate.Usage{PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens, Cost: max(u.Cost, 0)}).Cost
	r.addCost(c.Cost)
	c.Answer, c.Correct = Score(q, c.Reply)
	return c, nil
}

// budgetSpent says which budget is spent, in a sentence for the report,
// "" when none is (or none is set).
func (r *runner) budgetSpent() string {
	if b := r.opt.MaxTokensTotal; b > 0 && r.spent.Load() >= int64(b) {
		return fmt.Sprintf("the token budget of %d is spent: %d tokens used", b, r.spent.Load())
	}
	if b := r.opt.MaxCost; b > 0 {
		if c := r.spentCost(); c >= b {
			return fmt.Sprintf("the cost budget of %s is spent: %s used", debate.FormatDollars(b), debate.FormatDollars(c))
		}
	}
	return ""
}

// ErrNoCost marks a cost budget no cost could be counted for: the
// provider reports none and no price is given for a model. A command line
// exits 2 on it.
var ErrNoCost = errors.New("no cost to count")

// CheckCost refuses (ErrNoCost) a cost budget that could not be kept:
// the provider (by its resolved name) reports no cost, and prices have
// no entry for one of models, the models the run asks. OpenRouter
// reports each call's cost; the mock costs nothing, so a budget holds
// trivially; no other provider reports one.
func CheckCost(maxCost float64, provider string, models []string, prices debate.PriceTable) error {
	if maxCost <= 0 || provider == debate.ProviderOpenRouter || provider == debate.ProviderMock {
		return nil
	}
	for _, m := range models {
		if _, ok := prices.Lookup(m); !ok {
			return &NoCostError{Provider: provider, Model: m}
		}
	}
	return nil
}

// NoCostError is CheckCost's refusal: Provider reports no cost and no
// price is given for Model.
type NoCostError struct{ Provider, Model string }

func (e *NoCostError) Error() string {
	return fmt.Sprintf("--max-cost needs prices: the %s provider reports no cost for model %s; "+
		"give --prices FILE (a TOML file with a [prices.%q] table: prompt and completion, US dollars per million tokens) or use --max-tokens-total",
		e.Provider, e.Model, e.Model)
}

// Unwrap is ErrNoCost.
func (e *NoCostError) Unwrap() error { return ErrNoCost }

// estimateUsage counts a call's tokens when the provider reports none:
// the prompt as the mock provider counts it (debate.EstimateTokens), the
// reply at about four characters a token.
func estimateUsage(msgs []debate.Message, reply string) (prompt, completion int) {
	return debate.EstimateTokens(msgs), (len(reply) + 3) / 4
}
