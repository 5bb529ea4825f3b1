package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
)

// debateFlags are the debate settings that `debate` and `tui` share.
type debateFlags struct {
	opts       debate.HeadlessOptions
	personaOff bool
}

// add registers the shared flags; topicHelp and roomHelp say what --topic
// and --room mean for the command.
func (d *debateFlags) add(c *cobra.Command, topicHelp, roomHelp string) {
	o := &d.opts
	f := c.Flags()
	f.StringVar(&o.Topic, "topic", "", topicHelp)
	f.IntVar(&o.Rounds, "rounds", debate.DefaultRounds, "rounds of debate, 1 to 10")
	f.StringVar(&o.PersonasFile, "personas", "", "file of personas in TOML; they make up the panel")
	f.StringArrayVar(&o.Agents, "agent", nil, `add a persona, "Name=who they are" (repeatable)`)
	f.BoolVar(&d.personaOff, "no-user-personas", false, "ignore personas.toml in the user config folder")
	f.StringVar(&o.Provider.Name, "provider", "", "one of mock, openrouter, openai, ollama (env ROUNDTABLE_PROVIDER; default mock)")
	f.StringVar(&o.Provider.Model, "model", "", "model for every persona without its own (env ROUNDTABLE_MODEL)")
	f.StringVar(&o.Provider.BaseURL, "base-url", "", "server URL of any OpenAI-compatible API, which then needs no key (env ROUNDTABLE_BASE_URL)")
	f.IntVar(&o.Provider.MaxTokens, "max-tokens", debate.DefaultMaxTokens, "the max_tokens sent with every request")
	f.StringVar(&o.Room, "room", "", roomHelp)
	f.StringVar(&o.Cwd, "cwd", "", "folder whose .roundtable/ holds the rooms (env ROUNDTABLE_CWD; default .)")
	f.BoolVar(&o.Fast, "fast", false, "no pause between the mock's tokens")
	f.Int64Var(&o.Seed, "seed", 1, "seed of the mock's debate (same seed, same debate)")
	f.BoolVar(&o.BlindOpening, "blind-opening", false, "round 1 answered in parallel, nobody seeing the others")
	f.BoolVar(&o.StopOnConsensus, "stop-on-consensus", false, "stop early when the moderator finds consensus after a round")
	f.DurationVar(&o.TurnTimeout, "turn-timeout", debate.DefaultTurnTimeout, "end the debate when a provider sends no token for this long")
}

// check refuses settings no debate can run with (exit 2) and fills in
// what comes from the environment and the user's config folder.
func (d *debateFlags) check(c *cobra.Command) error {
	o := &d.opts
	if c.Flags().Changed("rounds") && (o.Rounds < debate.MinRounds || o.Rounds > debate.MaxRounds) {
		return usageError("--rounds %d: choose %d to %d", o.Rounds, debate.MinRounds, debate.MaxRounds)
	}
	if o.TurnTimeout <= 0 {
		return usageError("--turn-timeout %s: give a positive duration like 2m", o.TurnTimeout)
	}
	if o.Provider.MaxTokens < 1 {
		return usageError("--max-tokens %d: give a positive number", o.Provider.MaxTokens)
	}
	if o.Cwd == "" {
		o.Cwd = os.Getenv("ROUNDTABLE_CWD")
	}
	if !d.personaOff {
		o.UserPersonaFile = debate.UserPersonaFile()
	}
	return nil
}
