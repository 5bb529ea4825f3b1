package main

import (
	"os"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newDebateCmd) }

func newDebateCmd() *cobra.Command {
	var (
		opts       debate.HeadlessOptions
		personaOff bool
	)
	c := &cobra.Command{
		Use:   "debate --topic T",
		Short: "Run a persona debate without a screen and save it as a room",
		Long: `Personas argue a decision round by round, each seeing every earlier turn;
then a moderator gives a verdict. The debate is saved as a room under
<cwd>/.roundtable/ and printed as live text, JSON lines (one event a line),
or a Markdown transcript at the end.

Providers: mock (default, no key), openrouter (OPENROUTER_API_KEY), openai
(OPENAI_API_KEY), ollama (local). --base-url points any of them at another
OpenAI-compatible server (LM Studio, vLLM, llama.cpp), which needs no key.

Personas: the default trio, plus ` + "`" + `personas.toml` + "`" + ` in your config folder when
present, replaced by --personas FILE, plus each --agent "Name=who they are".`,
		Example: `  roundtable debate --topic "Should we adopt GraphQL" --rounds 2
  roundtable debate --topic "Move to Kubernetes" --agent "Cost Optimizer=a finance-minded reviewer who scrutinizes spend and ROI"
  roundtable debate --topic "Rewrite the billing service in Rust" --provider openrouter --format jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("topic") || opts.Topic == "" {
				return usageError("--topic is required: roundtable debate --topic \"Should we adopt GraphQL\"")
			}
			if opts.Rounds < debate.MinRounds || opts.Rounds > debate.MaxRounds {
				return usageError("--rounds %d: choose %d to %d", opts.Rounds, debate.MinRounds, debate.MaxRounds)
			}
			if opts.TurnTimeout <= 0 {
				return usageError("--turn-timeout %s: give a positive duration like 2m", opts.TurnTimeout)
			}
			if opts.Provider.MaxTokens < 1 {
				return usageError("--max-tokens %d: give a positive number", opts.Provider.MaxTokens)
			}
			if opts.Cwd == "" {
				opts.Cwd = os.Getenv("ROUNDTABLE_CWD")
			}
			if !personaOff {
				opts.UserPersonaFile = debate.UserPersonaFile()
			}
			err := debate.RunHeadless(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
			if debate.IsUsage(err) {
				return asUsage(err)
			}
			return err
		},
	}
	f := c.Flags()
	f.StringVar(&opts.Topic, "topic", "", "the decision to debate (required)")
	f.IntVar(&opts.Rounds, "rounds", debate.DefaultRounds, "rounds of debate, 1 to 10")
	f.StringVar(&opts.PersonasFile, "personas", "", "file of personas in TOML; they make up the panel")
	f.StringArrayVar(&opts.Agents, "agent", nil, `add a persona, "Name=who they are" (repeatable)`)
	f.BoolVar(&personaOff, "no-user-personas", false, "ignore personas.toml in the user config folder")
	f.StringVar(&opts.Provider.Name, "provider", "", "one of mock, openrouter, openai, ollama (env ROUNDTABLE_PROVIDER; default mock)")
	f.StringVar(&opts.Provider.Model, "model", "", "model for every persona without its own (env ROUNDTABLE_MODEL)")
	f.StringVar(&opts.Provider.BaseURL, "base-url", "", "server URL of any OpenAI-compatible API, which then needs no key (env ROUNDTABLE_BASE_URL)")
	f.IntVar(&opts.Provider.MaxTokens, "max-tokens", debate.DefaultMaxTokens, "the max_tokens sent with every request")
	f.StringVar(&opts.Format, "format", debate.FormatText, "output: text (live), jsonl (events) or md (transcript at the end)")
	f.StringVar(&opts.Room, "room", "", "room name to save the debate in (default: from the topic and time)")
	f.StringVar(&opts.Cwd, "cwd", "", "folder whose .roundtable/ holds the room (env ROUNDTABLE_CWD; default .)")
	f.BoolVar(&opts.Fast, "fast", false, "no pause between the mock's tokens")
	f.Int64Var(&opts.Seed, "seed", 1, "seed of the mock's debate (same seed, same debate)")
	f.BoolVar(&opts.BlindOpening, "blind-opening", false, "round 1 answered in parallel, nobody seeing the others")
	f.BoolVar(&opts.StopOnConsensus, "stop-on-consensus", false, "stop early when the moderator finds consensus after a round")
	f.DurationVar(&opts.TurnTimeout, "turn-timeout", debate.DefaultTurnTimeout, "end the debate when a provider sends no token for this long")
	return c
}
