package mcpserver

import (
	"context"
	"encoding/json"
	"math"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// observeTool is the observer's tool: what is new in the room since a
// cursor, parking while nothing is (roundtable watch --url calls it in a
// loop and mirrors the room).
const observeTool = room.ObserveTool

func (h *Host) observeTool(s *Seat) server.ServerTool {
	return server.ServerTool{
		Tool: mcp.NewTool(observeTool,
			mcp.WithDescription("What is new in the room since cursor: room.json the first time, messages, notes, the close, server.log lines and drafts, with the next cursor. Waits up to wait_seconds while nothing is new. Observers only."),
			mcp.WithObject("cursor", mcp.Description("The Next cursor of the previous reply; omit the first time.")),
			mcp.WithNumber("wait_seconds", mcp.Description("How long to wait while nothing is new, in seconds: 0 to 55, default 55.")),
			annotated(readOnly, "Observe the room"),
		),
		Handler: s.observeRoom,
	}
}

// observeRoom answers observe_room with room.Snapshot as JSON (its shape is
// documented in room/snapshot.go), parking while nothing is new
// (room.SnapshotWait). A host shutting down ends the park at once.
func (s *Seat) observeRoom(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	c, err := room.ParseCursor(req.GetArguments()["cursor"])
	if err != nil {
		return refuse("observe_room's cursor is not one it gave out (%v): pass the next of the previous reply, or omit it to start over.", err)
	}
	wait := req.GetFloat("wait_seconds", MaxWait.Seconds())
	if math.IsNaN(wait) {
		wait = MaxWait.Seconds()
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.stop:
			cancel()
		case <-wctx.Done():
		}
	}()
	snap, err := s.room.SnapshotWait(wctx, c, time.Duration(min(max(wait, 0), MaxWait.Seconds())*float64(time.Second)), s.notifier.Changed)
	if err != nil {
		return fault(err)
	}
	if ctx.Err() != nil {
		return refuse("observe_room was cancelled.")
	}
	return jsonReply(snap)
}

func jsonReply(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(b)), nil
}
