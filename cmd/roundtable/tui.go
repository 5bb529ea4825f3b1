package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/app"
)

func init() { subcommands = append(subcommands, newTUICmd) }

func newTUICmd() *cobra.Command {
	var d debateFlags
	c := &cobra.Command{
		Use:        "tui",
		SuggestFor: []string{"ui", "app", "start"},
		Short:      "The terminal app: your rooms, new debates, new MCP rooms",
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
			if cmd.Flags().Changed("topic") && d.s.Config.Topic == "" {
				return usageError("--topic is empty: give the decision to debate, or leave --topic out for the home screen")
			}
			s, panel, err := d.settings()
			if err == nil {
				err = app.Run(app.Options{Cwd: s.Cwd, Debate: s, Panel: panel, Context: cmd.Context(), Dark: true})
			}
			if debate.IsUsage(err) || errors.Is(err, app.ErrBadCwd) {
				return asUsage(err)
			}
			return err
		},
	}
	d.add(c, "start a debate on this topic at once, skipping the home screen",
		"with --topic: the room to save the debate in (default: from the topic and time)")
	return c
}
