package main

import (
	"context"
	"errors"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/app"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

func init() { subcommands = append(subcommands, newWatchCmd) }

func newWatchCmd() *cobra.Command {
	c := &cobra.Command{
		Use:        "watch",
		SuggestFor: []string{"view", "follow"},
		Short:      "Watch a room live: messages as they land, what each seat is doing, the spec",
		Long: `Watch an MCP room (or a persona debate saved as a room) live, beside the
agents' terminals: the topic, the round budget, whose turn it is, what each
seat is doing (from server.log), and every message as it lands, rendered as
Markdown. A room that does not exist yet is waited for.

Keys: f follow, g/G top/bottom, s spec (once closed), e/E export Markdown/HTML
to the working directory, y copy the transcript, i a steering note to the
seats (as roundtable note does), t take a free seat, ? help, q quit.

A council (a room of more than two seats) shows its turn order and who passed
in the header, and its seats side by side, one column each, as the width
allows; narrower, a list of the seats beside the column of the seat writing
(or whose turn it is). v switches between the columns and one feed of every
message; scrolling back or a search shows the feed, f follows again.

Take a seat yourself with --take <seat> (lead, peer, or any seat of a council;
or t while a seat is free): the
seat is yours until you quit, and server.log says "agent=person", so every
other watcher and roundtable seats show a person at the keyboard. On your turn
a composer opens: enter posts under the seat's turn and budget rules,
alt+enter breaks the line, ctrl+e writes in $EDITOR, esc puts it away (t opens
it again). A post starting with /objection (or any short kind) is posted as
that kind; // starts a text with a slash. As the lead, S writes the spec in
$EDITOR and C closes the room (after a y). A seat another player holds (a
person, roundtable seat, or an agent's seat server still connected) is
refused, naming it.

Watch a room on another machine with --url: the URL roundtable host printed,
with the room's observer token in ROUNDTABLE_TOKEN (as the line the host
printed sets it) or in a file only you can read, given with --token-file
(chmod 600: a file others can read is refused). --token works too, but every
user of the machine sees a command line's arguments (ps), so it is best left
to throwaway tokens. The token is sent to the host's origin only: a host that
redirects elsewhere is refused, naming both. The same screen shows the room,
read-only (no i, t, S or C), its header saying "remote: host:port"; a lost
connection is retried, and the status line says so. A persona debate the
host serves (watch-only: its token is the observer's) opens in the debate
screen instead, as on the machine that runs it: a column per persona
streaming its words as they come, then the moderator's verdict; its header
says "on host:port", and nothing that writes (r, R, i) is offered.

Exit codes: 2 for a bad room name, a --cwd that is not an existing folder, a
--take seat that is taken, closed or not one of the room's, a --url that is not
http(s) or comes without a token or with --room, --cwd or --take, a
--token-file others can read or that holds no token; 1 for a token the host
refuses (wrong or revoked), a host that cannot be reached or that redirects
to another origin.`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{wordsAre: "room"},
		RunE: func(c *cobra.Command, _ []string) error {
			if url, _ := c.Flags().GetString("url"); url != "" {
				return runRemoteWatch(c, url)
			}
			sf, err := readSeatFlags(c)
			if err != nil {
				return err
			}
			opts := watch.Options{Cwd: sf.cwd, Room: sf.room, Dark: true}
			ctx := c.Context()
			if seat, _ := c.Flags().GetString("take"); seat != "" {
				p, err := watch.TakeSeat(sf.cwd, sf.room, seat)
				if err != nil {
					return takeErr(err)
				}
				opts.Person = p
				defer func() { _ = p.Release() }()
				// A closed terminal gives the seat up too: stop as for
				// SIGTERM, so the disconnect line is written.
				var stop context.CancelFunc
				ctx, stop = signal.NotifyContext(ctx, syscall.SIGHUP)
				defer stop()
			}
			err = watch.Run(ctx, opts)
			if errors.Is(err, room.ErrBadName) {
				return asUsage(err)
			}
			return err
		},
	}
	f := c.Flags()
	f.String("room", "default", "room name (env ROUNDTABLE_ROOM)")
	f.String("cwd", "", "folder holding .roundtable/; default: the working directory (env ROUNDTABLE_CWD)")
	f.String("take", "", "play this seat yourself (lead, peer or a council's seat): a composer opens on your turn")
	f.String("url", "", "watch a room that roundtable host serves at this URL (read-only)")
	f.String("token", "", "the room's observer token, for --url; every user sees it in ps: prefer ROUNDTABLE_TOKEN or --token-file")
	f.String("token-file", "", "a file holding the room's observer token, for --url; only you may read it (chmod 600)")
	return c
}

// runRemoteWatch is watch --url: the room comes from a host, whose token
// names it, so --room, --cwd and --take do not apply.
func runRemoteWatch(c *cobra.Command, url string) error {
	f := c.Flags()
	for _, name := range []string{"room", "cwd", "take"} {
		if f.Changed(name) {
			return usageError("--%s does not go with --url: the host's token names the room, and a remote room is read-only", name)
		}
	}
	var token string
	if file, _ := f.GetString("token-file"); file != "" {
		if f.Changed("token") {
			return usageError("--token and --token-file both give the token: keep one (--token-file keeps it out of ps)")
		}
		var err error
		if token, err = room.ReadTokenFile(file); err != nil {
			return asUsage(err)
		}
	} else {
		token = flagOrEnv(f, "token", "ROUNDTABLE_TOKEN")
	}
	if token == "" {
		return usageError("--url needs the room's observer token: set ROUNDTABLE_TOKEN, or save it in a file only you can read and pass --token-file FILE (roundtable host printed it)")
	}
	err := app.RunRemote(c.Context(), watch.RemoteOptions{URL: url, Token: token, Dark: true})
	if errors.Is(err, watch.ErrBadURL) {
		return asUsage(err)
	}
	return err
}

// takeErr words a refused --take: a seat that is taken, a closed room or
// a bad seat is the user's to fix (exit 2).
func takeErr(err error) error {
	if errors.Is(err, room.ErrSeatTaken) || errors.Is(err, room.ErrClosed) || errors.Is(err, room.ErrBadSeat) ||
		errors.Is(err, room.ErrBadName) || errors.Is(err, room.ErrNotSeatRoom) {
		return asUsage(err)
	}
	return err
}
