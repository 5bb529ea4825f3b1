package debate

import (
	"context"
	"errors"

	"github.com/roundtable-dev/roundtable/room"
)

// ErrOutputClosed is the cause a debate is stopped with when nobody reads
// it any more: the headless command's output was closed (a reader like
// `head` exited). Its room closes with ReasonOutputClosed.
var ErrOutputClosed = errors.New(ReasonOutputClosed)

// Session is one running debate, from Start: its events, its room, and the
// controls of whoever runs it. Every front end (the headless command, the
// TUI) drives a debate only through a Session, so a control added here
// reaches them all: Stop, and the user's notes between turns (Interject)
// and the go-on after a pause (Continue), handed to the engine the way
// Stop's cancellation is.
type Session struct {
	cfg    Config
	pc     ProviderConfig
	room   *room.Room
	events <-chan Event
	cancel context.CancelCauseFunc
	ctl    *control // the user's notes and pauses: Interject, Continue

	done chan struct{} // closed once the run has ended
	err  error         // how the run ended, set before done closes
	last Event         // the run's final event, set before done closes
}

// Events is the debate as its room holds it, each event saved before it
// arrives: its room followed (StoreEvents.Stream), as a screen in another
// process reads it, from when the run started. It ends with the room's
// done or error event once the run has ended, and is then closed; read it
// until then, or call Close.
func (s *Session) Events() <-chan Event { return s.events }

// Done is closed once the debate's run has ended: its room saved and
// closed, every agent stopped.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err is, once Done is closed, why the run ended short: nil when it
// reached its verdict; the stop's cause (context.Canceled, or
// StopBecause's); or its failure, which wraps ErrSave when the room could
// not be saved.
func (s *Session) Err() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// run reads the run's recorded events (each saved in the room by then) to
// their end and keeps how it ended.
func (s *Session) run(recorded <-chan Event) {
	for ev := range recorded {
		if ev.IsTerminal() {
			s.last = ev
		}
	}
	switch {
	case s.last.Type == EventDone:
	case s.last.Err != nil:
		s.err = s.last.Err
	default:
		s.err = errors.New(s.last.Text)
	}
	close(s.done)
}

// endEvent ends the events of a run whose room shows no end (it could not
// be saved): the run's own final event, with its cause.
func (s *Session) endEvent() Event { return s.last }

// Room is the room the debate is saved in.
func (s *Session) Room() *room.Room { return s.room }

// Config is the debate being run, defaults filled in.
func (s *Session) Config() Config { return s.cfg }

// Provider is the resolved provider configuration.
func (s *Session) Provider() ProviderConfig { return s.pc }

// Stop ends the debate: the stream ends promptly with error
// {message: "cancelled"}, what was said is kept, and the room closes as
// cancelled. Stopping a debate that has ended does nothing.
func (s *Session) Stop() { s.cancel(nil) }

// StopBecause ends the debate like Stop, recording why: with
// ErrOutputClosed the room closes with ReasonOutputClosed.
func (s *Session) StopBecause(cause error) { s.cancel(cause) }

// Close stops the debate and waits until it is saved, discarding the
// events nobody read. It may be called more than once, and while another
// goroutine reads Events.
func (s *Session) Close() {
	s.Stop()
	for range s.events {
	}
}
