package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestStdioSeatNamedByItsClient: a stdio seat started without --agent is
// labeled by the client's name from initialize (watch then says "an
// agent over MCP (claude-code)", not the seat's name); --agent still wins.
// An agent CLI's seat is taken at its first tool call (lazy.go).
func TestStdioSeatNamedByItsClient(t *testing.T) {
	cwd := t.TempDir()
	for _, c := range []struct {
		room  string
		extra []string
		want  string
	}{
		{"unnamed", nil, "agent=claude-code"},
		{"named", []string{"--agent", "opus-5"}, "agent=opus-5"},
	} {
		args := append([]string{"--room", c.room, "--seat", "lead", "--cwd", cwd, "--topic", "t"}, c.extra...)
		cl, err := client.NewStdioMCPClientWithOptions(hosttest.Binary(), []string{"ROUNDTABLE_AGENT="}, args)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = "2025-06-18"
		req.Params.ClientInfo = mcp.Implementation{Name: "claude-code", Version: "2.1"}
		if _, err := cl.Initialize(ctx, req); err != nil {
			t.Fatal(err)
		}
		// An agent CLI takes its seat at its first tool call.
		call := mcp.CallToolRequest{}
		call.Params.Name = "room_status"
		if _, err := cl.CallTool(ctx, call); err != nil {
			t.Fatal(err)
		}
		cancel()
		cl.Close()
		data, err := os.ReadFile(filepath.Join(room.Dir(cwd, c.room), room.LogFile))
		if err != nil {
			t.Fatal(err)
		}
		first := strings.SplitN(string(data), "\n", 2)[0]
		if !strings.Contains(first, " connect seat=lead "+c.want+" ") {
			t.Errorf("%v: the connect line is %q, want %s", c.extra, first, c.want)
		}
	}
}
