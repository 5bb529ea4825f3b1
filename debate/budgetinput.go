package debate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The budgets as a person types them: on the command line (--max-cost,
// --max-tokens-total) or in the new-debate form's fields. Both read them
// here, so a value one takes the other takes, and both refuse a bad one
// with the same sentence, naming the setting as the person knows it.

// CostBudgetRule and TokenBudgetRule say what a budget takes, as its
// refusal words it.
const (
	CostBudgetRule  = "an amount of dollars of more than 0 like 0.50"
	TokenBudgetRule = "a number of 1 or more"
)

// ParseCostBudget reads a cost budget in US dollars, more than 0, with or
// without a leading "$". label names the setting in the refusal: "--max-cost
// must be an amount of dollars of more than 0 like 0.50, not \"lots\"".
func ParseCostBudget(label, s string) (float64, error) {
	d, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(s), "$"), 64)
	if err != nil || d <= 0 || math.IsInf(d, 0) || math.IsNaN(d) {
		return 0, badBudget(label, CostBudgetRule, s)
	}
	return d, nil
}

// ParseTokenBudget reads a budget of prompt plus completion tokens, 1 or
// more; label names the setting in the refusal, as ParseCostBudget's.
func ParseTokenBudget(label, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return 0, badBudget(label, TokenBudgetRule, s)
	}
	return n, nil
}

// badBudget is the refusal of value for the setting label.
func badBudget(label, rule, value string) error {
	return fmt.Errorf("%s must be %s, not %q", label, rule, value)
}

// NoCostError refuses a cost budget nothing could ever spend: the debate's
// provider reports no cost (only OpenRouter does) and no price table
// prices any model. It wraps ErrBadConfig; a form finds it with errors.As
// to word it for its field (Sentence).
type NoCostError struct {
	Provider string // the provider that reports no cost
}

// Error is the refusal as the command line words it.
func (e *NoCostError) Error() string {
	return ErrBadConfig.Error() + ": " + e.Sentence("--max-cost", "--max-tokens-total")
}

// Unwrap is ErrBadConfig.
func (e *NoCostError) Unwrap() error { return ErrBadConfig }

// Sentence is the refusal naming the cost budget and the token budget as
// the person set them: the flags, or a form's fields.
func (e *NoCostError) Sentence(cost, tokens string) string {
	return fmt.Sprintf("%s needs a cost to count, and the %s provider reports none; add a [prices.\"MODEL\"] table to a personas file (see roundtable debate --help) or use %s", cost, e.Provider, tokens)
}

// CheckCostSource refuses (with a NoCostError) a cost budget in cfg that
// nothing could spend under the provider pc: Prepare's check, for a form
// to make before it asks for the debate.
func CheckCostSource(cfg Config, pc ProviderConfig) error {
	if cfg.MaxCost <= 0 || pc.Name == ProviderOpenRouter || len(cfg.Prices) > 0 {
		return nil
	}
	return &NoCostError{Provider: pc.Name}
}
