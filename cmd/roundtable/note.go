package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

func init() { subcommands = append(subcommands, newNoteCmd) }

// noteOptions are the flags of "roundtable note".
type noteOptions struct {
	room string
	cwd  string
}

func newNoteCmd() *cobra.Command {
	var o noteOptions
	c := &cobra.Command{
		Use:   `note --room R [--cwd DIR] ("text" | -)`,
		Short: "Send a steering note to both seats of an MCP room, or to a running debate's panel",
		Long: `Write a steering note to an MCP room, as i does in roundtable watch. Both
seats get it once, marked as from the host, with their next read_room or
wait_for_message; a seat parked in wait_for_message wakes for it. The seat
prompts tell agents that host notes outrank the course of the debate. A note
takes no turn and spends no round of the budget.

On a persona debate that runs now (headless, or in a screen elsewhere) the
note is yours to the panel, as i in its debate screen: the next persona to
speak reads it, and so does the moderator.

The text is the arguments, joined by spaces, or with - the whole of stdin.
Notes are saved in the room's notes folder, where the original roundtable-mcp
server does not look, so its seats read the room as before.

Exit codes: 2 for a wrong command line, 1 when the room does not exist, is
closed, or the note is empty or too large.`,
		Example: `  roundtable note --room cache-design "Prefer the design with fewer moving parts."
  roundtable note --room cache-design --cwd ../service - < steer.md`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runNote(cmd, o, args) },
	}
	f := c.Flags()
	f.StringVar(&o.room, "room", "", "the room to steer (env ROUNDTABLE_ROOM)")
	f.StringVar(&o.cwd, "cwd", "", "the folder that holds .roundtable (env ROUNDTABLE_CWD; default: the current folder)")
	return c
}

func runNote(cmd *cobra.Command, o noteOptions, args []string) error {
	var err error
	if o.room, o.cwd, err = roomFromFlags(o.room, o.cwd, "send the note to"); err != nil {
		return err
	}
	text, err := noteText(cmd.InOrStdin(), args)
	if err != nil {
		return err
	}
	r, _, err := openNamedRoom(o.room, o.cwd)
	if err != nil {
		return err
	}
	if r.Config().IsDebate() {
		// A persona debate takes the person's notes from its room: the
		// engine running it hands this one to the next persona to speak.
		if debate.Abandoned(r) {
			return usageError("room %q is a persona debate that nothing runs now; resume it (roundtable debate --resume %s), then send the note", o.room, o.room)
		}
		n, err := r.AddNote(room.NoteFromUser, text, 0)
		if err != nil {
			return noteError(o.room, err)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "note %d sent to debate %s: the next persona to speak reads it, and the moderator too\n", n.Seq, o.room)
		return nil
	}
	n, err := r.AddNote(room.NoteFromHost, text, 0)
	if err != nil {
		return noteError(o.room, err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "note %d sent to room %s: both seats get it with their next read_room or wait_for_message\n", n.Seq, o.room)
	return nil
}

// noteText is the note's text: the arguments joined by spaces, or stdin
// when the only argument is -.
func noteText(stdin io.Reader, args []string) (string, error) {
	switch {
	case len(args) == 0:
		return "", usageError(`missing the note: give its text as an argument ("text") or - to read it from stdin`)
	case len(args) == 1 && args[0] == "-":
		data, err := io.ReadAll(io.LimitReader(stdin, room.MaxTextBytes+1))
		if err != nil {
			return "", fmt.Errorf("cannot read the note from stdin: %w", err)
		}
		if len(data) > room.MaxTextBytes {
			return "", usageError("the note on stdin is over the %d KiB limit: shorten it, or put the details in a file and name it in the note", room.MaxTextBytes>>10)
		}
		return string(data), nil
	default:
		return strings.Join(args, " "), nil
	}
}

// noteError words a refused note.
func noteError(name string, err error) error {
	var closed *room.ClosedError
	var large *room.TooLargeError
	switch {
	case errors.As(err, &closed):
		reason := ""
		if closed.Reason != "" {
			reason = " (" + closed.Reason + ")"
		}
		return stateRefusal("room %q is closed%s and takes no more notes; start a new room to go on", name, reason)
	case errors.Is(err, room.ErrEmpty):
		return usageError("the note is empty: write what both seats should hear")
	case errors.As(err, &large):
		return usageError("the note is %d KiB, over the %d KiB limit: shorten it, or put the details in a file and name it in the note", (large.Size+1023)>>10, large.Limit>>10)
	default:
		return fmt.Errorf("cannot write the note to room %q: %w", name, err)
	}
}

// openNamedRoom opens room name under the folder cwd, saying what to check
// when the folder or the room is not there; it returns the folder made
// absolute too.
func openNamedRoom(name, cwd string) (*room.Room, string, error) {
	dir := cwd
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, "", usageError("--cwd %q is not an existing folder", cwd)
	}
	r, err := room.Open(dir, name)
	if errors.Is(err, room.ErrNoRoom) {
		return nil, "", usageError("no room %q under %s; check --room and --cwd (rooms live in %s)", name, dir, filepath.Join(dir, room.Folder))
	}
	if err != nil {
		return nil, "", fmt.Errorf("cannot open room %q: %w", name, err)
	}
	return r, dir, nil
}
