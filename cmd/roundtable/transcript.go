package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/transcript"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newTranscriptCmd) }

// transcriptOptions are the flags of "roundtable transcript".
type transcriptOptions struct {
	room string
	cwd  string
	out  string
	html bool
}

func newTranscriptCmd() *cobra.Command {
	var o transcriptOptions
	c := &cobra.Command{
		Use:        "transcript --room R [--cwd DIR] [--out FILE] [--html]",
		SuggestFor: []string{"export", "show", "print"},
		Short:      "Render a room as Markdown or as a self-contained HTML page",
		Long: `Render what was said in a room: an MCP room, a persona debate, or a room
written by the original roundtable-mcp server.

Markdown goes to stdout, made safe for a terminal; on one, its prose breaks
between words to the terminal's width (a pipe gets it as written). With --html, or --out
ending in .html, the transcript is one HTML page with no network access:
inline styles, no scripts, agent text sanitized. With --out only that file is
written, and its path is printed on stderr. An open room is rendered too, and
the transcript says it is still open.`,
		Example: `  roundtable transcript --room cache-design
  roundtable transcript --room cache-design --cwd ../service --out cache.html`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{wordsAre: "room"},
		RunE:        func(cmd *cobra.Command, _ []string) error { return runTranscript(cmd, o) },
	}
	f := c.Flags()
	f.StringVar(&o.room, "room", "", "the room to render (env ROUNDTABLE_ROOM)")
	f.StringVar(&o.cwd, "cwd", "", "the folder that holds .roundtable (env ROUNDTABLE_CWD; default: the current folder)")
	f.StringVar(&o.out, "out", "", "write the transcript to this file instead of stdout (.html: HTML)")
	f.BoolVar(&o.html, "html", false, "render a self-contained HTML page instead of Markdown")
	return c
}

func runTranscript(cmd *cobra.Command, o transcriptOptions) error {
	var err error
	if o.room, o.cwd, err = roomFromFlags(o.room, o.cwd, "render"); err != nil {
		return err
	}
	asHTML := o.html || hasHTMLExt(o.out)
	out := o.out
	if out != "" {
		var err error
		if out, err = checkTranscriptOut(out); err != nil {
			return asUsage(err)
		}
	}
	dir := o.cwd
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usageError("no room %q under %s: that folder does not exist; check --cwd", o.room, dir)
	}
	r, err := room.Open(dir, o.room)
	if errors.Is(err, room.ErrNoRoom) {
		return usageError("no room %q under %s; check --room and --cwd (rooms live in %s)", o.room, dir, filepath.Join(dir, room.Folder))
	}
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if asHTML {
		err = transcript.HTML(&b, r)
	} else {
		err = transcript.Markdown(&b, r)
	}
	if err != nil {
		return err
	}
	if out == "" {
		text := b.String()
		if !asHTML {
			text = transcript.ForTerminal(text, textWidth(cmd.OutOrStdout()))
		}
		if _, err := io.WriteString(cmd.OutOrStdout(), text); err != nil {
			return fmt.Errorf("write the transcript to stdout: %w", err)
		}
		return nil
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write the transcript to %s: %w", out, err)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), out)
	return nil
}

func hasHTMLExt(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".html" || ext == ".htm"
}

// checkTranscriptOut makes --out absolute and checks, before any work, that
// its folder exists and that it does not name a folder.
func checkTranscriptOut(out string) (string, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", fmt.Errorf("--out %s: %w", out, err)
	}
	parent := filepath.Dir(abs)
	fi, err := os.Stat(parent)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("cannot write %s: the folder %s does not exist; create it first or choose another --out", abs, parent)
	case err != nil:
		return "", fmt.Errorf("cannot write %s: %w", abs, err)
	case !fi.IsDir():
		return "", fmt.Errorf("cannot write %s: %s is not a folder; choose another --out", abs, parent)
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return "", fmt.Errorf("cannot write %s: it is a folder; name a file, e.g. %s", abs, filepath.Join(abs, "transcript.md"))
	}
	return abs, nil
}

// roomFromFlags completes --room and --cwd from ROUNDTABLE_ROOM and
// ROUNDTABLE_CWD (cwd defaulting to "."), and checks the room's name; what
// says what the room is for ("render", "send the note to").
func roomFromFlags(name, cwd, what string) (string, string, error) {
	if name == "" {
		name = os.Getenv("ROUNDTABLE_ROOM")
	}
	if cwd == "" {
		cwd = os.Getenv("ROUNDTABLE_CWD")
	}
	if cwd == "" {
		cwd = "."
	}
	if name == "" {
		return "", "", usageError("missing --room: name the room to %s (or set ROUNDTABLE_ROOM)", what)
	}
	if err := room.ValidateName(name); err != nil {
		return "", "", asUsage(err)
	}
	return name, cwd, nil
}
