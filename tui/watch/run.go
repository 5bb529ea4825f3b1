package watch

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/burst"
	"github.com/roundtable-dev/roundtable/tui/internal/noterm"
)

// FPS is the frame rate the watch program asks for: a message is drawn at
// most 20 ms after it is read. Bubble Tea v2.1.1 wakes its renderer FPS
// times a second even when nothing changed, so a higher rate costs idle CPU
// (120 used 1.3 % of a core on a quiet screen) for a delay nobody sees.
const FPS = 50

// program is the screen as a full-window tea.Model.
type program struct{ m *Model }

// Program wraps the screen as the root model of a program: full window
// (alternate screen), mouse wheel on. The program owns the one Model and
// updates it in place.
func Program(m Model) tea.Model { return program{&m} }

func (p program) Init() tea.Cmd { return p.m.Init() }

func (p program) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	return p, p.m.apply(msg)
}

func (p program) View() tea.View {
	v := tea.NewView(p.m.view())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "roundtable watch · " + p.m.opts.Room
	v.ProgramStatus = p.m.ProgramStatus()
	return v
}

// Run shows the watch screen until the user quits or ctx ends, then stops
// its background work. It returns ctx's error when ctx ended it.
func Run(ctx context.Context, opts Options, progOpts ...tea.ProgramOption) error {
	opts.Context = ctx
	m, err := New(opts)
	if err != nil {
		return err
	}
	defer m.Close()
	keys := burst.New()
	all := append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(FPS), keys.Option()}, progOpts...)
	p := tea.NewProgram(Program(m), all...)
	keys.Attach(p)
	_, err = p.Run()
	instead := "read the room with roundtable transcript --room " + opts.Room
	if _, oerr := room.Open(opts.Cwd, opts.Room); errors.Is(oerr, room.ErrNoRoom) {
		instead = "list the rooms with roundtable rooms: there is no room " + opts.Room + " yet"
	}
	err = noterm.Explain(err, "roundtable watch", instead)
	if err != nil && errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
