// Command roundtable hosts AI debates: persona debates in a terminal UI, and
// MCP rooms where two coding agents argue a decision through. This package
// only wires flags to the room, debate and tui packages.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/prompts"
	"github.com/roundtable-dev/roundtable/room"
)

// Set by the linker (-ldflags "-X main.version=... -X main.commit=...").
var (
	version = ""
	commit  = ""
)

// subcommands are added by the files of this package, one file a command.
var subcommands []func() *cobra.Command

// exitError carries an exit code with its message: 2 for a wrong command
// line, 1 for failed work, 130 for an interruption.
type exitError struct {
	code int
	err  error
	// state: refused for the room's state (closed, a seat taken), not
	// the command line, so no --help line follows the sentence.
	state bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCodes is the policy every command keeps (exitCode), as the root
// command's help gives it; TestExitCodes holds each command to it.
var exitCodes = [][2]string{
	{"0", "done"},
	{"1", "the work failed: a provider, agent or network error, a write that failed, no terminal for a screen"},
	{"2", "refused before any work for what the command line asks: an unknown flag or command, a bad value, an unknown provider, a file, folder or room that does not exist or cannot be read, a room closed or a seat taken"},
	{"130", "interrupted (Ctrl+C, SIGTERM, a closed terminal), after saving what was said"},
}

// usageError marks a command-line mistake (exit 2).
func usageError(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// stateRefusal is work refused for the state of the room it names (exit
// 2, as the policy says): its sentence says what to do, without a --help
// line.
func stateRefusal(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...), state: true}
}

// asUsage marks err as a command-line mistake.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: 2, err: err}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "roundtable",
		Short: "AI agents argue a decision through before anyone builds it",
		Long: `roundtable hosts two kinds of debate.

  Persona debate: personas argue your decision round by round, then a
  moderator gives a verdict. Try: roundtable tui

  MCP room: coding agents take the seats of a room (a lead and a peer, or a
  council of up to eight: roundtable council) and talk turn by turn through
  MCP tools. With --room/--seat and no subcommand,
  roundtable is the MCP stdio server of one seat (same as "roundtable serve").`,
		Args: cobra.NoArgs,
	}
	for _, mk := range subcommands {
		root.AddCommand(mk())
	}
	addServeFlags(root)
	root.RunE = runServe
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.CompletionOptions.DisableDefaultCmd = true
	root.SuggestionsMinimumDistance = 2 // SuggestionsFor does not default it
	root.Version = buildVersion()
	root.SetVersionTemplate(versionLine())
	root.SetHelpFunc(helpFunc)
	settleErrors(root)
	return root
}

// settleErrors makes every command report its own failure and exit with
// its code, so every failure is worded and counted in one place.
func settleErrors(c *cobra.Command) {
	c.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return exit(cmd, asUsage(nearFlag(cmd, flagError(err))))
	})
	if args := c.Args; args != nil {
		c.Args = func(cmd *cobra.Command, a []string) error {
			if err := args(cmd, a); err != nil {
				return exit(cmd, asUsage(wordsAsFlags(cmd, a, err)))
			}
			return nil
		}
	}
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, a []string) error {
			if err := run(cmd, a); err != nil {
				return exit(cmd, err)
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		settleErrors(sub)
	}
}

// wordsAsFlags words err for a command given words where it takes flags,
// as a new user tries first: the line to type. A command that names a
// room (annotated wordsAre: "room") takes one word as the room
// (roundtable transcript gq); one that takes a topic, the words as the
// topic (roundtable debate "Adopt GraphQL"); a command of commands
// (rooms) names the nearest of its own, or lists them; any other says it
// takes only flags, where cobra called the word an unknown command.
func wordsAsFlags(cmd *cobra.Command, a []string, err error) error {
	path, said := cmd.CommandPath(), strings.Join(a, " ")
	if len(a) > 0 && cmd.HasAvailableSubCommands() && strings.HasPrefix(err.Error(), "unknown command") {
		// A command mistyped, or named as another tool names it (export,
		// ls, rm): the nearest of ours, by spelling or by its SuggestFor;
		// under a command of commands (rooms), its commands when none is
		// near.
		if near := nearestCommands(cmd, a[0]); len(near) > 0 {
			return fmt.Errorf("%w (did you mean %s %s?)", err, path, strings.Join(near, " or "+path+" "))
		}
		if cmd.HasParent() {
			return fmt.Errorf("%w; its commands are %s", err, subcommandNames(cmd))
		}
	}
	if len(a) == 0 || !cmd.HasParent() {
		return err
	}
	switch {
	case cmd.Annotations[wordsAre] == "room" && len(a) == 1:
		return fmt.Errorf("%s takes its room with --room, not as a word after it: %s --room %s", path, path, a[0])
	case cmd.Annotations[wordsAre] == "" && cmd.Flags().Lookup("topic") != nil:
		return fmt.Errorf("%s takes its topic with --topic, not as words after it: %s --topic %q", path, path, said)
	case strings.HasPrefix(err.Error(), "unknown command"):
		return fmt.Errorf("%s takes no words after it, only flags; got %q (see %s --help)", path, said, path)
	}
	return err
}

