package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// A host (room/host) serves the seats of many rooms over MCP's streamable
// HTTP: one MCP server for every room and session (NewHostServer), whose
// calls each session's RemoteSeat answers with the stdio seat's tools,
// replies, refusals and server.log lines. The host keeps the sessions (who
// holds which seat, since when, how idle); this package keeps the tools.

// RemoteOptions say which seat a RemoteSeat plays.
type RemoteOptions struct {
	Room     *room.Room
	Notifier *room.Notifier
	// Stop is closed when the host stops: parked waits return idle.
	Stop <-chan struct{}
	// Seat is a seat of the room, or room.GrantObserver: an observer may
	// read and wait (and call observe_room) but never post, write the
	// spec or close.
	Seat, Agent, Version string
}

// RemoteSeat is the seat one HTTP session plays.
type RemoteSeat struct {
	s        *Seat
	observer bool
	handlers map[string]server.ToolHandlerFunc
	listed   []mcp.Tool // the seat's tool list, its own descriptions
}

// NewRemoteSeat is the seat o names, for a client on another machine: its
// replies name paths relative to the host's folder.
func NewRemoteSeat(o RemoteOptions) *RemoteSeat {
	cfg := o.Room.Config()
	agent := o.Agent
	if agent == "" {
		agent = o.Seat
	}
	s := &Seat{
		opt:      Options{Room: cfg.Room, Seat: o.Seat, Agent: agent, Topic: cfg.Topic, Budget: cfg.Budget, Cwd: o.Room.Cwd(), Spec: cfg.Spec, Version: o.Version},
		room:     o.Room,
		notifier: o.Notifier,
		stop:     o.Stop,
		remote:   true,
	}
	s.client.Store(o.Agent)
	s.start.begun.Store(true)
	s.start.pid = os.Getpid()
	rs := &RemoteSeat{s: s, observer: o.Seat == room.GrantObserver, handlers: map[string]server.ToolHandlerFunc{}}
	if rs.observer {
		s.extra = []server.ServerTool{observeToolOf(s)}
	}
	for _, t := range s.tools() {
		rs.handlers[t.Tool.Name] = t.Handler
		if s.shows(t.Tool.Name) {
			rs.listed = append(rs.listed, t.Tool)
		}
	}
	return rs
}

// Room is the seat's room.
func (rs *RemoteSeat) Room() *room.Room { return rs.s.room }

// Seat is the seat's name (room.GrantObserver for an observer).
func (rs *RemoteSeat) Seat() string { return rs.s.opt.Seat }

// Agent is the seat's agent label.
func (rs *RemoteSeat) Agent() string { return rs.s.opt.Agent }

// Sessions is what a host's MCP server asks the host of a request.
type Sessions interface {
	// SeatFor is the seat of ctx's session, made on the session's first
	// request (agent labels it); done is called when the request that
	// uses it ends (the host counts the calls running and the session's
	// last activity).
	//
	// take says the request takes the session's seat: an initialize (the
	// host holds the seat unless agent is a coding agent's CLI, which
	// takes it with its first call) or a tool call; listing the tools
	// makes the session without taking its seat.
	SeatFor(ctx context.Context, agent string, take bool) (rs *RemoteSeat, done func(), err error)
	// SeatOf is the seat of ctx's session, nil when it has none yet.
	SeatOf(ctx context.Context) *RemoteSeat
}

// writes names the tools an observer may not call.
var writes = map[string]bool{"post": true, "write_spec": true, "close_room": true}

// NewHostServer is the one MCP server of every room and session of a
// host. Its tools are the lead's (the widest set, whose schemas every seat
// shares) and observe_room; each call is answered by the calling
// session's seat, and each seat lists its own tools.
func NewHostServer(version string, ss Sessions) *server.MCPServer {
	tmpl := newSeat(context.Background(), Options{Seat: room.SeatLead})
	tmpl.extra = []server.ServerTool{observeToolOf(tmpl)}
	tools := append(tmpl.tools(), server.ServerTool{Tool: unknownToolDef})
	known := make(map[string]bool, len(tools))
	for _, t := range tools {
		known[t.Tool.Name] = true
	}
	hooks := &server.Hooks{}
	hooks.AddOnRequestInitialization(func(ctx context.Context, _ any, message any) error {
		if !needsRoom(message) {
			return nil
		}
		m := method(message)
		take := m == "initialize" || m == "tools/call"
		if !take && ss.SeatOf(ctx) != nil {
			return nil // listing tools takes no seat
		}
		_, done, err := ss.SeatFor(ctx, clientName(message), take)
		if err != nil {
			return err
		}
		done()
		return nil
	})
	hooks.AddBeforeListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest) {
		if rs := ss.SeatOf(ctx); rs != nil {
			rs.s.log("list_tools", room.F("seat", rs.s.opt.Seat))
		}
	})
	hooks.AddAfterListTools(func(ctx context.Context, _ any, _ *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
		rs := ss.SeatOf(ctx)
		if res == nil || rs == nil {
			return
		}
		res.Tools = slices.Clone(rs.listed)
	})
	addCompatHooks(hooks, known, func(ctx context.Context) *Seat {
		if rs := ss.SeatOf(ctx); rs != nil {
			return rs.s
		}
		return nil
	})
	srv := server.NewMCPServer("roundtable", version,
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		server.WithHooks(hooks),
		server.WithInputSchemaValidation(),
		server.WithInstructions("You hold a seat of a roundtable room, the one your token names. Loop: post when it is your turn, then call "+
			"wait_for_message; on idle call it again; stop only when it returns closed. Notes from the host in a reply "+
			"outrank the course of the debate: follow them."),
	)
	for _, t := range tools {
		srv.AddTool(t.Tool, dispatch(ss, t.Tool.Name))
	}
	return srv
}

// dispatch answers a call of the tool name with the session's seat.
func dispatch(ss Sessions, name string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rs, done, err := ss.SeatFor(ctx, "", true)
		if err != nil {
			return refuse("%v.", err)
		}
		defer done()
		s := rs.s
		if rs.observer && writes[name] {
			return refuse("This token is an observer's: it may read the room and wait, but %s is not allowed. Ask the room's host for a seat's token to take part.", name)
		}
		if name == observeTool && !rs.observer {
			return refuse("%s; a seat reads the room with read_room and wait_for_message.", room.ObserveSeatRefusal)
		}
		handle := rs.handlers[name]
		if name == unknownTool || handle == nil {
			handle = s.unknown
		}
		res, err := handle(ctx, req)
		return scrubResult(s.room.Cwd(), res, err)
	}
}

// clientName is the client's name from an initialize request, as the
// seat's agent label; "" for any other request.
func clientName(message any) string {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return ""
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			ClientInfo struct {
				Name string `json:"name"`
			} `json:"clientInfo"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Method != "initialize" {
		return ""
	}
	name := m.Params.ClientInfo.Name
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}
