package main

import (
	"fmt"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

func init() { subcommands = append(subcommands, newSeatCmd) }

func newSeatCmd() *cobra.Command {
	var (
		s                   debate.SeatSettings
		persona, tools, agt string
		fast                bool
	)
	c := &cobra.Command{
		Use:   "seat --room R --seat lead|peer (--provider P | --agent acp:X)",
		Short: "Play one seat of an MCP room with a model or a coding agent",
		Long: `Take one seat of an MCP room and play it from roundtable: a model
(--provider, --model) or a coding agent driven over ACP (--agent acp:codex)
fills it. It keeps an MCP seat's rules: it waits for its turn, answers with
the seat prompt (lead.md or peer.md) and the room so far, and posts one
message a turn. As lead it writes the spec and closes the room when the
budget is spent. While it composes, watch shows its text live.

One seat, one player: a second roundtable seat for the same seat is
refused. ctrl+c, SIGTERM or a hang-up (SIGHUP: its terminal closed) stops it;
nothing half-written is posted, and its disconnect line is written.`,
		Example: `  roundtable seat --room cache-design --seat peer --provider openrouter --model openai/gpt-4o-mini
  roundtable seat --room cache-design --seat peer --agent acp:codex --persona "Security Reviewer=assumes every new surface will be attacked"
  roundtable seat --room cache-design --seat lead --provider mock --topic "Should the cache be write-through" --budget 4`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{wordsAre: "room"},
		RunE: func(c *cobra.Command, _ []string) error {
			f := c.Flags()
			s.Room = flagOrEnv(f, seatcmd.FlagRoom, "ROUNDTABLE_ROOM")
			s.Seat = flagOrEnv(f, seatcmd.FlagSeat, "ROUNDTABLE_SEAT")
			s.Cwd = flagOrEnv(f, seatcmd.FlagCwd, "ROUNDTABLE_CWD")
			s.Agent = agt
			if s.Seat == "" {
				return usageError("--seat is required: lead, peer, or a seat of the council")
			}
			if s.Cwd != "" {
				if fi, err := os.Stat(s.Cwd); err != nil || !fi.IsDir() {
					return usageError("--cwd %q is not an existing folder", s.Cwd)
				}
			}
			if f.Changed(seatcmd.FlagAgent) && agt == "" {
				return usageError(`--agent is empty; write --agent acp:<preset> (acp:claude, acp:codex, acp:gemini, acp:qwen, acp:opencode) or --agent "acp:<command>"`)
			}
			if persona != "" {
				p, err := debate.ParseSeatPersona(persona)
				if err != nil {
					return asUsage(err)
				}
				s.Persona = p
			}
			t, err := debate.ParseAgentTools(tools)
			if err != nil {
				return asUsage(err)
			}
			s.AgentTools = t
			if !fast {
				s.Provider.Pace = debate.DefaultPace
			}
			s.Stderr, s.Progress = c.ErrOrStderr(), debate.ProgressWriter(c.ErrOrStderr(), "roundtable: ")
			s.Exe = seatcmd.Program(exec.LookPath, os.Executable)
			return playSeat(c, s)
		},
	}
	f := c.Flags()
	f.String(seatcmd.FlagRoom, "default", "room name (env ROUNDTABLE_ROOM)")
	f.String(seatcmd.FlagSeat, "", "seat to play: lead or peer, or any seat of a council (env ROUNDTABLE_SEAT)")
	f.String(seatcmd.FlagCwd, "", "folder holding .roundtable/ and the spec; default: the working directory (env ROUNDTABLE_CWD)")
	f.StringVar(&persona, seatcmd.FlagPersona, "", `who the seat speaks as, "Name=who they are"`)
	f.StringVar(&s.Provider.Name, seatcmd.FlagProvider, "", "model provider: mock, openrouter, openai, ollama (env ROUNDTABLE_PROVIDER; default mock)")
	f.StringVar(&s.Provider.Model, seatcmd.FlagModel, "", "model (env ROUNDTABLE_MODEL)")
	f.StringVar(&s.Provider.BaseURL, seatcmd.FlagBaseURL, "", "server URL of any OpenAI-compatible API, which then needs no key (env ROUNDTABLE_BASE_URL)")
	f.Var(newIntFlag(&s.Provider.MaxTokens, debate.DefaultMaxTokens, "max-tokens", 1, 0), seatcmd.FlagMaxTokens, "the max_tokens sent with every request")
	f.StringVar(&agt, seatcmd.FlagAgent, "", "a coding agent over ACP instead of a model: acp:claude, acp:codex, acp:gemini, acp:qwen, acp:opencode or \"acp:<command>\"")
	f.StringVar(&tools, seatcmd.FlagAllowAgentTools, "", "let the agent write and/or run commands: write, exec or write,exec (default: read-only)")
	f.Var(newDurationFlag(&s.TurnTimeout, debate.DefaultTurnTimeout, "turn-timeout"), seatcmd.FlagTurnTimeout, "end the turn when the model or agent sends nothing for this long")
	f.StringVar(&s.Topic, seatcmd.FlagTopic, "", "topic, used when this process creates the room")
	f.Var(newIntFlag(&s.Budget, debate.DefaultSeatBudget, "budget", 1, 0), seatcmd.FlagBudget, "rounds (lead posts), used when this process creates the room")
	f.StringVar(&s.Spec, seatcmd.FlagSpec, "", "spec path relative to --cwd, used when this process creates the room; default SPEC-<room>.md")
	f.BoolVar(&fast, seatcmd.FlagFast, false, "no pause between the mock's tokens")
	return c
}

// playSeat takes the seat, says so on stderr, plays it, and says how the
// room ended.
func playSeat(c *cobra.Command, s debate.SeatSettings) error {
	g, err := debate.TakeSeat(s)
	if err != nil {
		if debate.IsSeatUsage(err) {
			return asUsage(err)
		}
		return err
	}
	defer g.Close()
	name := g.Room().Config().Room
	fmt.Fprintf(c.ErrOrStderr(), "roundtable: playing the %s seat of room %s as %s (pid %d); ctrl+c stops.\n", s.Seat, name, g.Label(), os.Getpid())
	if err := g.Play(c.Context()); err != nil {
		return err
	}
	if st, err := g.Room().Refresh(); err == nil && st.Closed != nil {
		fmt.Fprintf(c.ErrOrStderr(), "roundtable: room %s closed (%s); the spec is %s.\n", name, st.Closed.Reason, room.SpecFor(g.Room().Config(), st.Closed))
	}
	return nil
}
