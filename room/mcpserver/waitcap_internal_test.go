package mcpserver

import (
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestWaitFitsTheClient: a wait parks at most 55 s (the original's), and
// 45 s for opencode, which ends a tool call at 60 s and timed a 55 s wait
// out; a shorter timeout_seconds is kept, a longer one cut.
func TestWaitFitsTheClient(t *testing.T) {
	req := func(args map[string]any) mcp.CallToolRequest {
		var r mcp.CallToolRequest
		r.Params.Arguments = args
		return r
	}
	for _, c := range []struct {
		client string
		args   map[string]any
		want   time.Duration
	}{
		{"claude-code", nil, 55 * time.Second},
		{"codex-mcp-client", map[string]any{"timeout_seconds": 100}, 55 * time.Second},
		{"opencode", nil, 45 * time.Second},
		{"opencode", map[string]any{"timeout_seconds": 50}, 45 * time.Second},
		{"opencode", map[string]any{"timeout_seconds": 30}, 30 * time.Second},
		{"", map[string]any{"timeout_seconds": 0}, time.Second},
	} {
		if got := waitTimeout(req(c.args), c.client); got != c.want {
			t.Errorf("%s %v: %v, want %v", c.client, c.args, got, c.want)
		}
	}
}
