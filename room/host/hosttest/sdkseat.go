package hosttest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SDKSeat is a seat (a seat process, or a host's seat over HTTP) driven by
// the official Go SDK's client, an MCP implementation independent of the
// mcp-go our server is built on.
type SDKSeat struct {
	t       *testing.T
	Session *sdk.ClientSession
}

// NewSDKSeat is the seat of a connected session; the test closes it.
func NewSDKSeat(t *testing.T, cs *sdk.ClientSession) *SDKSeat {
	return &SDKSeat{t: t, Session: cs}
}

// ToolResult is one tool call as the original's smoke test reads it: the
// isError flag, the text of the first content, and that text as JSON.
type ToolResult struct {
	IsError bool
	Text    string
	JSON    map[string]any
}

// Tools lists the seat's tools.
func (s *SDKSeat) Tools() []string {
	s.t.Helper()
	res, err := s.Session.ListTools(context.Background(), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// Call fails the test on a protocol error: the original answers every
// call, refusals included, with a tool result.
func (s *SDKSeat) Call(name string, args map[string]any) ToolResult {
	s.t.Helper()
	out, err := s.callTool(name, args)
	if err != nil {
		s.t.Fatalf("%s: protocol error %v", name, err)
	}
	return out
}

// CallAsync runs Call on its own goroutine, for a wait that parks; a
// protocol error is its text.
func (s *SDKSeat) CallAsync(name string, args map[string]any) <-chan ToolResult {
	ch := make(chan ToolResult, 1)
	go func() {
		out, err := s.callTool(name, args)
		if err != nil {
			out.Text = "protocol error: " + err.Error()
		}
		ch <- out
	}()
	return ch
}

// Do is Call for a goroutine: a protocol error comes back, not t.Fatal.
func (s *SDKSeat) Do(name string, args map[string]any) (ToolResult, error) {
	out, err := s.callTool(name, args)
	if err != nil {
		return ToolResult{}, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// callTool calls a tool within a minute; on a protocol error the result
// is empty.
func (s *SDKSeat) callTool(name string, args map[string]any) (ToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := s.Session.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return ToolResult{}, err
	}
	out := ToolResult{IsError: res.IsError}
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			out.Text = tc.Text
		}
	}
	_ = json.Unmarshal([]byte(out.Text), &out.JSON)
	return out, nil
}

// FirstMessageText is the text of the first message a reply hands over.
func FirstMessageText(r ToolResult) string {
	msgs, _ := r.JSON["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	m, _ := msgs[0].(map[string]any)
	s, _ := m["text"].(string)
	return s
}
