package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
)

// interjectHelp is the part of `roundtable debate --help` on the user's
// notes.
const interjectHelp = `

Your notes: --interject-from FILE (or - for stdin) gives notes to the panel,
one a line: after each round, and before the verdict, the debate takes the
next line; a non-blank line joins the debate as your words, which every
later persona and the moderator read, and a blank line gives none. With -
the debate waits for each line, so a script can answer what it saw; at the
end of the input the rest runs without notes. --pause-between-rounds alone
reads the notes from stdin the same way.`

// interjectFlags are the debate command's flags for the user's notes.
type interjectFlags struct {
	from string
}

func (f *interjectFlags) add(c *cobra.Command) {
	c.Flags().StringVar(&f.from, "interject-from", "", "read notes to the panel from FILE (- for stdin), one a line, one line after each round; a blank line is no note")
}

// options sets opts' notes from the flags: the file or stdin to read, and
// whether to say at each pause that a line is awaited. The returned close
// releases the file.
func (f *interjectFlags) options(opts *debate.HeadlessOptions, stdin io.Reader) (func(), error) {
	from := f.from
	if from == "" && opts.Settings.Config.PauseBetweenRounds {
		from = "-"
	}
	switch from {
	case "":
		return func() {}, nil
	case "-":
		opts.Interject = stdin
		opts.InterjectPrompt = isTerminal(stdin)
		return func() {}, nil
	}
	file, err := os.Open(from)
	if err != nil {
		return nil, usageError("--interject-from %s cannot be read (%v); give a file of notes, one a line, or - for stdin", from, err)
	}
	if fi, err := file.Stat(); err == nil && fi.IsDir() {
		file.Close()
		return nil, usageError("--interject-from %s is a folder; give a file of notes, one a line, or - for stdin", from)
	}
	opts.Interject = file
	return func() { file.Close() }, nil
}

// isTerminal reports whether r is a terminal a person types in.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