// subcommandNames lists c's commands, for a sentence: "a, b and c".
func subcommandNames(c *cobra.Command) string {
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return prompts.AndList(names)
}

// wordsAre is the annotation of a command whose words, given by mistake,
// are a room's name ("room"): wordsAsFlags; or whose words are the room
// it works on (wordsAreTheRoom: rooms rename, delete, restore), so that
// --room there is the mistake (nearFlag).
const (
	wordsAre        = "wordsAre"
	wordsAreTheRoom = "the room"
)

// exit prints err and ends the process with its exit code.
func exit(cmd *cobra.Command, err error) error {
	printError(os.Stderr, err, cmd.CommandPath())
	os.Exit(exitCode(err))
	return err
}

func exitCode(err error) int {
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case isCobraUsage(err), debate.IsUsage(err), errors.Is(err, room.ErrNoRoom),
		errors.Is(err, room.ErrClosed), errors.Is(err, room.ErrSeatTaken):
		// A value that cannot run, or a room named that is not there or
		// cannot take the work (closed, its seat taken), is refused
		// before any work, whichever command found it.
		return 2
	case errors.Is(err, context.Canceled):
		return 130
	default:
		return 1
	}
}

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ctx, stop := stopOnSignals(context.Background())
	defer stop()
	root := newRoot()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	printError(os.Stderr, err, "")
	return exitCode(err)
}

// stopSignals are the signals that stop a run the way esc or ctrl+c does:
// the turn in progress is saved marked incomplete, the room closed saying
// why, seats given up with their disconnect line, and the exit code is 130.
// SIGHUP comes when the terminal goes (its window or tmux pane closed, an
// ssh session dropped) and, for a process started by another, often when
// that one goes.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// signalStop is the cause a run's context is cancelled with by a signal:
// errors.Is(err, context.Canceled) holds, and its message says which
// signal, for closed.json's detail.
type signalStop struct{ sig os.Signal }

func (e signalStop) Error() string {
	switch e.sig {
	case os.Interrupt:
		return "interrupted (SIGINT)"
	case syscall.SIGTERM:
		return "terminated (SIGTERM)"
	case syscall.SIGHUP:
		return "hung up (SIGHUP): the terminal closed or the session that started it ended"
	}
	return "stopped by " + e.sig.String()
}

func (e signalStop) Is(target error) bool { return target == context.Canceled }

// stopOnSignals is a context cancelled, with a signalStop cause, by the
// first of stopSignals. Later ones are caught too, so a second ctrl+c or a
// hang-up while the debate is being saved does not kill the save.
func stopOnSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	for _, sig := range stopSignals {
		// A hang-up ignored when we started stays ignored (nohup): Notify
		// would turn it on.
		if sig != syscall.SIGHUP || !signal.Ignored(sig) {
			signal.Notify(ch, sig)
		}
	}
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			cancel(signalStop{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		signal.Stop(ch)
		cancel(nil)
	}
}

// printError writes a failure on stderr as one plain sentence, with a
// pointer to the help of the command it was found in (path, as
// "roundtable host"; empty when not known) for command-line mistakes.
func printError(w io.Writer, err error, path string) {
	fmt.Fprintf(w, "roundtable: %s\n", err)
	var ee *exitError
	if errors.Is(err, room.ErrClosed) || errors.Is(err, room.ErrSeatTaken) || (errors.As(err, &ee) && ee.state) {
		return // the room's state, not the command line: the sentence says what to do
	}
	if (errors.As(err, &ee) && ee.code == 2) || isCobraUsage(err) {
		if path != "" {
			fmt.Fprintf(w, "Try %s --help.\n", path)
			return
		}
		fmt.Fprintln(w, "Try roundtable --help (or roundtable <command> --help).")
	}
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func buildCommit() string {
	if commit != "" {
		return commit
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 7 {
				return s.Value[:7]
			}
		}
	}
	return "unknown"
}

func goVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.GoVersion
	}
	return "unknown Go"
}

// isCobraUsage recognises cobra's own command-line errors, which it does
// not type.
func isCobraUsage(err error) bool {
	s := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "required flag"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
