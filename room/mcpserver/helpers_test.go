package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// binary is the roundtable binary built once for the tests in this package.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "roundtable-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "roundtable")
	build := exec.Command("go", "build", "-race", "-o", binary, "github.com/roundtable-dev/roundtable/cmd/roundtable")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building roundtable:", err)
		os.Exit(1)
	}
	// The race runtime sleeps 1 s at exit by default; seat processes are
	// measured on how fast they leave, so not here.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// seat is an MCP client connected to a seat server process over stdio.
type seat struct {
	t      *testing.T
	c      *client.Client
	name   string
	stderr *lockedWriter
}

// startSeat launches `roundtable --room ... --seat name` as a separate
// process and initializes it with the classic handshake real agents use.
func startSeat(t *testing.T, cwd, roomName, name string, extra ...string) *seat {
	t.Helper()
	return startSeatWith(t, binary, nil, cwd, roomName, name, extra...)
}

// startSeatWith is startSeat with another binary and extra environment.
func startSeatWith(t *testing.T, bin string, env []string, cwd, roomName, name string, extra ...string) *seat {
	t.Helper()
	args := append([]string{"--room", roomName, "--seat", name, "--agent", name + "-agent", "--cwd", cwd}, extra...)
	stderr := &lockedWriter{b: &strings.Builder{}}
	c, err := client.NewStdioMCPClientWithOptions(bin, env, args, transport.WithCommandStderrWriter(stderr))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-06-18"
	req.Params.ClientInfo = mcp.Implementation{Name: "roundtable-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize %s: %v (stderr: %s)", name, err, stderr.String())
	}
	s := &seat{t: t, c: c, name: name, stderr: stderr}
	t.Cleanup(func() { c.Close() })
	return s
}

// call invokes a tool and returns the decoded JSON reply (nil for a
// refusal), the refusal text, and whether it was a refusal.
func (s *seat) call(tool string, args map[string]any) (map[string]any, string, bool) {
	s.t.Helper()
	out, text, refused, err := s.try(tool, args)
	if err != nil {
		s.t.Fatalf("%s %s: %v", s.name, tool, err)
	}
	return out, text, refused
}

// try is call that returns a transport failure (a dead process) as an error.
func (s *seat) try(tool string, args map[string]any) (map[string]any, string, bool, error) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 70*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := s.c.CallTool(ctx, req)
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
		s.t.Fatalf("%s %s: reply is not JSON: %v\n%s", s.name, tool, err, text)
	}
	return out, text, false, nil
}

// ok calls a tool that must succeed.
func (s *seat) ok(tool string, args map[string]any) map[string]any {
	s.t.Helper()
	out, text, refused := s.call(tool, args)
	if refused {
		s.t.Fatalf("%s %s refused: %s", s.name, tool, text)
	}
	return out
}

// refused calls a tool that must be refused with a message containing want.
func (s *seat) refused(tool string, args map[string]any, want string) {
	s.t.Helper()
	_, text, refused := s.call(tool, args)
	if !refused {
		s.t.Fatalf("%s %s was accepted, want a refusal containing %q: %s", s.name, tool, want, text)
	}
	if !strings.Contains(text, want) {
		s.t.Fatalf("%s %s refusal %q does not contain %q", s.name, tool, text, want)
	}
}

func (s *seat) toolNames() []string {
	s.t.Helper()
	res, err := s.c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		s.t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func messagesOf(t *testing.T, reply map[string]any) []map[string]any {
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
