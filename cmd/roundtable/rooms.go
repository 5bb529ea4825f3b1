package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

func init() { subcommands = append(subcommands, newRoomsCmd) }

const roomsCwdUsage = "folder holding .roundtable/; default: the working directory (env ROUNDTABLE_CWD)"

func newRoomsCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:        "rooms [--json]",
		SuggestFor: []string{"list", "ls"},
		Short:      "List, rename, delete and restore the rooms under a folder",
		Long: `List the rooms under --cwd, newest activity first: persona debates and MCP
rooms, each with its state, rounds used of planned, messages, last activity
and topic. "roundtable rooms list" is the same. --json prints one JSON object
a line for scripts, with the keys name, mode, closed, reason, paused,
abandoned, used, budget, messages, last (RFC 3339), topic and error.

rename, delete and restore do what R, d and u do on the TUI's home screen.
A deleted room is moved whole to .roundtable/.trash, where restore finds it.
A room a seat is still connected to, or a debate a process still runs, is
neither renamed nor deleted: its agents or its run would lose it.`,
		Example: `  roundtable rooms
  roundtable rooms --json | jq -r 'select(.closed) | .name'
  roundtable rooms rename should-we-adopt-graphql-20261130-142010 graphql
  roundtable rooms delete graphql
  roundtable rooms restore graphql`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runRoomsList(c, asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "one JSON object a line (JSONL), for scripts")
	c.Flags().String(seatcmd.FlagCwd, "", roomsCwdUsage)
	c.AddCommand(newRoomsListCmd(), newRoomsRenameCmd(), newRoomsDeleteCmd(), newRoomsRestoreCmd())
	return c
}

func newRoomsListCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:        "list [--json]",
		SuggestFor: []string{"ls"},
		Short:      "List the rooms, newest activity first (the same as roundtable rooms)",
		Long: `List the rooms under --cwd, newest activity first: name, kind (debate or
MCP), state (open, paused, or closed and why; "not running" for a debate
whose process is gone), rounds used of planned, messages, last activity in
local time, and the topic cut to fit 80 columns. A room that cannot be read
is listed with its error. --json prints one JSON object a line instead.`,
		Example: `  roundtable rooms list
  roundtable rooms list --json --cwd ../service`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runRoomsList(c, asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "one JSON object a line (JSONL), for scripts")
	c.Flags().String(seatcmd.FlagCwd, "", roomsCwdUsage)
	return c
}

func newRoomsRenameCmd() *cobra.Command {
	c := &cobra.Command{
		Use:        "rename FROM TO",
		SuggestFor: []string{"mv", "move"},
		Short:      "Give a room a new name",
		Long: `Rename room FROM to TO: its folder moves, and what names it inside (room.json,
a default spec path SPEC-FROM.md and the file, the seat prompts) follows.
Refused while a seat is still connected to the room or a process still runs
its debate, and when TO is taken or not a valid room name.`,
		Example:     `  roundtable rooms rename should-we-adopt-graphql-20261130-142010 graphql`,
		Args:        roomsArgs("the room's name and its new name", "rename FROM TO"),
		Annotations: map[string]string{wordsAre: wordsAreTheRoom},
		RunE:        runRoomsRename,
	}
	c.Flags().String(seatcmd.FlagCwd, "", roomsCwdUsage)
	return c
}

func newRoomsDeleteCmd() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:        "delete NAME [--force]",
		SuggestFor: []string{"rm", "remove", "del", "trash"},
		Short:      "Move a room to the trash, from where restore brings it back",
		Long: `Delete room NAME the way it can be undone: its folder moves whole to
.roundtable/.trash/NAME-<UTC time>, and roundtable rooms restore NAME brings it
back. Refused while a seat is still connected to the room (its agent would
lose it) or a process still runs its debate, unless --force.`,
		Example: `  roundtable rooms delete graphql
  roundtable rooms delete cache-design --force`,
		Args:        roomsArgs("the name of the room to delete", "delete NAME"),
		Annotations: map[string]string{wordsAre: wordsAreTheRoom},
		RunE:        func(c *cobra.Command, args []string) error { return runRoomsDelete(c, args[0], force) },
	}
	c.Flags().BoolVar(&force, "force", false, "delete even while a seat is connected or a process runs the debate")
	c.Flags().String(seatcmd.FlagCwd, "", roomsCwdUsage)
	return c
}

