package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// Options are the app's settings, as given on the command line.
type Options struct {
	// Cwd is the folder whose .roundtable/ holds the rooms; empty: the
	// working directory.
	Cwd string
	// ExportDir is where e and E write transcripts; empty: the working
	// directory.
	ExportDir string

	// Topic, when set, skips the home screen and starts this debate at
	// once. The other debate settings fill the new-debate form otherwise.
	Topic           string
	Rounds          int      // 0: debate.DefaultRounds
	PersonasFile    string   // --personas
	Agents          []string // --agent values
	UserPersonaFile string   // usually debate.UserPersonaFile(); empty: none
	// Provider is the provider as given by flags; the environment fills
	// the rest (debate.ResolveProvider).
	Provider debate.ProviderConfig
	// Fast drops the mock's pause between tokens (otherwise it streams at
	// debate.DefaultPace, lively on screen).
	Fast bool
	Seed int64
	// Room names the room of a debate started with Topic; empty: made
	// from the topic and the time.
	Room string
	// BlindOpening, StopOnConsensus and TurnTimeout are the debate's
	// settings of the same names (debate.Config); they apply to debates
	// started from the form too.
	BlindOpening    bool
	StopOnConsensus bool
	TurnTimeout     time.Duration

	// Dark selects the dark styles until the terminal reports its
	// background.
	Dark bool
	// Getenv reads the environment; nil: os.Getenv.
	Getenv func(string) string
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// Context bounds every debate and background task; nil:
	// context.Background().
	Context context.Context
	// NoWatch turns off the home screen's live list (tests).
	NoWatch bool
}

// ErrBadCwd marks a --cwd that is not an existing folder.
var ErrBadCwd = errors.New("bad --cwd")

// normalize fills the defaults and checks what can be checked before any
// screen shows: the folder, the rounds, the personas, and, with a topic,
// the provider (a missing key is reported before anything starts).
func (o Options) normalize() (Options, debate.Panel, error) {
	if o.Context == nil {
		o.Context = context.Background()
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	cwd, err := absDir(o.Cwd)
	if err != nil {
		return o, debate.Panel{}, err
	}
	o.Cwd = cwd
	if o.ExportDir == "" {
		if wd, err := os.Getwd(); err == nil {
			o.ExportDir = wd
		} else {
			o.ExportDir = cwd
		}
	}
	if o.Rounds != 0 && (o.Rounds < debate.MinRounds || o.Rounds > debate.MaxRounds) {
		return o, debate.Panel{}, fmt.Errorf("%w: --rounds %d; choose %d to %d", debate.ErrBadConfig, o.Rounds, debate.MinRounds, debate.MaxRounds)
	}
	if o.TurnTimeout < 0 {
		return o, debate.Panel{}, fmt.Errorf("%w: --turn-timeout %s; give a positive duration like 2m", debate.ErrBadConfig, o.TurnTimeout)
	}
	if o.Room != "" {
		if err := room.ValidateName(o.Room); err != nil {
			return o, debate.Panel{}, fmt.Errorf("%w: --room: %w", debate.ErrBadConfig, err)
		}
	}
	if o.Fast {
		o.Provider.Pace = 0
	} else if o.Provider.Pace == 0 {
		o.Provider.Pace = debate.DefaultPace
	}
	panel, err := debate.LoadPanel(debate.PanelOptions{UserFile: o.UserPersonaFile, File: o.PersonasFile, Agents: o.Agents})
	if err != nil {
		return o, panel, err
	}
	return o, panel, nil
}

// absDir makes dir absolute and checks that it is a folder.
func absDir(dir string) (string, error) {
	abs, err := room.ResolveDir(strings.TrimSpace(dir))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadCwd, err)
	}
	return abs, nil
}
