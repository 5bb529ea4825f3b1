package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// observeTool is the observer's tool: what is new in the room since a
// cursor, parking while nothing is (roundtable watch --url calls it in a
// loop and mirrors the room).
const observeTool = room.ObserveTool

// observeToolOf is observe_room, answered by s.
func observeToolOf(s *Seat) server.ServerTool {
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
	snap, err := s.room.SnapshotWait(wctx, c, time.Duration(min(max(wait, 0), MaxWait.Seconds())*float64(time.Second)), s.notifier)
	if err != nil {
		return fault(err)
	}
	if ctx.Err() != nil {
		return refuse("observe_room was cancelled.")
	}
	snap.Log = redactLog(snap.Log)
	return jsonReply(snap)
}

// The fields of server.log lines an observer is not shown: they say where
// the host and its clients are (addresses, the host's pid, session ids),
// which the screen does not need. The log on the host's disk keeps them.
var hiddenLogFields = []string{"remote=", "pid=", "session="}

// redactLog drops the hidden fields from server.log text, line by line;
// every other field, and a line not in the log's format, is kept as it is.
func redactLog(text string) string {
	if text == "" {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for line := range strings.SplitAfterSeq(text, "\n") {
		body := strings.TrimSuffix(line, "\n")
		toks := room.SplitLogTokens(body)
		kept := toks[:0]
		for _, t := range toks {
			if !hiddenField(t) {
				kept = append(kept, t)
			}
		}
		if len(kept) == len(toks) {
			b.WriteString(line)
			continue
		}
		b.WriteString(strings.Join(kept, " "))
		if len(body) < len(line) {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func hiddenField(tok string) bool {
	for _, f := range hiddenLogFields {
		if strings.HasPrefix(tok, f) {
			return true
		}
	}
	return false
}

// hostPath is a path as the seat's client is shown it: as it is for a
// local (stdio) seat, whose agents read transcript_dir as the original
// server gives it; relative to the room's working directory, with forward
// slashes, for a host's remote seat, which has no business with the host's
// folders.
func (s *Seat) hostPath(path string) string {
	if !s.remote || s.room == nil {
		return path
	}
	rel, err := filepath.Rel(s.room.Cwd(), path)
	if err != nil || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.Base(path)
	}
	return filepath.ToSlash(rel)
}

// scrubPaths rewrites the host's absolute path of cwd out of text (a
// refusal or an error of a remote seat's call): a path under cwd becomes
// relative to it, cwd itself ".".
func scrubPaths(cwd, text string) string {
	if cwd == "" || cwd == string(filepath.Separator) {
		return text
	}
	text = strings.ReplaceAll(text, cwd+string(filepath.Separator), "")
	return strings.ReplaceAll(text, cwd, ".")
}

// scrubResult rewrites the host's paths out of a remote seat's refusal or
// error; replies that are not errors carry the room's messages, which are
// left exactly as they were posted.
func scrubResult(cwd string, res *mcp.CallToolResult, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		return res, errors.New(scrubPaths(cwd, err.Error()))
	}
	if res == nil || !res.IsError {
		return res, nil
	}
	for i, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			tc.Text = scrubPaths(cwd, tc.Text)
			res.Content[i] = tc
		}
	}
	return res, nil
}

func jsonReply(v any) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(b)), nil
}
