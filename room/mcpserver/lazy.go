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
	"github.com/roundtable-dev/roundtable/room/seatcmd"
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
	// deferred: the client is an agent CLI (or speaks a protocol without
	// initialize), whose seat is taken on its first tool call; decided:
	// deferred is set; agent is the CLI's ID (room.AgentID); siblings
	// says it runs another seat server of the room; release gives back
	// the claim.
	deferred, decided bool
	agent             string
	siblings          bool
	release           func()
}

// needsRoom reports whether a JSON-RPC request is one that starts the seat:
// initialize, or a tools/ request from a client that skips initialize (as
// protocol versions without the handshake do). Pings and anything else do
// not create the room.
func needsRoom(message any) bool {
	m := method(message)
	return m == "initialize" || strings.HasPrefix(m, "tools/")
}

// method is a JSON-RPC request's method ("" when it cannot be read);
// "tools/" for a message that is not what mcp-go passes today.
func method(message any) string {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return "tools/" // start rather than refuse
	}
	var head struct {
		Method string `json:"method"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return ""
	}
	return head.Method
}

// beginOnRequest is the MCP server's hook before every request: it starts
// the seat on the first request that needs the room. A room that cannot be
// created fails that request with a sentence the client shows; the next
// request tries again.
func (s *Seat) beginOnRequest(_ context.Context, _ any, message any) error {
	if s.start.begun.Load() || !needsRoom(message) {
		return nil
	}
	if err := s.beginAs(clientName(message), method(message)); err != nil {
		var other *room.OtherSeatError
		if errors.As(err, &other) {
			// Not a failure to tell on stderr: the agent plays its seat
			// through its other server, and this one stays out of it.
			mine := seatcmd.Seat{Room: s.opt.Room, Seat: s.opt.Seat}.ServerName()
			theirs := seatcmd.Seat{Room: s.opt.Room, Seat: other.Seat}.ServerName()
			return fmt.Errorf("this agent already plays the %s seat of room %q (the %s tools), and one agent plays one seat: leave the %s tools alone; the %s seat is for an agent started in another terminal", other.Seat, s.opt.Room, theirs, mine, s.opt.Seat)
		}
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
func (s *Seat) beginAs(client, method string) error {
	s.start.mu.Lock()
	defer s.start.mu.Unlock()
	if s.start.begun.Load() {
		return nil
	}
	if client != "" {
		s.client.Store(client)
		if !s.agentGiven {
			s.opt.Agent = client
		}
	}
	if err := s.openRoomLocked(); err != nil {
		return err
	}
	// A coding agent's CLI takes its seat when it first calls a tool, not
	// when it starts: one started where both seats of a room are
	// registered runs both seat servers, and plays only the seat whose
	// tool it calls first (room.ClaimAgent). Any other client (a script
	// of the original's driving both seats, a test) holds the seat at
	// initialize, as the original does.
	if !s.start.decided {
		// A client of MCP 2026-07-28 sends no initialize (Claude Code):
		// its first request lists the tools, which takes no seat either.
		s.start.decided = true
		s.start.deferred = s.opt.Siblings != nil && (method != "initialize" || seatcmd.TakesSeatOnCall(client))
	}
	if s.start.deferred {
		if method != "tools/call" {
			return nil
		}
		// The claim is a named agent CLI's; a client without initialize
		// (MCP 2026-07-28: Claude Code, or a test) takes the seat it calls
		// without one, and a script may drive several seats from one
		// process, as the original allows.
		if name, _ := s.client.Load().(string); s.start.agent == "" && seatcmd.TakesSeatOnCall(name) {
			s.start.agent, s.start.siblings = s.opt.Siblings(s.opt.Room, s.opt.Seat)
		}
	}
	if s.start.siblings && s.start.release == nil {
		release, err := s.room.ClaimAgent(s.start.agent, s.opt.Seat)
		if err != nil {
			return err
		}
		s.start.release = release
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
		s.releaseClaimLocked()
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
	s.releaseClaimLocked()
}

// releaseClaimLocked gives back the agent's claim this seat made, if any.
func (s *Seat) releaseClaimLocked() {
	if s.start.release != nil {
		s.start.release()
		s.start.release = nil
	}
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
