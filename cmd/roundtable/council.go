package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

func init() { subcommands = append(subcommands, newCouncilCmd) }

// councilOptions are the flags of "roundtable council".
type councilOptions struct {
	c          debate.Council
	file, cwd  string
	seats      []string
	agentTools string
}

func newCouncilCmd() *cobra.Command {
	var o councilOptions
	c := &cobra.Command{
		Use:   `council --topic T [--room R] --seat "name=mind" ... [--file council.toml]`,
		Short: "Start a council: a room of two to eight seats, any mind in each",
		Long: `Create a room whose seats take turns in order (the lead first, then each
seat as given; one round is every seat once) and put a mind in each seat:

  name=model:<provider>[/<model>]  a model roundtable plays (model:mock needs no key)
  name=acp:<agent>                 a coding agent roundtable drives over ACP
                                   (acp:claude, acp:codex, acp:gemini, acp:qwen, acp:opencode)
  name=mcp                         an MCP agent you start: the line to add its
                                   server and its prompt are printed
  name=person                      you, with roundtable watch --take name

Without a lead seat the lead is an MCP agent you start. The command prints
the setup of the seats you start, then plays the model and agent seats
until the room closes (Ctrl-C stops them). A council file (TOML: room,
topic, budget, spec and [[seat]] name, mind) may give it all instead;
flags given beside it win.

Exit codes: 2 for a wrong command line or council, 1 when a seat cannot
be played.`,
		Example: `  roundtable council --room cache --topic "Write-through cache?" --seat "critic=acp:codex" --seat "security=model:mock" --seat "peer=mcp"
  roundtable council --file council.toml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCouncil(cmd, o) },
	}
	f := c.Flags()
	f.StringVar(&o.c.Room, "room", "", "the council's room (env ROUNDTABLE_ROOM); default: a new room named after the topic")
	f.StringVar(&o.c.Topic, "topic", "", "what the council should decide")
	f.IntVar(&o.c.Budget, "budget", 0, "rounds (lead posts) allowed; default 12")
	f.StringVar(&o.c.Spec, "spec", "", "spec path relative to --cwd; default SPEC-<room>.md")
	f.StringArrayVar(&o.seats, "seat", nil, `a seat and its mind, "name=mind" (repeatable; in turn order after the lead)`)
	f.StringVar(&o.file, "file", "", "a council file (TOML)")
	f.StringVar(&o.cwd, "cwd", "", "the folder that holds .roundtable (env ROUNDTABLE_CWD; default: the current folder)")
	f.StringVar(&o.agentTools, "allow-agent-tools", "", "let the seats' coding agents go beyond reading: write, exec or write,exec (default: read-only)")
	return c
}

func runCouncil(cmd *cobra.Command, o councilOptions) error {
	c := o.c
	if o.file != "" {
		fc, err := debate.LoadCouncil(o.file)
		if err != nil {
			return usageError("%v", err)
		}
		if c.Room == "" {
			c.Room = fc.Room
		}
		if c.Topic == "" {
			c.Topic = fc.Topic
		}
		if c.Budget == 0 {
			c.Budget = fc.Budget
		}
		if c.Spec == "" {
			c.Spec = fc.Spec
		}
		c.Seats = fc.Seats
	}
	if c.Room == "" {
		c.Room = os.Getenv("ROUNDTABLE_ROOM")
	}
	for _, s := range o.seats {
		cs, err := debate.ParseCouncilSeat(s)
		if err != nil {
			return usageError("%v", err)
		}
		c.Seats = append(c.Seats, cs)
	}
	if c.Topic == "" {
		return usageError("--topic is required: say what the council should decide")
	}
	cwd := o.cwd
	if cwd == "" {
		cwd = os.Getenv("ROUNDTABLE_CWD")
	}
	c.NameRoom(cwd)
	if err := c.Normalize(); err != nil {
		return usageError("%v", err)
	}
	tools, err := debate.ParseAgentTools(o.agentTools)
	if err != nil {
		return usageError("%v", err)
	}
	// The setup lines name the command as typed when it is the one on PATH.
	exe := seatcmd.Program(exec.LookPath, os.Executable)
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = debate.RunCouncil(ctx, c, debate.CouncilOptions{Cwd: cwd, AgentTools: tools, Setup: cmd.OutOrStdout(), Exe: exe})
	if errors.Is(err, ctx.Err()) && ctx.Err() != nil {
		return nil // stopped by Ctrl-C: the played seats said goodbye
	}
	return err
}