func newRoomsRestoreCmd() *cobra.Command {
	c := &cobra.Command{
		Use:        "restore NAME",
		SuggestFor: []string{"undelete", "undo", "untrash"},
		Short:      "Bring the newest deleted copy of a room back from the trash",
		Long: `Restore room NAME from .roundtable/.trash: the copy deleted last, when there
are several. Refused when a room has taken the name since.`,
		Example:     `  roundtable rooms restore graphql`,
		Args:        roomsArgs("the name of the room to restore", "restore NAME"),
		Annotations: map[string]string{wordsAre: wordsAreTheRoom},
		RunE:        runRoomsRestore,
	}
	c.Flags().String(seatcmd.FlagCwd, "", roomsCwdUsage)
	return c
}

// roomsArgs takes as many arguments as use names after the command,
// refusing others with what to give.
func roomsArgs(what, use string) cobra.PositionalArgs {
	want := len(strings.Fields(use)) - 1
	return func(_ *cobra.Command, args []string) error {
		if len(args) == want {
			return nil
		}
		got := "nothing"
		switch len(args) {
		case 0:
		case 1:
			got = "1 argument: " + args[0]
		default:
			got = fmt.Sprintf("%d arguments: %s", len(args), strings.Join(args, " "))
		}
		return fmt.Errorf("roundtable rooms %s needs %s; got %s", use, what, got)
	}
}

// roomsCwd is the folder holding .roundtable, as given (--cwd, else
// ROUNDTABLE_CWD, else "."), and whether it was given; an error unless it
// is a folder.
func roomsCwd(c *cobra.Command) (string, bool, error) {
	cwd := flagOrEnv(c.Flags(), seatcmd.FlagCwd, "ROUNDTABLE_CWD")
	given := cwd != ""
	if !given {
		cwd = "."
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return "", false, usageError("--cwd %q is not an existing folder", cwd)
	}
	return cwd, given, nil
}

// absDir is dir made absolute, for messages; dir itself if it cannot be.
func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

func runRoomsList(c *cobra.Command, asJSON bool) error {
	cwd, _, err := roomsCwd(c)
	if err != nil {
		return err
	}
	rooms, err := room.ListRooms(cwd)
	if err != nil {
		return asUsage(fmt.Errorf("%w; check --cwd", err))
	}
	out := c.OutOrStdout()
	switch {
	case asJSON:
		return room.WriteListJSON(out, rooms)
	case len(rooms) == 0:
		_, err := fmt.Fprintf(out, "No rooms under %s yet. Start one with roundtable tui, or roundtable debate --topic \"...\".\n", absDir(cwd))
		return err
	}
	return room.WriteList(out, rooms, time.Now(), ttyWidth(out))
}

func runRoomsRename(c *cobra.Command, args []string) error {
	cwd, _, err := roomsCwd(c)
	if err != nil {
		return err
	}
	from, to := args[0], args[1]
	if err := room.ValidateName(from); err != nil {
		return asUsage(err)
	}
	if err := room.ValidateName(to); err != nil {
		return asUsage(fmt.Errorf("new name: %w", err))
	}
	if from == to {
		return usageError("room %q already has the name %q; give a new name", from, to)
	}
	var busy *room.InUseError
	switch err := room.Rename(cwd, from, to); {
	case errors.As(err, &busy):
		return usageError("%v; rename it once %s", busy, inUseWait(busy))
	case errors.Is(err, room.ErrNoRoom):
		return noRoomHere(from, cwd)
	case errors.Is(err, room.ErrRoomExists), errors.Is(err, room.ErrBadName):
		return asUsage(err)
	case err != nil:
		return fmt.Errorf("cannot rename room %q: %w", from, err)
	}
	fmt.Fprintf(c.ErrOrStderr(), "roundtable: renamed room %s to %s\n", from, to)
	return nil
}

