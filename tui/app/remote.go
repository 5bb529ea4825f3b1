package app

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/debateview"
	"github.com/roundtable-dev/roundtable/tui/internal/burst"
	"github.com/roundtable-dev/roundtable/tui/internal/noterm"
	"github.com/roundtable-dev/roundtable/tui/internal/seatproc"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

// RunRemote shows a room that roundtable host serves (roundtable watch
// --url) until the user quits or ctx ends, read-only, from the local
// mirror watch.DialRemote keeps: a persona debate in the debate screen,
// its columns streaming each persona's words as on the machine that runs
// it; any other room in the watch screen. The mirror is removed on the
// way out. Errors before the screen (a refused token, a host that cannot
// be reached) are DialRemote's.
func RunRemote(ctx context.Context, ro watch.RemoteOptions, progOpts ...tea.ProgramOption) error {
	rm, err := watch.DialRemote(ctx, ro)
	if err != nil {
		return err
	}
	defer rm.Close()
	if !rm.Config.IsDebate() {
		return rm.Watch(ctx, ro, progOpts...)
	}
	return runRemoteDebate(ctx, rm, ro, progOpts...)
}

// runRemoteDebate shows the mirrored debate in the debate screen, alone:
// q quits the program.
func runRemoteDebate(ctx context.Context, rm *watch.Remote, ro watch.RemoteOptions, progOpts ...tea.ProgramOption) error {
	r, err := room.Open(rm.Cwd, rm.Room)
	if err != nil {
		return fmt.Errorf("open the local copy of room %s: %w", mdrender.Inline(rm.Room), err)
	}
	feed, err := debateview.OpenRemote(ctx, r, rm.Link)
	if err != nil {
		return fmt.Errorf("open the local copy of room %s: %w", mdrender.Inline(rm.Room), err)
	}
	m, err := newRemoteDebate(Options{Cwd: rm.Cwd, ExportDir: ro.ExportDir, Dark: ro.Dark, Context: ctx}, feed)
	if err != nil {
		feed.Close()
		return err
	}
	keys := burst.New()
	all := append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(FPS), keys.Option()}, progOpts...)
	p := tea.NewProgram(m, all...)
	keys.Attach(p)
	final, err := p.Run()
	if fm, ok := final.(Model); ok {
		m = fm
	}
	m.Close()
	err = noterm.Explain(err, "roundtable watch", "read the debate with roundtable transcript on the host")
	if err != nil && errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// newRemoteDebate is the app on the debate screen alone, following the
// mirror of a debate a host serves: not embedded (q quits), no rerun.
func newRemoteDebate(opts Options, feed debateview.RoomFeed) (Model, error) {
	opts.NoWatch = true
	opts, err := opts.normalize()
	if err != nil {
		return Model{}, err
	}
	m := Model{
		opts: opts, tracker: &debateview.Tracker{}, seats: &seatproc.Group{}, md: mdrender.New(opts.Dark), dark: opts.Dark,
		width: 80, height: 24, screen: screenDebate,
	}
	dopts := m.debateOptions()
	dopts.Embedded = false
	m.debate = debateview.NewFromRoom(dopts, feed, nil)
	return m, nil
}
