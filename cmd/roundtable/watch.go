package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

func init() { subcommands = append(subcommands, newWatchCmd) }

func newWatchCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "watch",
		Short: "Watch a room live: messages as they land, what each seat is doing, the spec",
		Long: `Watch an MCP room (or a persona debate saved as a room) live, beside the
agents' terminals: the topic, the round budget, whose turn it is, what each
seat is doing (from server.log), and every message as it lands, rendered as
Markdown. A room that does not exist yet is waited for.

Keys: f follow, g/G top/bottom, s spec (once closed), e/E export Markdown/HTML
to the working directory, y copy the transcript, i a steering note to both
seats (as roundtable note does), ? help, q quit.

Exit codes: 2 for a bad room name or a --cwd that is not an existing folder.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			sf, err := readSeatFlags(c)
			if err != nil {
				return err
			}
			err = watch.Run(c.Context(), watch.Options{Cwd: sf.cwd, Room: sf.room, Dark: true})
			if errors.Is(err, room.ErrBadName) {
				return asUsage(err)
			}
			return err
		},
	}
	f := c.Flags()
	f.String("room", "default", "room name (env ROUNDTABLE_ROOM)")
	f.String("cwd", "", "folder holding .roundtable/; default: the working directory (env ROUNDTABLE_CWD)")
	return c
}
