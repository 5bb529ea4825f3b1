package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/eval"
	"github.com/roundtable-dev/roundtable/room/transcript"
)

func init() { subcommands = append(subcommands, newEvalCmd) }

func newEvalCmd() *cobra.Command {
	var (
		questions, arms, format, models, outDir, pricesFile string
		opt                                                 eval.Options
	)
	// The provider flags are `debate`'s own, taken from its flag set.
	var d debateFlags
	scratch := &cobra.Command{}
	d.add(scratch, "", "")
	c := &cobra.Command{
		Use:   "eval --questions Q.jsonl",
		Short: "Measure whether a debate beats a vote at the same token budget, on your questions",
		Long: `Runs every question of a JSONL file (one {"id","question","answer"} a
line, optional "choices") through several arms and reports accuracy
against tokens: single (one answer), vote:K (K independent answers, the
majority) and three debates of --personas personas over --rounds rounds,
the opening round blind, then a moderator who reads every reply gives the
answer:

  debate   the panel as it is
  rank     the debate, then each persona ranks the others' final replies,
           shown unlabelled (Response A, B…); the moderator also reads the
           rankings, names restored, and each persona's mean position
  stances  from round 2, persona 1 argues for the proposed answer (the
           round before's majority), persona 2 against, persona 3 neutral,
           and so on in turn

The report gives each arm's accuracy with a 95 % Wilson interval and its
prompt and completion tokens (from the provider's usage; our estimate,
said so, where it gives none, as the mock), an exact McNemar test between
each pair of arms, each debate arm's oracle, flips and conformity (and
the rank arm's rankings), each debate arm against the vote curve at its
tokens, and a chart of accuracy against tokens drawn in text. Progress
goes to stderr: on a terminal a bar redrawn in place (items done, each
arm's, tokens spent, time, ETA), else a line per item; ctrl+c stops and
prints what was done. See docs/eval.md.

With --out DIR (created if need be) the reports go to DIR/report.md,
DIR/report.json and DIR/report.html (a page, its chart in SVG), and each
item is saved to DIR/items.jsonl as it lands: run the same command again
after a stop and it skips what is done. A folder made under other
questions, arms or models is refused. Each debate item is also a room in
DIR/.roundtable: roundtable tui run in DIR opens it.

--base-url alone reaches any OpenAI-compatible server; with no --model
the eval uses the model the server lists, if it lists only one. --models
a,b,c gives the models out in turn: a model per vote sample and per
persona. An arm may name its own after =, joined by +
(vote:5=a,debate=a+b+c), so one run compares models.`,
		Example: `  roundtable eval --questions gsm8k-50.jsonl --base-url http://127.0.0.1:8080/v1
  roundtable eval --questions q.jsonl --arms single,vote:3,vote:5,debate,rank,stances --provider openrouter --models openai/gpt-4o-mini,google/gemini-2.0-flash-001
  roundtable eval --questions q.jsonl --arms 'vote:5=qwen2.5:7b,debate=qwen2.5:7b+llama3.1:8b+gemma2:9b' --provider ollama
  roundtable eval --questions q.jsonl --out results/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if questions == "" {
				return usageError("--questions is required: a JSONL file of questions")
			}
			a, err := eval.ParseArms(arms)
			if err != nil {
				return asUsage(err)
			}
			if format != "md" && format != "markdown" && format != "json" {
				return usageError("--format is md or json, not %q", format)
			}
			qs, err := eval.LoadQuestions(questions)
			if err != nil {
				return asUsage(err)
			}
			opt.Models = eval.SplitModels(models)
			// The provider's model serves the arms without models of their
			// own; when every arm names its own, the first arm's first is
			// the provider's, and no server is asked for one.
			defaults, own := opt.Models, eval.ArmModels(a)
			if len(defaults) == 0 && eval.AllOwnModels(a) {
				defaults = own[:1]
			}
			pc, err := eval.ResolveProvider(d.s.Provider, defaults, os.Getenv)
			if err != nil {
				return asUsage(err)
			}
			if eval.NeedsModel(d.s.Provider, defaults, pc, os.Getenv) {
				m, err := eval.ServedModel(cmd.Context(), pc)
				switch {
				case errors.Is(err, eval.ErrModelUnknown):
					return asUsage(err)
				case err != nil:
					// Unreachable: Preflight says so in one sentence.
					pc.Model = ""
					if perr := debate.Preflight(cmd.Context(), pc); perr != nil {
						return perr
					}
					return &exitError{code: 1, err: err}
				}
				pc.Model = m
				fmt.Fprintf(cmd.ErrOrStderr(), "eval: model %s, the one the server lists\n", m)
			}
			if pricesFile != "" {
				pf, err := debate.LoadPersonaFile(pricesFile)
				if err != nil {
					return asUsage(err)
				}
				if len(pf.Prices) == 0 {
					return usageError("--prices %s has no [prices.\"MODEL\"] table; write one per model, with prompt and completion in dollars per million tokens", pricesFile)
				}
				opt.Prices = pf.Prices
			}
			var asked []string
			if !eval.AllOwnModels(a) {
				asked = opt.Models
				if len(asked) == 0 {
					asked = []string{pc.Model}
				}
			}
			asked = append(asked, own...)
			if err := eval.CheckCost(opt.MaxCost, pc.Name, asked, opt.Prices); err != nil {
				return asUsage(err)
			}
			prov, err := debate.NewProvider(pc)
			if err != nil {
				return asUsage(err)
			}
			if err := debate.Preflight(cmd.Context(), pc); err != nil {
				return err
			}
			opt.Questions, opt.Arms, opt.Provider = qs, a, prov
			opt.Progress = cmd.ErrOrStderr()
			if f, ok := opt.Progress.(interface{ Fd() uintptr }); ok && term.IsTerminal(f.Fd()) {
				// A bar redrawn in place, as wide as the terminal.
				opt.Terminal = true
				if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
					opt.Width = w - 1
				}
			}
			var saved *eval.Out
			if outDir != "" {
				var names []string
				for _, arm := range a {
					names = append(names, arm.Name)
				}
				cfg := eval.Config{
					Questions: eval.HashQuestions(qs), Arms: names, Personas: opt.Personas, Rounds: opt.Rounds,
					Models: opt.Models, Provider: pc.Name, Model: pc.Model, BaseURL: pc.BaseURL, MaxTokens: pc.MaxTokens, Seed: opt.Seed,
				}
				if pc.Name == debate.ProviderMock {
					cfg.MaxTokens = 0
				}
				var err error
				saved, opt.Done, err = eval.OpenOut(outDir, cfg)
				if errors.Is(err, eval.ErrOutChanged) {
					return asUsage(err)
				}
				if err != nil {
					return err
				}
				defer saved.Close()
				opt.OnItem = saved.Append
				opt.RoomsDir = outDir
				if len(opt.Done) > 0 {
					fmt.Fprintf(cmd.ErrOrStderr(), "eval: %d items already done in %s; resuming\n", len(opt.Done), outDir)
				}
			}
			rep, runErr := eval.Run(cmd.Context(), opt)
			if rep != nil {
				out := cmd.OutOrStdout()
				cols := textWidth(out) // 0: not a terminal
				var werr error
				switch {
				case saved != nil:
					if werr = saved.WriteReports(rep); werr == nil {
						fmt.Fprintf(out, "eval: reports in %s, %s and %s\n",
							filepath.Join(outDir, eval.ReportMD), filepath.Join(outDir, eval.ReportJSON), filepath.Join(outDir, eval.ReportHTML))
					}
				case format == "json":
					werr = rep.WriteJSON(out)
				default: // on a terminal the chart fits it and the prose breaks at words
					var md strings.Builder
					if werr = rep.WriteMarkdownIn(&md, cols); werr == nil {
						_, werr = io.WriteString(out, transcript.ForTerminal(md.String(), cols))
					}
				}
				if runErr == nil && werr != nil {
					runErr = werr
				}
			}
			if runErr != nil && !errors.Is(runErr, context.Canceled) {
				runErr = &exitError{code: 1, err: evalFailed(runErr, outDir, saved != nil)}
			}
			return runErr
		},
	}
	f := c.Flags()
	f.StringVar(&questions, "questions", "", "JSONL file of questions: {\"id\",\"question\",\"answer\"} a line, optional \"choices\"")
	f.StringVar(&arms, "arms", "single,vote:5,debate", "arms to run, comma-separated: single, vote:K, debate, rank, stances; an arm's own models after =, joined by + (debate=model-a+model-b)")
	f.Var(newIntFlag(&opt.Personas, eval.DefaultPersonas, "personas", 2, eval.MaxPersonas), "personas", "personas in the debate arms (debate, rank, stances)")
	f.Var(newIntFlag(&opt.Rounds, eval.DefaultRounds, "rounds", 1, eval.MaxRounds), "rounds", "rounds of the debate arms; round 1 is blind")
	f.Var(newIntFlag(&opt.Concurrency, eval.DefaultConcurrency, "concurrency", 1, 64), "concurrency", "calls to the provider at once")
	f.StringVar(&models, "models", "", "models given out in turn, comma-separated: one per vote sample and per persona (default: --model)")
	f.StringVar(&format, "format", "md", "report format on stdout: md or json (without --out)")
	f.Var(newIntFlag(&opt.MaxTokensTotal, 0, "max-tokens-total", 0, math.MaxInt32), "max-tokens-total",
		"stop starting calls once this many tokens are spent (0: no limit); the report covers the items finished")
	f.Var(&dollarFlag{p: &opt.MaxCost, name: "max-cost"}, "max-cost",
		`stop starting calls once they have cost this many US dollars (OpenRouter reports costs; otherwise give --prices); the report covers the items finished (default: no limit)`)
	f.StringVar(&pricesFile, "prices", "", `TOML file of [prices."MODEL"] tables (prompt and completion, US dollars per million tokens), as in a personas file: what each call costs where the provider reports no cost`)
	f.StringVar(&outDir, "out", "", "folder for report.json, report.md, report.html and each item as it lands (items.jsonl); a rerun resumes")
	f.Var(newInt64Flag(&opt.Seed, 1, "seed"), "seed", "seed of the mock's replies")
	for _, name := range []string{"provider", "model", "base-url", "max-tokens"} {
		f.AddFlag(scratch.Flags().Lookup(name))
	}
	return c
}

// evalFailed says, after a run stopped by a failed call, what is kept and
// how to go on: with --out, the items finished are in the folder and the
// same command resumes; without, nothing is kept for a rerun.
func evalFailed(err error, outDir string, saved bool) error {
	if saved {
		return fmt.Errorf("%w\nThe questions finished are kept in %s: once the cause is fixed, run the same command again to go on from there", err, outDir)
	}
	return fmt.Errorf("%w\nOnce the cause is fixed, run it again; with --out DIR a rerun keeps what finished and goes on from there", err)
}
