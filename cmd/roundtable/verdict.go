package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
)

func init() { subcommands = append(subcommands, newVerdictCmd) }

// verdictOptions are the flags of "roundtable verdict".
type verdictOptions struct {
	room, cwd string
	provider  debate.ProviderConfig
	fast      bool
}

func newVerdictCmd() *cobra.Command {
	var o verdictOptions
	c := &cobra.Command{
		Use:   "verdict --room R [--cwd DIR] [--provider P --model M]",
		Short: "Ask the moderator for a verdict on an MCP room, saved beside its spec",
		Long: `Ask the moderator for the structured verdict a persona debate ends with
(decision, confidence, where the seats agreed, dissent in the dissenter's
words, risks, next steps) over an MCP room's transcript: every seat's
messages and the notes, in order. The verdict streams to stdout as it is
written and is saved beside the room's spec, its name ending .verdict.md
(SPEC-cache-design.verdict.md); a later verdict replaces it. The room may
be open or closed.

The moderator is a model: --provider and --model as for roundtable debate
(the mock by default, which needs no key).

Exit codes: 2 for a wrong command line, 1 when the room does not exist, is
a persona debate (it has its verdict), has no message yet, or the model
fails.`,
		Example: `  roundtable verdict --room cache-design
  roundtable verdict --room cache-design --provider openrouter --model openai/gpt-4o-mini`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{wordsAre: "room"},
		RunE:        func(cmd *cobra.Command, _ []string) error { return runVerdict(cmd, o) },
	}
	f := c.Flags()
	f.StringVar(&o.room, "room", "", "the room to judge (env ROUNDTABLE_ROOM)")
	f.StringVar(&o.cwd, "cwd", "", "the folder that holds .roundtable (env ROUNDTABLE_CWD; default: the current folder)")
	f.StringVar(&o.provider.Name, "provider", "", "one of mock, openrouter, openai, ollama (env ROUNDTABLE_PROVIDER; default mock)")
	f.StringVar(&o.provider.Model, "model", "", "the moderator's model (env ROUNDTABLE_MODEL)")
	f.StringVar(&o.provider.BaseURL, "base-url", "", "server URL of any OpenAI-compatible API, which then needs no key (env ROUNDTABLE_BASE_URL)")
	f.Var(newIntFlag(&o.provider.MaxTokens, debate.DefaultMaxTokens, "max-tokens", 1, 0), "max-tokens", "the max_tokens sent with the request")
	f.BoolVar(&o.fast, "fast", false, "no pause between the mock's tokens")
	return c
}

func runVerdict(cmd *cobra.Command, o verdictOptions) error {
	var err error
	if o.room, o.cwd, err = roomFromFlags(o.room, o.cwd, "judge"); err != nil {
		return err
	}
	r, _, err := openNamedRoom(o.room, o.cwd)
	if err != nil {
		return err
	}
	if !o.fast {
		o.provider.Pace = debate.DefaultPace
	}
	pc, err := debate.ResolveProvider(o.provider, os.Getenv)
	if err != nil {
		return err
	}
	p, err := debate.NewProvider(pc)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := cmd.OutOrStdout()
	if w := textWidth(out); w > 0 {
		// On a terminal the verdict breaks at words, as debate's text does.
		ww := debate.NewWrapWriter(out, w)
		defer func() { _ = ww.Flush() }()
		out = ww
	}
	path, err := debate.SaveRoomVerdict(ctx, r, p, func(s string) error {
		_, werr := fmt.Fprint(out, s)
		return werr
	})
	fmt.Fprintln(out)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return errors.New("stopped before the verdict was whole; nothing was saved")
		}
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "roundtable: the verdict on room %s is saved in %s\n", o.room, path)
	return nil
}