func runRoomsDelete(c *cobra.Command, name string, force bool) error {
	cwd, given, err := roomsCwd(c)
	if err != nil {
		return err
	}
	if err := room.ValidateName(name); err != nil {
		return asUsage(err)
	}
	if _, err := os.Lstat(room.Dir(cwd, name)); errors.Is(err, os.ErrNotExist) {
		return noRoomHere(name, cwd)
	}
	if err := room.InUse(cwd, name); err != nil {
		if !force {
			if errors.Is(err, room.ErrSeatsConnected) || errors.Is(err, room.ErrRunning) {
				return usageError("%v; delete it once %s, or pass --force to delete it anyway", err, inUseWait(err))
			}
			return usageError("%v; fix that, or pass --force to delete it anyway", err)
		}
		fmt.Fprintf(c.ErrOrStderr(), "roundtable: deleting it anyway (--force): %v\n", err)
	}
	path, err := room.Trash(cwd, name, time.Now())
	switch {
	case errors.Is(err, room.ErrNoRoom):
		return noRoomHere(name, cwd)
	case err != nil:
		return fmt.Errorf("cannot delete room %q: %w", name, err)
	}
	undo := "roundtable rooms restore " + name
	if given {
		undo += " --cwd " + seatcmd.Quote(cwd)
	}
	fmt.Fprintf(c.ErrOrStderr(), "roundtable: deleted room %s (moved to %s)\nroundtable: undo with: %s\n", name, path, undo)
	return nil
}

func runRoomsRestore(c *cobra.Command, args []string) error {
	cwd, _, err := roomsCwd(c)
	if err != nil {
		return err
	}
	name := args[0]
	t, err := room.LatestTrashed(cwd, name)
	var none *room.NotTrashedError
	switch {
	case errors.As(err, &none):
		return usageError("%v; check the name (roundtable rooms lists the rooms not deleted)", err)
	case errors.Is(err, room.ErrBadName):
		return asUsage(err)
	case err != nil:
		return asUsage(fmt.Errorf("%w; check --cwd", err))
	}
	switch err := room.Restore(cwd, t.Path, name); {
	case errors.Is(err, room.ErrRoomExists):
		return usageError("cannot restore room %q: a room of that name was made since it was deleted (%s); rename that one first (roundtable rooms rename %s NEW-NAME), then restore", name, room.Dir(cwd, name), name)
	case err != nil:
		return fmt.Errorf("cannot restore room %q from %s: %w", name, t.Path, err)
	}
	fmt.Fprintf(c.ErrOrStderr(), "roundtable: restored room %s (deleted %s) from %s\n", name, t.At.Local().Format("Jan 02 15:04:05"), t.Path)
	return nil
}

// inUseWait says what a room in use (an *room.InUseError) waits for.
func inUseWait(err error) string {
	stop := "its debate has stopped (esc in its screen, or kill the process)"
	var in *room.InUseError
	if errors.As(err, &in) && in.RunPID > 0 {
		stop = fmt.Sprintf("its debate has stopped (esc in its screen, or kill %d)", in.RunPID)
	}
	switch seats, run := errors.Is(err, room.ErrSeatsConnected), errors.Is(err, room.ErrRunning); {
	case seats && run:
		return "its agents have left and " + stop
	case run:
		return stop
	}
	return "its agents have left"
}

// noRoomHere refuses a room name that has no folder under cwd.
func noRoomHere(name, cwd string) error {
	return usageError("no room %q under %s; roundtable rooms lists the rooms there", name, filepath.Join(absDir(cwd), room.Folder))
}
