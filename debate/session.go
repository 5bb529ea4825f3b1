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
}

// Events is the debate's event stream (see Event), each event already saved
// in the room when it arrives. It ends with one done or error event and is
// then closed; read it until then, or call Close.
func (s *Session) Events() <-chan Event { return s.events }

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
