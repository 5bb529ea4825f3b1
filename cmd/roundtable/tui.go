package main

import (
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/app"
)

func init() { subcommands = append(subcommands, newTUICmd) }

func newTUICmd() *cobra.Command {
	var (
		opts       app.Options
		personaOff bool
	)
	c := &cobra.Command{
		Use:   "tui",
		Short: "The terminal app: your rooms, new debates, new MCP rooms",
		Long: `Open roundtable's terminal app. The home screen lists the rooms in
<cwd>/.roundtable (persona debates and MCP rooms, newest first): enter opens
one, n starts a persona debate, m opens an MCP room for two coding agents.

With --topic the app skips the home screen and starts the debate at once;
the other debate flags are those of "roundtable debate" and, without
--topic, fill in the new-debate form. Debates are saved as rooms as they go.

Providers: mock (default, no key), openrouter (OPENROUTER_API_KEY), openai
(OPENAI_API_KEY), ollama (local); --base-url points any of them at another
OpenAI-compatible server.`,
		Example: `  roundtable tui
  roundtable tui --topic "Should we adopt GraphQL" --rounds 2
  roundtable tui --cwd ../service --provider openrouter`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("topic") && opts.Topic == "" {
				return usageError("--topic is empty: give the decision to debate, or leave --topic out for the home screen")
			}
			if cmd.Flags().Changed("rounds") && (opts.Rounds < debate.MinRounds || opts.Rounds > debate.MaxRounds) {
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
			opts.Context = cmd.Context()
			opts.Dark = true
			err := app.Run(opts)
			if debate.IsUsage(err) || errors.Is(err, app.ErrBadCwd) {
				return asUsage(err)
			}
			return err
		},
	}
	f := c.Flags()
	f.StringVar(&opts.Cwd, "cwd", "", "folder whose .roundtable/ holds the rooms (env ROUNDTABLE_CWD; default .)")
	f.StringVar(&opts.Topic, "topic", "", "start a debate on this topic at once, skipping the home screen")
	f.IntVar(&opts.Rounds, "rounds", debate.DefaultRounds, "rounds of debate, 1 to 10")
	f.StringVar(&opts.PersonasFile, "personas", "", "TOML persona file; its personas make up the panel")
	f.StringArrayVar(&opts.Agents, "agent", nil, `add a persona, "Name=who they are" (repeatable)`)
	f.BoolVar(&personaOff, "no-user-personas", false, "ignore personas.toml in the user config folder")
	f.StringVar(&opts.Provider.Name, "provider", "", "mock, openrouter, openai or ollama (env ROUNDTABLE_PROVIDER; default mock)")
	f.StringVar(&opts.Provider.Model, "model", "", "model for every persona without its own (env ROUNDTABLE_MODEL)")
	f.StringVar(&opts.Provider.BaseURL, "base-url", "", "OpenAI-compatible server URL; no key needed (env ROUNDTABLE_BASE_URL)")
	f.IntVar(&opts.Provider.MaxTokens, "max-tokens", debate.DefaultMaxTokens, "max_tokens sent with every request")
	f.BoolVar(&opts.Fast, "fast", false, "no pause between the mock's tokens")
	f.Int64Var(&opts.Seed, "seed", 1, "seed of the mock's debate (same seed, same debate)")
	f.StringVar(&opts.Room, "room", "", "with --topic: the room to save the debate in (default: from the topic and time)")
	f.BoolVar(&opts.BlindOpening, "blind-opening", false, "round 1 answered in parallel, nobody seeing the others")
	f.BoolVar(&opts.StopOnConsensus, "stop-on-consensus", false, "stop early when the moderator finds consensus after a round")
	f.DurationVar(&opts.TurnTimeout, "turn-timeout", debate.DefaultTurnTimeout, "end the debate when a provider sends no token for this long")
	return c
}
