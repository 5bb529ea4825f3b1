package debateview

import (
	"context"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// fixedNow is the clock of every test screen.
var fixedNow = time.Date(2026, 11, 30, 14, 20, 10, 0, time.UTC)

// harness runs a screen the way a program does, without a terminal: each
// command in its own goroutine, messages back into Update one at a time.
type harness struct {
	t      *testing.T
	m      Model
	ctx    context.Context
	cancel context.CancelFunc
	msgs   chan tea.Msg
	wg     sync.WaitGroup
	quit   bool
	tr     *Tracker
}

// newHarness returns a harness whose context ends with the test; every
// goroutine it started is waited for at cleanup.
func newHarness(t *testing.T) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{t: t, ctx: ctx, cancel: cancel, msgs: make(chan tea.Msg, 256), tr: &Tracker{}}
	t.Cleanup(h.close)
	return h
}

// options are test options: the harness's context and tracker, a fixed
// clock, an export folder of the test's own.
func (h *harness) options() Options {
	return Options{Context: h.ctx, Now: func() time.Time { return fixedNow }, Dark: true, ExportDir: h.t.TempDir(), Tracker: h.tr}
}

// close ends everything the screen started: the context (timers, the
// debate), then the debate's stream, drained until saved, then the
// commands still running.
func (h *harness) close() {
	h.cancel()
	h.tr.Close()
	h.wg.Wait()
}

// run executes cmd in the background; its message comes back through msgs.
func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		msg := cmd()
		if msg == nil {
			return
		}
		select {
		case h.msgs <- msg:
		case <-h.ctx.Done():
		}
	}()
}

// send gives msg to the screen and runs what it asks for.
func (h *harness) send(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
		return
	case tea.QuitMsg:
		h.quit = true
		return
	}
	var cmd tea.Cmd
	h.m, cmd = h.m.Update(msg)
	h.run(cmd)
	_ = h.m.View()
}

// start sets the screen, sizes it and runs its Init.
func (h *harness) start(m Model, w, hgt int) {
	h.m = m
	h.send(tea.WindowSizeMsg{Width: w, Height: hgt})
	h.run(h.m.Init())
}

// until feeds messages to the screen until ok holds (checked after each),
// failing the test after timeout.
func (h *harness) until(what string, timeout time.Duration, ok func(Model) bool) {
	h.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for !ok(h.m) {
		select {
		case msg := <-h.msgs:
			h.send(msg)
		case <-deadline.C:
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, plain(h.m.View()))
		}
	}
}

// settled reports a finished debate whose renders are all in.
func settled(m Model) bool {
	return !m.Running() && m.events == nil && !m.rendering && m.renderMissing() == nil
}

// mockLaunch is a debate on the mock provider at zero pace, saved in cwd.
func mockLaunch(cwd string, rounds int) Launch {
	return Launch{
		Config:   debate.Config{Topic: "Should we adopt GraphQL for the public API", Personas: debate.DefaultPersonas(), Rounds: rounds, Seed: 1},
		Provider: debate.ProviderConfig{Name: debate.ProviderMock, Model: debate.ProviderMock},
		Cwd:      cwd,
		Room:     "graphql-test",
	}
}
