package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// MaxWait is the longest a wait_for_message call parks: MCP clients cap how
// long one tool call may run, commonly at 60 s.
const MaxWait = 55 * time.Second

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
}

// Validate checks the options a user typed. It creates nothing.
func (o *Options) Validate() error {
	if err := room.ValidateName(o.Room); err != nil {
		return err
	}
	if err := room.ValidateSeat(o.Seat); err != nil {
		return err
	}
	if o.Budget < 1 {
		return fmt.Errorf("budget must be a positive number of rounds, got %d", o.Budget)
	}
	return nil
}

// Seat is one seat's server: the room, the seat's identity, and what this
// seat has been shown so far.
type Seat struct {
	opt      Options
	room     *room.Room
	notifier *room.Notifier

	mu        sync.Mutex
	lastShown int // highest seq of the other seat's messages shown to this seat
}

// NewSeat opens (or creates) the room and starts watching it. Close stops
// the watcher.
func NewSeat(ctx context.Context, opt Options) (*Seat, error) {
	if opt.Agent == "" {
		opt.Agent = opt.Seat
	}
	if opt.Topic == "" {
		opt.Topic = "(topic not set)"
	}
	r, _, err := room.Create(opt.Cwd, opt.Room, room.CreateOptions{Topic: opt.Topic, Budget: opt.Budget, Spec: opt.Spec})
	if err != nil {
		return nil, err
	}
	s := &Seat{opt: opt, room: r}
	s.notifier = room.Watch(ctx, r)
	return s, nil
}

// Room is the seat's room.
func (s *Seat) Room() *room.Room { return s.room }

// Close stops watching the room.
func (s *Seat) Close() { s.notifier.Close() }

// MCPServer builds the MCP server with this seat's tools.
func (s *Seat) MCPServer() *server.MCPServer {
	hooks := &server.Hooks{}
	hooks.AddBeforeListTools(func(context.Context, any, *mcp.ListToolsRequest) {
		s.log("list_tools", room.F("seat", s.opt.Seat))
	})
	// The lead's tools stay registered for the peer, so a peer that calls one
	// gets a refusal it can act on rather than a protocol error; they are only
	// left out of the peer's list.
	hooks.AddAfterListTools(func(_ context.Context, _ any, _ *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		if s.opt.Seat == room.SeatLead || res == nil {
			return
		}
		kept := res.Tools[:0]
		for _, t := range res.Tools {
			if !leadOnly[t.Name] {
				kept = append(kept, t)
			}
		}
		res.Tools = kept
	})
	srv := server.NewMCPServer("roundtable", s.opt.Version,
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		server.WithHooks(hooks),
		server.WithInstructions(instructions(s.opt.Seat)),
	)
	for _, t := range s.tools() {
		srv.AddTool(t.Tool, s.logCalls(t.Tool.Name, t.Handler))
	}
	return srv
}

// logCalls wraps a handler so every call is written to server.log first.
func (s *Seat) logCalls(name string, h server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.log("call", room.F("seat", s.opt.Seat), room.F("tool", name))
		return h(ctx, req)
	}
}

func (s *Seat) log(event string, fields ...room.Field) {
	// server.log is for diagnosis: a failed write must not fail a tool call.
	_ = s.room.Log(event, fields...)
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
	s, err := NewSeat(ctx, opt)
	if err != nil {
		return err
	}
	defer s.Close()
	pid := os.Getpid()
	s.log("connect", room.F("seat", s.opt.Seat), room.F("agent", s.opt.Agent), room.F("pid", pid))
	defer s.log("disconnect", room.F("seat", s.opt.Seat), room.F("pid", pid))

	stdio := server.NewStdioServer(s.MCPServer())
	stdio.SetErrorLogger(log.New(stderr, "roundtable: ", 0))
	server.WithWorkerPoolSize(workers)(stdio)
	err = stdio.Listen(ctx, stdin, stdout)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return fmt.Errorf("MCP stdio: %w", err)
}
