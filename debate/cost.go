package debate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/roundtable-dev/roundtable/prompts"
	"github.com/roundtable-dev/roundtable/room"
)

// Price is what a model costs, in US dollars per million tokens, as a
// persona file's price table gives it:
//
//	[prices."openai/gpt-4o-mini"]
//	prompt     = 0.15   # dollars per million prompt tokens
//	completion = 0.60   # dollars per million completion tokens
type Price struct {
	Prompt     float64 `toml:"prompt"`
	Completion float64 `toml:"completion"`
}

// PriceTable is the price of each model, by the model's name as the
// debate labels it (ModelLabel: "openai/gpt-4o-mini", "gpt-4o-mini").
type PriceTable map[string]Price

// Cost is what u costs at p, in dollars.
func (p Price) Cost(u Usage) float64 {
	return (float64(u.PromptTokens)*p.Prompt + float64(u.CompletionTokens)*p.Completion) / 1e6
}

// Lookup is the price of model: its own entry, else one whose name
// differs only in case.
func (t PriceTable) Lookup(model string) (Price, bool) {
	if p, ok := t[model]; ok {
		return p, true
	}
	for k, p := range t {
		if strings.EqualFold(k, model) {
			return p, true
		}
	}
	return Price{}, false
}

// Apply gives u a cost where the provider reported none and the table
// prices model; a cost the provider reported (OpenRouter's usage
// accounting) always stands.
func (t PriceTable) Apply(model string, u Usage) Usage {
	if u.Cost > 0 || len(t) == 0 {
		return u
	}
	if p, ok := t.Lookup(model); ok {
		u.Cost = p.Cost(u)
	}
	return u
}

// checkPrices refuses a price no debate could use: negative, not a
// number or infinite, or for a model with no name.
func checkPrices(where string, t PriceTable) error {
	for model, p := range t {
		if strings.TrimSpace(model) == "" {
			return fmt.Errorf("%w: %s: a price for a model with no name; write [prices.\"openai/gpt-4o-mini\"]", ErrBadPersona, where)
		}
		for _, v := range []float64{p.Prompt, p.Completion} {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s: the price of %q must be dollars per million tokens, zero or more", ErrBadPersona, where, model)
			}
		}
	}
	return nil
}

// mergePrices adds add's prices to t (add wins), returning the result.
func mergePrices(t, add PriceTable) PriceTable {
	if len(add) == 0 {
		return t
	}
	out := make(PriceTable, len(t)+len(add))
	for k, v := range t {
		out[k] = v
	}
	for k, v := range add {
		out[k] = v
	}
	return out
}

// checkBudget refuses a budget no debate could keep.
func (c Config) checkBudget() error {
	switch {
	case c.MaxCost < 0 || math.IsNaN(c.MaxCost) || math.IsInf(c.MaxCost, 0):
		return fmt.Errorf("%w: --max-cost %v; give dollars, like 0.50", ErrBadConfig, c.MaxCost)
	case c.MaxTokensTotal < 0:
		return fmt.Errorf("%w: --max-tokens-total %d; give a positive number of tokens", ErrBadConfig, c.MaxTokensTotal)
	}
	return nil
}

// BudgetReached says which budget of cfg the total spends (reaches or
// passes), in a sentence for the screen, the output and the room's close
// reason; "" when none is spent or cfg sets none.
func BudgetReached(cfg Config, total Usage) string {
	if n := total.PromptTokens + total.CompletionTokens; cfg.MaxTokensTotal > 0 && n >= cfg.MaxTokensTotal {
		return fmt.Sprintf("the token budget of %d was reached (%d tokens spent)", cfg.MaxTokensTotal, n)
	}
	if cfg.MaxCost > 0 && total.Cost >= cfg.MaxCost {
		return fmt.Sprintf("the cost budget of %s was reached (%s spent)", FormatDollars(cfg.MaxCost), FormatDollars(total.Cost))
	}
	return ""
}

// FormatTokens writes a count of tokens as screens show it: 950, 12.3k,
// 1.2M. It and FormatDollars are the one way tokens and money are written
// wherever a figure is shown (header, columns, status line, summaries).
func FormatTokens(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 1_000_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64) + "M"
}

// FormatDollars writes an amount of dollars as screens show it
// (prompts.Dollars).
func FormatDollars(d float64) string { return prompts.Dollars(d) }

// ReasonBudget starts the close reason of a debate stopped at its budget
// and given its verdict: "complete: the cost budget of $0.50 was reached
// ($0.5012 spent)". IsComplete holds for it.
const ReasonBudget = ReasonComplete + ": "

// IsComplete reports whether a debate room's close reason says the debate
// reached its verdict: ReasonComplete, or a budget stop (ReasonBudget).
func IsComplete(reason string) bool {
	return reason == ReasonComplete || strings.HasPrefix(reason, ReasonBudget)
}

// budgetSpent reports whether the debate's total has spent a budget after
// persona i's turn in round, with turns left to stop (after the last one
// the verdict comes anyway).
func (r *run) budgetSpent(round, i int) bool {
	last := round == r.cfg.Rounds && i == len(r.cfg.Personas)-1
	return !last && BudgetReached(r.cfg, r.total) != ""
}

// stopForBudget ends the rounds after the turn of persona i in round: the
// other blind-opening replies still generating are stopped, a budget
// event says which budget was spent, and the moderator gives a verdict on
// what was said.
func (r *run) stopForBudget(round int, gens []*gen, i int) error {
	for j := i + 1; j < len(gens); j++ {
		if gens[j] != nil {
			gens[j].cancel(nil)
		}
	}
	r.held = round
	total := r.total
	if !r.send(Event{Type: EventBudget, Round: round, Text: BudgetReached(r.cfg, total), Usage: &total}) {
		return errCancelled
	}
	return r.verdict()
}

// roomUsage is u as a room message stores it; nil for none.
func roomUsage(u *Usage) *room.Usage {
	if u == nil || *u == (Usage{}) {
		return nil
	}
	ru := room.Usage(*u)
	return &ru
}

// UsageOf is what a room message's usage says, zero when it has none.
func UsageOf(m room.Message) Usage {
	if m.Usage == nil {
		return Usage{}
	}
	return Usage(*m.Usage)
}
