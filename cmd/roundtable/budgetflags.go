package main

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
)

// addBudgetFlags registers --max-cost and --max-tokens-total, the
// debate's budgets, on c.
func addBudgetFlags(c *cobra.Command, cfg *debate.Config) {
	f := c.Flags()
	f.Var(&dollarFlag{p: &cfg.MaxCost, name: "max-cost"}, "max-cost",
		`stop the debate once it has cost this many US dollars (OpenRouter reports costs; otherwise a [prices."model"] table in a personas file gives them), then the moderator gives a verdict on what was said (default: no limit)`)
	f.Var(&tokenBudgetFlag{p: &cfg.MaxTokensTotal, name: "max-tokens-total"}, "max-tokens-total",
		"stop the debate once its prompt and completion tokens reach this many, then the moderator gives a verdict on what was said (default: no limit)")
}

// dollarFlag is an amount of US dollars, more than 0.
type dollarFlag struct {
	p    *float64
	name string
}

func (f *dollarFlag) String() string {
	if *f.p == 0 {
		return ""
	}
	return strconv.FormatFloat(*f.p, 'f', -1, 64)
}
func (f *dollarFlag) Type() string { return "dollars" }

// Set reads the amount as the new-debate form's field does
// (debate.ParseCostBudget).
func (f *dollarFlag) Set(s string) error {
	d, err := debate.ParseCostBudget("--"+f.name, s)
	if err != nil {
		return &flagValueError{msg: err.Error()}
	}
	*f.p = d
	return nil
}

// tokenBudgetFlag is a number of tokens, 1 or more.
type tokenBudgetFlag struct {
	p    *int
	name string
}

func (f *tokenBudgetFlag) String() string { return strconv.Itoa(*f.p) }
func (f *tokenBudgetFlag) Type() string   { return "int" }

// Set reads the number as the new-debate form's field does
// (debate.ParseTokenBudget).
func (f *tokenBudgetFlag) Set(s string) error {
	n, err := debate.ParseTokenBudget("--"+f.name, s)
	if err != nil {
		return &flagValueError{msg: err.Error()}
	}
	*f.p = n
	return nil
}

// resumeConflicts are the flags --resume refuses: the debate resumed is
// the room's own.
var resumeConflicts = []string{"topic", "room", "rounds", "personas", "agent"}

// checkResume refuses flags that --resume would have to ignore.
func checkResume(c *cobra.Command, ref string) error {
	if ref == "" {
		return nil
	}
	for _, name := range resumeConflicts {
		if c.Flags().Changed(name) {
			return usageError("--resume continues the room's own debate (its topic, panel and rounds); leave out --%s", name)
		}
	}
	return nil
}

// roomFlag is a room's name or folder; its help reads "--resume ROOM".
type roomFlag struct{ p *string }

func (f *roomFlag) String() string     { return *f.p }
func (f *roomFlag) Type() string       { return "ROOM" }
func (f *roomFlag) Set(s string) error { *f.p = s; return nil }
