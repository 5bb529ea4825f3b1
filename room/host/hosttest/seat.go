package hosttest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Seat is an MCP client (mcp-go's) connected to a seat server process
// over stdio.
type Seat struct {
	t      *testing.T
	Client *client.Client
	Name   string
	stderr *LockedBuffer
}

// StartSeat launches `roundtable --room ... --seat name` as a separate
// process and initializes it with the classic handshake real agents use.
func StartSeat(t *testing.T, cwd, roomName, name string, extra ...string) *Seat {
	t.Helper()
	return StartSeatWith(t, Binary(), nil, cwd, roomName, name, extra...)
}

// StartSeatWith is StartSeat with another binary and extra environment.
func StartSeatWith(t *testing.T, bin string, env []string, cwd, roomName, name string, extra ...string) *Seat {
	t.Helper()
	args := append([]string{"--room", roomName, "--seat", name, "--agent", name + "-agent", "--cwd", cwd}, extra...)
	return startSeat(t, bin, env, args, "roundtable-test", name)
}

// StartSeatAs is StartSeat for a client that names itself client in
// initialize (an agent CLI's name: "claude-code", "codex-mcp-client"),
// started as argv (a wrapper, then the seat server's command line).
func StartSeatAs(t *testing.T, client string, argv []string, seat string) *Seat {
	t.Helper()
	return startSeat(t, argv[0], nil, argv[1:], client, seat)
}

func startSeat(t *testing.T, bin string, env, args []string, clientName, name string) *Seat {
	t.Helper()
	stderr := &LockedBuffer{}
	c, err := client.NewStdioMCPClientWithOptions(bin, env, args, transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-06-18"
	req.Params.ClientInfo = mcp.Implementation{Name: clientName, Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize %s: %v (stderr: %s)", name, err, stderr.String())
	}
	s := &Seat{t: t, Client: c, Name: name, stderr: stderr}
	t.Cleanup(func() { c.Close() })
	return s
}

// Call invokes a tool and returns the decoded JSON reply (nil for a
// refusal), the refusal text, and whether it was a refusal.
func (s *Seat) Call(tool string, args map[string]any) (map[string]any, string, bool) {
	s.t.Helper()
	out, text, refused, err := s.Try(tool, args)
	if err != nil {
		s.t.Fatalf("%s %s: %v", s.Name, tool, err)
	}
	return out, text, refused
}

// Try is Call that returns a transport failure (a dead process) as an error.
func (s *Seat) Try(tool string, args map[string]any) (map[string]any, string, bool, error) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 70*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := s.Client.CallTool(ctx, req)
	if err != nil {
		return nil, "", false, err
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		return nil, text, true, nil
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		s.t.Fatalf("%s %s: reply is not JSON: %v\n%s", s.Name, tool, err, text)
	}
	return out, text, false, nil
}

// OK calls a tool that must succeed.
func (s *Seat) OK(tool string, args map[string]any) map[string]any {
	s.t.Helper()
	out, text, refused := s.Call(tool, args)
	if refused {
		s.t.Fatalf("%s %s refused: %s", s.Name, tool, text)
	}
	return out
}

// Refused calls a tool that must be refused with a message containing want.
func (s *Seat) Refused(tool string, args map[string]any, want string) {
	s.t.Helper()
	_, text, refused := s.Call(tool, args)
	if !refused {
		s.t.Fatalf("%s %s was accepted, want a refusal containing %q: %s", s.Name, tool, want, text)
	}
	if !strings.Contains(text, want) {
		s.t.Fatalf("%s %s refusal %q does not contain %q", s.Name, tool, text, want)
	}
}

// ToolNames lists the seat's tools.
func (s *Seat) ToolNames() []string {
	s.t.Helper()
	res, err := s.Client.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		s.t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// MessagesOf is the messages of a reply (read_room, wait_for_message).
func MessagesOf(t *testing.T, reply map[string]any) []map[string]any {
	t.Helper()
	raw, ok := reply["messages"].([]any)
	if !ok {
		t.Fatalf("reply has no messages: %v", reply)
	}
	var out []map[string]any
	for _, m := range raw {
		out = append(out, m.(map[string]any))
	}
	return out
}
