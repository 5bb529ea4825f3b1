package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/roundtable-dev/roundtable/room"
)

// starting is how a seat comes to have a room. Serve's seat creates (or
// opens) it on the client's first request that needs it, an MCP
// initialize or a tools/ request, not when the process starts: agent CLIs
// start their MCP servers for probes and health checks, and a process that
// is given EOF or garbage on stdin must leave no room folder behind.
type starting struct {
	ctx    context.Context // bounds the room's Notifier
	stderr io.Writer       // where a failure to start is also told; nil: nowhere

	mu     sync.Mutex // guards the Seat's room and notifier and what follows
	begun  atomic.Bool
	pid    int // logged on connect and disconnect
	failed string
	// hold is the seat held (room.SeatHold): its connect line and, when
	// it was free, its lock, so readers tell from the lock that the seat
	// is gone however its process ends. Without the lock when another
	// MCP server held it (the seat is then played twice, as the original
	// allows).
	hold *room.SeatHold
}

// needsRoom reports whether a JSON-RPC request is one that starts the seat:
// initialize, or a tools/ request from a client that skips initialize (as
// protocol versions without the handshake do). Pings and anything else do
// not create the room.
func needsRoom(message any) bool {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return true // not what mcp-go passes today: start rather than refuse
	}
	var head struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return false
	}
	return head.Method == "initialize" || strings.HasPrefix(head.Method, "tools/")
}

// beginOnRequest is the MCP server's hook before every request: it starts
// the seat on the first request that needs the room. A room that cannot be
// created fails that request with a sentence the client shows; the next
// request tries again.
func (s *Seat) beginOnRequest(_ context.Context, _ any, message any) error {
	if s.start.begun.Load() || !needsRoom(message) {
		return nil
	}
	if err := s.beginAs(clientName(message)); err != nil {
		msg := fmt.Sprintf("roundtable: seat %s of room %q cannot start: %v. Fix that (is --cwd writable?) and call again or restart the agent.", s.opt.Seat, s.opt.Room, err)
		switch {
		case errors.Is(err, room.ErrBadSeat), errors.Is(err, room.ErrNoRoom):
			msg = fmt.Sprintf("roundtable: seat %s of room %q cannot start: %v. A council's seats are set when it is created (roundtable seed --room %s --seats lead,...): seed it first, or hold one of its seats (--seat), then restart the agent.", s.opt.Seat, s.opt.Room, err, s.opt.Room)
		case errors.Is(err, room.ErrSeatTaken):
			msg = fmt.Sprintf("roundtable: seat %s of room %q cannot start: %v, then call again or restart the agent.", s.opt.Seat, s.opt.Room, err)
		}
		s.start.mu.Lock()
		if s.start.stderr != nil && s.start.failed != msg {
			fmt.Fprintln(s.start.stderr, msg)
		}
		s.start.failed = msg
		s.start.mu.Unlock()
		return fmt.Errorf("%s", strings.TrimPrefix(msg, "roundtable: "))
	}
	return nil
}

// beginAs opens the room once and logs the seat's connect line. client is
// the name the client gave in initialize (or ""): unless --agent named the
// agent, it labels the seat (watch shows "an agent over MCP
// (claude-code)", not the seat's name).
func (s *Seat) beginAs(client string) error {
	s.start.mu.Lock()
	defer s.start.mu.Unlock()
	if s.start.begun.Load() {
		return nil
	}
	if !s.agentGiven && client != "" {
		s.opt.Agent = client
	}
	if err := s.openRoomLocked(); err != nil {
		return err
	}
	// One seat, one player: a seat a person or roundtable seat plays is
	// not played a second time over MCP.
	if err := s.room.SeatHeld(s.opt.Seat); err != nil {
		return err
	}
	s.start.pid = os.Getpid()
	hold, err := s.room.HoldSeat(s.opt.Seat, room.HoldOptions{
		Agent: s.opt.Agent, Fields: []room.Field{room.F("waits", room.WaitsLogged)},
		MarkLock: true, Lenient: true,
	})
	if err != nil {
		return err
	}
	s.start.hold = hold
	s.start.begun.Store(true)
	return nil
}

// end logs the disconnect of a seat that began.
func (s *Seat) end() {
	s.start.mu.Lock()
	defer s.start.mu.Unlock()
	_ = s.start.hold.Release()
	s.start.hold = nil
}

// openRoom creates or opens the room and starts watching it, once.
func (s *Seat) openRoom() error {
	s.start.mu.Lock()
	defer s.start.mu.Unlock()
	return s.openRoomLocked()
}

func (s *Seat) openRoomLocked() error {
	if s.room != nil {
		return nil
	}
	var r *room.Room
	var err error
	if s.opt.Seat == room.SeatLead || s.opt.Seat == room.SeatPeer {
		r, _, err = room.Create(s.opt.Cwd, s.opt.Room, room.CreateOptions{Topic: s.opt.Topic, Budget: s.opt.Budget, Spec: s.opt.Spec})
	} else {
		// Any other seat is a council's, whose room (and its seats) only
		// roundtable seed creates: never make a two-seat room for it.
		r, err = room.Open(s.opt.Cwd, s.opt.Room)
	}
	if err != nil {
		return err
	}
	if err := r.Config().CheckSeat(s.opt.Seat); err != nil {
		return err
	}
	s.room = r
	s.notifier = room.Watch(s.start.ctx, r)
	return nil
}
