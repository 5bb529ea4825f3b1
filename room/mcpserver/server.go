package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// MaxWait is the longest a wait_for_message call parks: MCP clients cap how
// long one tool call may run, commonly at 60 s.
const MaxWait = 55 * time.Second

// OpenCodeMaxWait is the longest wait opencode is given: it ends a tool
// call at 60 s, and a 55 s wait still timed out ("MCP error -32001:
// Request timed out").
const OpenCodeMaxWait = 45 * time.Second

// maxWaitFor is the longest a wait of the client named client parks.
func maxWaitFor(client string) time.Duration {
	if c, ok := seatcmd.ClientFor(client); ok && c == seatcmd.OpenCode {
		return OpenCodeMaxWait
	}
	return MaxWait
}

// progressEvery is how often a parked wait tells a client that asked for
// progress that it is still listening.
const progressEvery = 10 * time.Second

// workers is how many tool calls run at once. A parked wait holds one, so
// the default of 5 could let a few waits block a status call.
const workers = 32

// Options configure one seat server.
type Options struct {
	Room    string
	Seat    string
	Agent   string // defaults to the seat
	Topic   string
	Budget  int
	Cwd     string
	Spec    string
	Version string
	// Siblings names the agent CLI that started this stdio seat server
	// and says whether it runs another seat server of the room, which
	// defers the seat to the agent's first tool call (lazy.go); nil: Serve
	// asks the system (siblings.go). Tests give their own.
	Siblings func(roomName, seat string) (agent string, siblings bool)
}

// Validate checks the options a user typed. It creates nothing.
func (o *Options) Validate() error {
	if err := room.ValidateName(o.Room); err != nil {
		return err
	}
	if err := ValidateSeat(o.Seat); err != nil {
		return err
	}
	if o.Budget < 1 {
		return fmt.Errorf("budget must be a positive number of rounds, got %d", o.Budget)
	}
	return nil
}

// ValidateSeat checks a seat a server is asked to hold before its room is
// open: the lead, the peer, or any other name a council may have (the room
// says whether it is one of its seats when the seat starts); never
// "observer", the host's watch-only grant.
func ValidateSeat(seat string) error {
	if err := room.ValidateSeatName(seat); err != nil {
		return err
	}
	if seat == room.GrantObserver {
		return fmt.Errorf("%w: %q is the host's watch-only token, not a seat: hold the lead, the peer or a seat of a council", room.ErrBadSeat, seat)
	}
	return nil
}

// Seat is one seat's server: the room, the seat's identity, and what this
// seat has been shown so far.
type Seat struct {
	opt Options
	// agentGiven: --agent (or ROUNDTABLE_AGENT) named the agent; when not,
	// the client's name from initialize does (lazy.go).
	agentGiven bool
	// client is the name the client gave in initialize ("" before it, or
	// when it gave none): the longest wait it takes (waitTimeout).
	client   atomic.Value   // string
	room     *room.Room     // nil until begin creates or opens the room
	notifier *room.Notifier // nil until then too
	start    starting       // see lazy.go

	mu         sync.Mutex
	lastShown  int // highest seq of the other seat's messages shown to this seat
	lastPosted int // highest seq this process posted
	notesShown int // highest seq of the host's notes handed to this seat (notes.go)

	// splice, set by Serve, sends large replies past mcp-go's marshaling
	// (splice.go).
	splice *splicer

	// extra are tools a Host adds (observe_room, for its observers).
	extra []server.ServerTool

	// stop, set by a Host, closes when the host shuts down: a parked
	// wait_for_message then returns idle at once (host.go). nil: never.
	stop <-chan struct{}

	// remote, set by a Host: the client is on another machine, so replies
	// name the room's folders relative to its working directory, never
	// by the host's absolute paths (hostPath).
	remote bool
}

// NewSeat opens (or creates) the room and starts watching it. Close stops
// the watcher.
func NewSeat(ctx context.Context, opt Options) (*Seat, error) {
	s := newSeat(ctx, opt)
	if err := s.openRoom(); err != nil {
		return nil, err
	}
	return s, nil
}

