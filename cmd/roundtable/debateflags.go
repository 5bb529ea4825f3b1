package main

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
)

// debateFlags are the debate settings that `debate` and `tui` share.
type debateFlags struct {
	s          debate.Settings
	panel      debate.PanelOptions
	personaOff bool
	fast       bool
	agentTools string
}

// add registers the shared flags; topicHelp and roomHelp say what --topic
// and --room mean for the command.
func (d *debateFlags) add(c *cobra.Command, topicHelp, roomHelp string) {
	s := &d.s
	f := c.Flags()
	f.StringVar(&s.Config.Topic, "topic", "", topicHelp)
	f.Var(newIntFlag(&s.Config.Rounds, debate.DefaultRounds, "rounds", debate.MinRounds, debate.MaxRounds), "rounds", "rounds of debate, 1 to 10")
	f.StringVar(&d.panel.File, "personas", "", "file of personas in TOML; they make up the panel")
	f.StringArrayVar(&d.panel.Agents, "agent", nil, `add a persona, "Name=who they are", or one a coding agent speaks for over ACP, "Name=acp:claude" (presets: `+strings.Join(debate.AgentPresets(), ", ")+`; or acp:<command>); "Moderator=acp:codex" gives the verdict to an agent (repeatable)`)
	f.StringVar(&d.agentTools, "allow-agent-tools", "", "let the personas' coding agents go beyond reading: write, exec or write,exec (default: read-only)")
	f.BoolVar(&d.personaOff, "no-user-personas", false, "ignore personas.toml in the user config folder")
	f.StringVar(&s.Provider.Name, "provider", "", "one of mock, openrouter, openai, ollama (env ROUNDTABLE_PROVIDER; default mock)")
	f.StringVar(&s.Provider.Model, "model", "", "model for every persona without its own (env ROUNDTABLE_MODEL)")
	f.StringVar(&s.Provider.BaseURL, "base-url", "", "server URL of any OpenAI-compatible API, which then needs no key (env ROUNDTABLE_BASE_URL)")
	f.Var(newIntFlag(&s.Provider.MaxTokens, debate.DefaultMaxTokens, "max-tokens", 1, 0), "max-tokens", "the max_tokens sent with every request")
	f.StringVar(&s.Room, "room", "", roomHelp)
	f.StringVar(&s.Cwd, "cwd", "", "folder whose .roundtable/ holds the rooms (env ROUNDTABLE_CWD; default .)")
	f.BoolVar(&d.fast, "fast", false, "no pause between the mock's tokens")
	f.Var(newInt64Flag(&s.Config.Seed, 1, "seed"), "seed", "seed of the mock's debate (same seed, same debate)")
	f.BoolVar(&s.Config.BlindOpening, "blind-opening", false, "round 1 answered in parallel, nobody seeing the others")
	f.BoolVar(&s.Config.Stances, "stances", false, "assign the personas without a stance of their own for, against and neutral on the decision, in turn")
	f.BoolVar(&s.Config.Rank, "rank", false, "after the last round each persona ranks the others' final turns, unlabelled; the moderator reads the rankings")
	f.BoolVar(&s.Config.StopOnConsensus, "stop-on-consensus", false, "stop early when the moderator finds consensus after a round")
	f.BoolVar(&s.Config.PauseBetweenRounds, "pause-between-rounds", false, "wait for you after each round: enter goes on, i speaks to the panel (debate: a line on stdin, a non-blank one a note)")
	f.Var(newDurationFlag(&s.Config.TurnTimeout, debate.DefaultTurnTimeout, "turn-timeout"), "turn-timeout", "end the debate when a provider sends no token for this long")
	addBudgetFlags(c, &s.Config)
}

// settings is the debate the flags describe, the same for `debate` and
// `tui`, with what comes from the environment and the user's config
// folder filled in, and the panel of personas on offer. The personas
// switched on in the panel are the settings' personas. Nothing is checked
// here but the persona files and --agent values (read to build the
// panel): debate.Start checks the rest.
func (d *debateFlags) settings() (debate.Settings, debate.Panel, error) {
	s := d.s
	if s.Cwd == "" {
		s.Cwd = os.Getenv("ROUNDTABLE_CWD")
	}
	if !d.fast {
		s.Provider.Pace = debate.DefaultPace
	}
	tools, err := debate.ParseAgentTools(d.agentTools)
	if err != nil {
		return s, debate.Panel{}, err
	}
	s.AgentTools = tools
	po := d.panel
	if !d.personaOff {
		po.UserFile = debate.UserPersonaFile()
	}
	panel, err := debate.LoadPanel(po)
	if err != nil {
		return s, panel, err
	}
	return s.WithPanel(panel), panel, nil
}
