package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// Options are the app's settings, as given on the command line.
type Options struct {
	// Cwd is the folder whose .roundtable/ holds the rooms; empty: the
	// working directory. Every debate started is saved there.
	Cwd string
	// ExportDir is where e and E write transcripts; empty: the working
	// directory.
	ExportDir string

	// Debate is the debate the command line describes (the same settings
	// `roundtable debate` starts from). With a topic the app skips the
	// home screen and starts it at once; otherwise it fills in the
	// new-debate form, and its provider and options apply to every debate
	// started. Its Cwd is replaced by Cwd.
	Debate debate.Settings
	// Panel is every persona on offer in the form (debate.LoadPanel); its
	// zero value offers the default trio. A debate started with a topic
	// runs the personas of Debate, or the panel's enabled ones when it
	// names none.
	Panel debate.Panel

	// Dark selects the dark styles until the terminal reports its
	// background.
	Dark bool
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Context bounds every debate and background task; nil:
	// context.Background().
	Context context.Context
	// NoWatch turns off the home screen's live list (tests).
	NoWatch bool
	// Stderr is where Run says which seat processes it stopped on quitting;
	// nil: os.Stderr.
	Stderr io.Writer
	// SeatProgram is the roundtable binary that plays the seats of MCP
	// rooms the app starts; empty: this one (tests set another).
	SeatProgram string
}

// ErrBadCwd marks a --cwd that is not an existing folder.
var ErrBadCwd = errors.New("bad --cwd")

// normalize fills the defaults and checks the folder.
func (o Options) normalize() (Options, error) {
	if o.Context == nil {
		o.Context = context.Background()
	}
	if o.Debate.Getenv == nil {
		o.Debate.Getenv = os.Getenv
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if len(o.Panel.Personas) == 0 {
		// No files to read: the default trio, which cannot fail.
		panel, err := debate.LoadPanel(debate.PanelOptions{})
		if err != nil {
			return o, err
		}
		o.Panel = panel
	}
	if len(o.Debate.Config.Personas) == 0 {
		o.Debate = o.Debate.WithPanel(o.Panel)
	}
	cwd, err := absDir(o.Cwd)
	if err != nil {
		return o, err
	}
	o.Cwd = cwd
	o.Debate.Cwd = cwd
	if o.ExportDir == "" {
		if wd, err := os.Getwd(); err == nil {
			o.ExportDir = wd
		} else {
			o.ExportDir = cwd
		}
	}
	return o, nil
}

// absDir makes dir absolute and checks that it is a folder.
func absDir(dir string) (string, error) {
	abs, err := room.ResolveDir(strings.TrimSpace(dir))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadCwd, err)
	}
	return abs, nil
}
