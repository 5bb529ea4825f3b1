package debateview

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/roundtable-dev/roundtable/debate"
)

// Launch is a debate ready to start: its settings, its provider and where
// it is saved. The screen creates the room and starts the engine in the
// background, the way the headless command does (debate.CreateRoom, then
// debate.Record over Engine.Run).
type Launch struct {
	// Config is the debate; the engine checks it (debate.Config.Normalize).
	Config debate.Config
	// Provider is a resolved provider configuration
	// (debate.ResolveProvider).
	Provider debate.ProviderConfig
	// Cwd is the folder whose .roundtable/ holds the room; empty: the
	// working directory.
	Cwd string
	// Room names the room of the first run; empty: made from the topic and
	// the time. Runs started again with r always get a fresh name.
	Room string
}

// ProviderLabel is how the header names the provider and its model.
func (l Launch) ProviderLabel() string { return providerLabel(l.Provider.Name, l.Provider.Model) }

func providerLabel(name, model string) string {
	switch {
	case name == "":
		return model
	case model == "" || strings.EqualFold(model, name):
		return name
	}
	return name + " · " + model
}

// Tracker keeps every debate a screen started, so that whoever ends the
// program can stop them and let their rooms be saved even when the screen
// never saw its debate end (a signal, a crash of the terminal). Its zero
// value is ready to use; it is safe for concurrent use.
type Tracker struct {
	mu     sync.Mutex
	runs   []trackedRun
	closed bool
}

type trackedRun struct {
	events <-chan debate.Event
	cancel context.CancelFunc
}

// add registers a running debate; after Close it is stopped at once.
func (t *Tracker) add(events <-chan debate.Event, cancel context.CancelFunc) {
	t.mu.Lock()
	closed := t.closed
	if !closed {
		t.runs = append(t.runs, trackedRun{events, cancel})
	}
	t.mu.Unlock()
	if closed {
		cancel()
		for range events {
		}
	}
}

// Close cancels every debate still running and waits until each has been
// saved (its event stream closed). It may be called more than once.
func (t *Tracker) Close() {
	t.mu.Lock()
	runs := t.runs
	t.runs = nil
	t.closed = true
	t.mu.Unlock()
	for _, r := range runs {
		r.cancel()
	}
	for _, r := range runs {
		for range r.events {
		}
	}
}

// start creates the room and starts the engine; it runs in a command.
func start(parent context.Context, tr *Tracker, l Launch, roomName string) (startedMsg, error) {
	prov, err := debate.NewProvider(l.Provider)
	if err != nil {
		return startedMsg{}, err
	}
	eng, err := debate.New(l.Config, prov)
	if err != nil {
		return startedMsg{}, err
	}
	cwd := l.Cwd
	if cwd == "" {
		cwd = "."
	}
	r, err := debate.CreateRoom(cwd, roomName, eng.Config())
	if err != nil {
		return startedMsg{}, fmt.Errorf("save the debate: %w", err)
	}
	ctx, cancel := context.WithCancel(parent)
	events := debate.Record(eng.Run(ctx), debate.NewRecorder(r))
	if tr != nil {
		tr.add(events, cancel)
	}
	return startedMsg{room: r, cfg: eng.Config(), events: events, cancel: cancel}, nil
}
