package app

import (
	"errors"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/burst"
	"github.com/roundtable-dev/roundtable/tui/internal/noterm"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// FPS is the most frames a second the app draws: enough for a streaming
// debate to look smooth. Bubble Tea v2.1.1 wakes its renderer FPS times a
// second for as long as the program runs, changed frame or not, and each
// wake-up costs 50-150 µs of CPU on a 2-core VM: at 60 an idle screen used
// 0.6-1.3 % of a core; at 30 it uses about half that (BENCHMARKS.md).
const FPS = 30

// Run shows the app until the user quits or opts.Context ends. Whatever
// ends it, a debate still running is stopped and saved before Run returns.
// It returns the context's error when the context ended it.
func Run(opts Options, progOpts ...tea.ProgramOption) error {
	m, err := New(opts)
	if err != nil {
		return err
	}
	ctx := m.opts.Context
	// Signals are the context's (the command cancels it on SIGINT, SIGTERM
	// and SIGHUP), not Bubble Tea's, whose SIGTERM is a quiet quit: every
	// way the program is stopped from outside ends here, as an
	// interruption, after the debate is saved.
	keys := burst.New()
	all := append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(FPS), tea.WithoutSignalHandler(), keys.Option()}, progOpts...)
	p := tea.NewProgram(m, all...)
	keys.Attach(p)
	final, err := p.Run()
	err = noterm.Explain(err, "roundtable tui", "run a debate with roundtable debate --topic \"…\"")
	fm, ok := final.(Model)
	if !ok {
		fm = m
	}
	reportStopped(m.opts.Stderr, fm.Close())
	interrupted := errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, tea.ErrInterrupted) || ctx.Err() != nil
	if err == nil && fm.screen == screenDebate && fm.debate.Interrupted() {
		// ctrl+c stopped a live debate: an interruption too (exit 130).
		interrupted = true
	}
	if interrupted {
		// A *debate.StoppedError: errors.Is(err, context.Canceled) holds,
		// so the command exits 130, and its message is the one line.
		if r := fm.debate.Room(); fm.screen == screenDebate && r != nil {
			name := mdrender.Inline(r.Config().Room)
			return &debate.StoppedError{Msg: fmt.Sprintf("interrupted; the debate is saved in room %s (roundtable debate --resume %s goes on with it)", name, name)}
		}
		return &debate.StoppedError{Msg: "interrupted"}
	}
	return err
}

// reportStopped says which seat processes quitting stopped, so a user
// who left a room to roundtable knows it no longer plays it.
func reportStopped(w io.Writer, stopped []seatproc.Status) {
	if w == nil || len(stopped) == 0 {
		return
	}
	parts := make([]string, len(stopped))
	for i, st := range stopped {
		parts[i] = fmt.Sprintf("the %s of room %s (%s, pid %d)", st.Seat, mdrender.Inline(st.Room), mdrender.Inline(st.Mind), st.PID)
	}
	noun := "seat"
	if len(stopped) > 1 {
		noun = "seats"
	}
	fmt.Fprintf(w, "Stopped the %s roundtable played: %s.\n", noun, strings.Join(parts, "; "))
}
