package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/mcpserver"
)

func init() {
	subcommands = append(subcommands, newServeCmd, newSeedCmd, newSeatsCmd, newVersionCmd)
}

// seatFlags are the server's flags; each also reads ROUNDTABLE_<NAME>.
type seatFlags struct {
	room, seat, agent, topic, cwd, spec string
	budget                              int
}

func addServeFlags(c *cobra.Command) {
	f := c.Flags()
	f.String("room", "default", "room name (env ROUNDTABLE_ROOM)")
	f.String("seat", "lead", "seat to hold: lead, peer, or a seat of a council (roundtable seed --seats) (env ROUNDTABLE_SEAT)")
	f.String("agent", "", "agent label shown to the other seat; default: the seat (env ROUNDTABLE_AGENT)")
	f.String("topic", "", "topic, used when this process creates the room (env ROUNDTABLE_TOPIC)")
	f.Var(newIntFlag(new(int), 12, "budget", 1, 0), "budget", "rounds: lead posts allowed, used when this process creates the room (env ROUNDTABLE_BUDGET)")
	f.String("cwd", "", "folder holding .roundtable/ and the spec; default: the working directory (env ROUNDTABLE_CWD)")
	f.String("spec", "", "spec path relative to --cwd, used when this process creates the room; default SPEC-<room>.md (env ROUNDTABLE_SPEC)")
}

// flagOrEnv returns the flag's value when it was set, else the environment
// variable's when set, else the flag's default.
func flagOrEnv(f *pflag.FlagSet, name, env string) string {
	fl := f.Lookup(name)
	if fl == nil {
		return ""
	}
	if fl.Changed {
		return fl.Value.String()
	}
	if v, ok := os.LookupEnv(env); ok && v != "" {
		return v
	}
	return fl.DefValue
}

func readSeatFlags(c *cobra.Command) (seatFlags, error) {
	f := c.Flags()
	sf := seatFlags{
		room:  flagOrEnv(f, "room", "ROUNDTABLE_ROOM"),
		seat:  flagOrEnv(f, "seat", "ROUNDTABLE_SEAT"),
		agent: flagOrEnv(f, "agent", "ROUNDTABLE_AGENT"),
		topic: flagOrEnv(f, "topic", "ROUNDTABLE_TOPIC"),
		cwd:   flagOrEnv(f, "cwd", "ROUNDTABLE_CWD"),
		spec:  flagOrEnv(f, "spec", "ROUNDTABLE_SPEC"),
	}
	if f.Lookup("budget") != nil {
		b := flagOrEnv(f, "budget", "ROUNDTABLE_BUDGET")
		label := "--budget"
		if !f.Changed("budget") {
			label = "ROUNDTABLE_BUDGET" // the flag is checked as it is parsed
		}
		n, err := parseNumber(label, b, 1, 0)
		if err != nil {
			return sf, asUsage(err)
		}
		sf.budget = n
	}
	if err := room.ValidateName(sf.room); err != nil {
		return sf, asUsage(err)
	}
	if len(sf.topic) > room.MaxTopicBytes {
		return sf, usageError("--topic is %d KiB, over the %d KiB limit: state the decision in a paragraph and put the details in the brief", (len(sf.topic)+1023)>>10, room.MaxTopicBytes>>10)
	}
	if f.Lookup("seat") != nil {
		if err := mcpserver.ValidateSeat(sf.seat); err != nil {
			return sf, asUsage(err)
		}
		if err := councilSeat(sf); err != nil {
			return sf, err
		}
	}
	if sf.cwd != "" {
		if fi, err := os.Stat(sf.cwd); err != nil || !fi.IsDir() {
			return sf, usageError("--cwd %q is not an existing folder", sf.cwd)
		}
	}
	return sf, nil
}

func newServeCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "serve",
		Short: "Run the MCP stdio server of one seat (the default with no subcommand)",
		Long: `Run the MCP stdio server of one seat of a room. Register it with each
agent under a name of its own (two servers of one name in a folder clash),
e.g. in the lead's terminal:

  claude mcp add roundtable-cache-design-lead -- roundtable \
    --room=cache-design --seat=lead --agent=opus-5 \
    --topic="Should the cache be write-through" --budget=12

and the same with roundtable-cache-design-peer and --seat=peer in the
peer's. The TUI's new MCP room page (m on the home screen) writes these
commands for Claude Code, Codex, Gemini CLI, Qwen Code, opencode and an
mcpServers file.

stdout carries only the MCP protocol; diagnostics go to stderr and
.roundtable/<room>/server.log.`,
		Args: cobra.NoArgs,
		RunE: runServe,
	}
	addServeFlags(c)
	return c
}

func runServe(c *cobra.Command, _ []string) error {
	sf, err := readSeatFlags(c)
	if err != nil {
		return err
	}
	if term.IsTerminal(os.Stdin.Fd()) {
		// A person at a terminal, not an agent: a bare "roundtable" shows
		// what there is to do instead of silently waiting for JSON-RPC.
		if c.Flags().NFlag() == 0 && !seatEnvSet() {
			return c.Help()
		}
		fmt.Fprintln(os.Stderr, "roundtable: serving seat "+sf.seat+" of room "+sf.room+" over stdin/stdout for an MCP client; register this command with your agent (see roundtable serve --help). ctrl+c stops.")
	}
	err = mcpserver.Serve(c.Context(), mcpserver.Options{
		Room: sf.room, Seat: sf.seat, Agent: sf.agent, Topic: sf.topic,
		Budget: sf.budget, Cwd: sf.cwd, Spec: sf.spec, Version: buildVersion(),
	}, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		return fmt.Errorf("seat %s of room %q: %w", sf.seat, sf.room, err)
	}
	return nil
}

func newSeedCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "seed",
		Short: "Create a room and write each seat's prompt into it",
		Long: `Create the room (unless it exists) and write each seat's prompt into its
folder with the topic and spec path filled in: lead.md and peer.md for the
default two seats. Paste each into its agent. Prints {room, dir, spec,
prompts} as JSON.

--seats makes a council: 2 to 8 seats, the lead first, e.g.
--seats lead,critic,security,peer. The seats speak in that order, one round
being every seat once; each seat's prompt (lead.md, peer.md, and
<name>-<hash>.md for any other name, listed in prompts) names its role and
the others. Serve each with roundtable --room R --seat <name>.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			sf, err := readSeatFlags(c)
			if err != nil {
				return err
			}
			if sf.topic == "" {
				return usageError("--topic is required: say what the room should decide")
			}
			seats, err := seatList(flagOrEnv(c.Flags(), "seats", "ROUNDTABLE_SEATS"))
			if err != nil {
				return err
			}
			out, err := room.Seed(sf.cwd, sf.room, room.CreateOptions{Topic: sf.topic, Budget: sf.budget, Spec: sf.spec, Seats: seats})
			if errors.Is(err, room.ErrBadSeat) {
				return asUsage(err)
			}
			if err != nil {
				return err
			}
			return printJSON(c, out)
		},
	}
	f := c.Flags()
	f.String("seats", "lead,peer", "the room's seats in turn order, comma-separated: 2 to 8, the lead first (env ROUNDTABLE_SEATS)")
	f.String("room", "default", "room name (env ROUNDTABLE_ROOM)")
	f.String("topic", "", "what the room should decide (env ROUNDTABLE_TOPIC)")
	f.Var(newIntFlag(new(int), 12, "budget", 1, 0), "budget", "rounds: lead posts allowed (env ROUNDTABLE_BUDGET)")
	f.String("spec", "", "spec path relative to --cwd; default SPEC-<room>.md")
	f.String("cwd", "", "folder holding .roundtable/; default: the working directory (env ROUNDTABLE_CWD)")
	return c
}

func newSeatsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "seats",
		Short: "Print each seat's state from the room's server.log as JSON",
		Long: `Print, as a JSON array, each seat that appears in the room's server.log.
The first keys are the original roundtable-mcp's: seat, agent, calls (tool
calls in the whole log) and last (the latest tool called). Then this
server's: state (connected, not started | parked, listening | thinking |
active | disconnected | at the keyboard, a person's seat: roundtable watch --take), since (when that state began), wait_return (why
the latest wait_for_message returned: message, idle, closed, cancelled or
error), pid, last_tool and last_at (of the current connection).`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			sf, err := readSeatFlags(c)
			if err != nil {
				return err
			}
			r, err := room.Open(sf.cwd, sf.room)
			if err != nil {
				return roomErr(err, sf.room, sf.cwd)
			}
			seats, err := room.ReadSeats(r.Dir())
			if err != nil {
				return err
			}
			return printJSON(c, room.ConnectedSeats(seats))
		},
	}
	f := c.Flags()
	f.String("room", "default", "room name (env ROUNDTABLE_ROOM)")
	f.String("cwd", "", "folder holding .roundtable/; default: the working directory (env ROUNDTABLE_CWD)")
	return c
}

// councilSeat checks, before anything is served, a seat other than the
// lead and the peer: it is a council's, so its room must exist (only
// roundtable seed makes a council) and have it. It creates nothing.
func councilSeat(sf seatFlags) error {
	if sf.seat == room.SeatLead || sf.seat == room.SeatPeer {
		return nil
	}
	r, err := room.Open(sf.cwd, sf.room)
	if errors.Is(err, room.ErrNoRoom) {
		return usageError("--seat %s: room %s does not exist; a seat other than lead or peer is a council's: create it first with roundtable seed --room %s --topic ... --seats lead,%s,...", sf.seat, sf.room, sf.room, sf.seat)
	}
	if err != nil {
		return err
	}
	if err := r.Config().CheckSeat(sf.seat); err != nil {
		return usageError("--seat %s: %v; hold one of its seats", sf.seat, err)
	}
	return nil
}

// seatList reads --seats: names separated by commas, each trimmed of
// spaces. The room checks the list (room.Create).
func seatList(v string) ([]string, error) {
	seats, err := room.ParseSeatList(v)
	if err != nil {
		return nil, usageError("--seats: %s", strings.TrimPrefix(err.Error(), room.ErrBadSeat.Error()+": "))
	}
	return seats, nil
}

// seatEnvSet reports whether any ROUNDTABLE_ seat variable is set, as an
// agent's configuration may do instead of flags.
func seatEnvSet() bool {
	for _, v := range []string{"ROUNDTABLE_ROOM", "ROUNDTABLE_SEAT", "ROUNDTABLE_AGENT", "ROUNDTABLE_TOPIC", "ROUNDTABLE_BUDGET", "ROUNDTABLE_CWD", "ROUNDTABLE_SPEC"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// roomErr words a failure to open a room for the command line.
func roomErr(err error, name, cwd string) error {
	if errors.Is(err, room.ErrNoRoom) {
		if cwd == "" {
			cwd, _ = os.Getwd()
		}
		return usageError("no room %q under %s (start one with roundtable seed or a seat server)", name, cwd)
	}
	if errors.Is(err, room.ErrBadName) {
		return asUsage(err)
	}
	return err
}

func printJSON(c *cobra.Command, v any) error {
	enc := json.NewEncoder(c.OutOrStdout())
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and Go version",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, err := fmt.Fprint(c.OutOrStdout(), versionLine())
			return err
		},
	}
}
