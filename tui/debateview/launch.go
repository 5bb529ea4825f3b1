package debateview

import (
	"context"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// Launch is a debate ready to start: the settings debate.Start starts it
// from, the same the headless command uses. Runs started again (r) get a
// fresh room name.
type Launch = debate.Settings

// launchLabel is how the header names the provider and its model before
// the debate starts: as resolved from the settings and the environment,
// or as given when they do not resolve (the start will say why).
func launchLabel(l Launch) string {
	getenv := l.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	pc, err := debate.ResolveProvider(l.Provider, getenv)
	if err != nil {
		pc = l.Provider
	}
	return debate.ProviderLabel(pc.Name, pc.Model)
}

// Tracker keeps every debate a screen started, so that whoever ends the
// program can stop them and let their rooms be saved even when the screen
// never saw its debate end (a signal, a crash of the terminal). Its zero
// value is ready to use; it is safe for concurrent use.
type Tracker struct {
	mu     sync.Mutex
	runs   []*debate.Session
	closed bool
}

// add registers a running debate; after Close it is stopped at once.
func (t *Tracker) add(sess *debate.Session) {
	t.mu.Lock()
	closed := t.closed
	if !closed {
		t.runs = append(t.runs, sess)
	}
	t.mu.Unlock()
	if closed {
		sess.Close()
	}
}

// Close stops every debate still running and waits until each has been
// saved (Session.Close). It may be called more than once.
func (t *Tracker) Close() {
	t.mu.Lock()
	runs := t.runs
	t.runs = nil
	t.closed = true
	t.mu.Unlock()
	for _, s := range runs {
		s.Stop() // all at once; then each waited for
	}
	for _, s := range runs {
		s.Close()
	}
}

// start starts l (debate.Start: checks, preflight, room, engine) under
// the name roomName; it runs in a command. The tracker keeps the session
// from the moment it exists, so a program ending before the screen sees
// it still saves it.
func start(parent context.Context, tr *Tracker, l Launch, roomName string) (startedMsg, error) {
	l.Room = roomName
	sess, err := debate.Start(parent, l)
	if err != nil {
		return startedMsg{}, err
	}
	if tr != nil {
		tr.add(sess)
	}
	return sessionMsg(sess), nil
}

// sessionMsg is the startedMsg of a running session.
func sessionMsg(sess *debate.Session) startedMsg {
	pc := sess.Provider()
	return startedMsg{
		room: sess.Room(), cfg: sess.Config(), events: sess.Events(), cancel: sess.Stop, sess: sess,
		provider: debate.ProviderLabel(pc.Name, pc.Model),
	}
}

// StartedMsg is the outcome of StartCmd: the debate running, or why it
// could not start (Err, from debate.Start).
type StartedMsg struct {
	Launch  Launch
	Session *debate.Session
	Err     error
}

// StartCmd starts l in the background, for a parent screen that shows
// something else (a form) until it runs; show the running debate with
// NewStarted. Sessions are kept by tr (may be nil) from their start.
func StartCmd(ctx context.Context, tr *Tracker, l Launch) tea.Cmd {
	return func() tea.Msg {
		sess, err := debate.Start(ctx, l)
		if err == nil && tr != nil {
			tr.add(sess)
		}
		return StartedMsg{Launch: l, Session: sess, Err: err}
	}
}

// StartFailedMsg tells the parent of an embedded screen (Options.Embedded)
// that the debate it was to start (at Init, or again with r) could not
// start, and why: the parent shows the settings again with the reason.
type StartFailedMsg struct {
	Launch Launch
	Err    error
}

// NewStarted returns a screen showing a debate started with StartCmd (its
// StartedMsg without an error); r runs its launch again.
func NewStarted(opts Options, msg StartedMsg) Model {
	m := New(opts, msg.Launch)
	started := sessionMsg(msg.Session)
	m.pending = &started
	return m
}