// newSeat is a seat that has created nothing yet: Serve's seat opens its
// room on the client's first request (lazy.go).
func newSeat(ctx context.Context, opt Options) *Seat {
	given := opt.Agent != ""
	if opt.Agent == "" {
		opt.Agent = opt.Seat
	}
	if opt.Topic == "" {
		opt.Topic = "(topic not set)"
	}
	return &Seat{opt: opt, agentGiven: given, start: starting{ctx: ctx}}
}

// Room is the seat's room.
func (s *Seat) Room() *room.Room { return s.room }

// Close stops watching the room.
func (s *Seat) Close() {
	s.start.mu.Lock()
	n := s.notifier
	s.start.mu.Unlock()
	if n != nil {
		n.Close()
	}
}

// MCPServer builds the MCP server with this seat's tools.
func (s *Seat) MCPServer() *server.MCPServer {
	hooks := &server.Hooks{}
	hooks.AddOnRequestInitialization(s.beginOnRequest)
	hooks.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) {
		s.log("list_tools", room.F("seat", s.opt.Seat))
	})
	// The lead's tools stay registered for the peer, so a peer that calls one
	// gets a refusal it can act on rather than a protocol error; they are only
	// left out of the peer's list. The unknown-tool route is left out of
	// every list.
	hooks.AddAfterListTools(func(_ context.Context, _ any, _ *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		if res == nil {
			return
		}
		// A council's lead or peer learns it is one when its room opens,
		// after the tools were registered: it lists the council's
		// descriptions.
		var council map[string]mcp.Tool
		if s.takesTurns() {
			council = map[string]mcp.Tool{}
			for _, t := range s.tools() {
				council[t.Tool.Name] = t.Tool
			}
		}
		kept := res.Tools[:0]
		for _, t := range res.Tools {
			if t.Name != unknownTool && (s.opt.Seat == room.SeatLead || !leadOnly[t.Name]) {
				if c, ok := council[t.Name]; ok {
					t = c
				}
				kept = append(kept, t)
			}
		}
		res.Tools = kept
	})
	tools := append(s.tools(), server.ServerTool{Tool: unknownToolDef, Handler: s.unknown})
	known := make(map[string]bool, len(tools))
	for _, t := range tools {
		known[t.Tool.Name] = true
	}
	// Every call is written to server.log, under the name it was called by.
	s.compatHooks(hooks, known)
	opts := []server.ServerOption{
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		server.WithHooks(hooks),
		server.WithInputSchemaValidation(),
		server.WithInstructions(instructions(s.opt.Seat)),
	}
	if s.splice != nil {
		opts = append(opts, server.WithToolHandlerMiddleware(s.splice.middleware))
	}
	srv := server.NewMCPServer("roundtable", s.opt.Version, opts...)
	for _, t := range tools {
		srv.AddTool(t.Tool, t.Handler)
	}
	return srv
}

func (s *Seat) log(event string, fields ...room.Field) {
	// server.log is for diagnosis: a failed write must not fail a tool call.
	// An observer is no seat: its calls are not the seats' (host.go logs
	// its connects under events of their own).
	if s.room != nil && s.opt.Seat != room.GrantObserver {
		_ = s.room.Log(event, fields...)
	}
}

// Serve runs the seat server over stdin and stdout until stdin closes or ctx
// ends. stdout carries only the MCP protocol; diagnostics go to stderr and
// server.log.
func Serve(ctx context.Context, opt Options, stdin io.Reader, stdout, stderr io.Writer) error {
	if err := opt.Validate(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The room is created, and connect logged, when the client's first
	// request arrives (lazy.go): a process given EOF or garbage leaves
	// nothing on disk.
	if opt.Siblings == nil {
		opt.Siblings = agentOf
	}
	s := newSeat(ctx, opt)
	s.start.stderr = stderr
	defer s.Close()
	defer s.end()

	s.splice = newSplicer()
	stdout = s.splice.writer(stdout)
	stdio := server.NewStdioServer(s.MCPServer())
	stdio.SetErrorLogger(log.New(stderr, "roundtable: ", 0))
	server.WithWorkerPoolSize(workers)(stdio)
	err := stdio.Listen(ctx, stdin, stdout)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return fmt.Errorf("MCP stdio: %w", err)
}
