package watch

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/roundtable-dev/roundtable/room"
)

// TestHost is a small MCP streamable-HTTP server for remote watch tests:
// one room, one observer token checked as a bearer (401 otherwise), and
// the observe_room tool answering with the room's snapshots, parked while
// nothing is new. The real host (room/mcpserver) serves the same tool.
type TestHost struct {
	t     testing.TB
	r     *room.Room
	token atomic.Value // string
	srv   *httptest.Server
	addr  string
	// notifier wakes parked calls, as the real host's does.
	notifier *room.Notifier
	// reply, when set, answers observe_room instead of the room.
	reply atomic.Pointer[func() *mcp.CallToolResult]
}

// SetToken makes token the only one accepted (a rotation).
func (h *TestHost) SetToken(token string) { h.token.Store(token) }

// Addr is the host's host:port.
func (h *TestHost) Addr() string { return h.addr }

// SetReply makes observe_room answer with f's result; nil: the room.
func (h *TestHost) SetReply(f func() *mcp.CallToolResult) {
	if f == nil {
		h.reply.Store(nil)
		return
	}
	h.reply.Store(&f)
}

func StartTestHost(t testing.TB, r *room.Room, token string) *TestHost {
	t.Helper()
	h := &TestHost{t: t, r: r}
	h.token.Store(token)
	ctx, cancel := context.WithCancel(context.Background())
	h.notifier = room.Watch(ctx, r)
	t.Cleanup(func() { cancel(); h.notifier.Close() })
	h.Listen("127.0.0.1:0")
	t.Cleanup(h.Stop)
	return h
}

// URL is the host's address, without /mcp (watch adds it).
func (h *TestHost) URL() string { return "http://" + h.addr }

func (h *TestHost) handler() http.Handler {
	s := server.NewMCPServer("test-host", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool(room.ObserveTool,
		mcp.WithObject("cursor"),
		mcp.WithNumber("wait_seconds"),
	), h.observe)
	mcpHandler := server.NewStreamableHTTPServer(s)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, req *http.Request) {
		want := "Bearer " + h.token.Load().(string)
		if got := req.Header.Get("Authorization"); subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, req)
	})
	return mux
}

func (h *TestHost) observe(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if f := h.reply.Load(); f != nil {
		return (*f)(), nil
	}
	args := req.GetArguments()
	c, err := room.ParseCursor(args["cursor"])
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	wait, _ := args["wait_seconds"].(float64)
	s, err := h.r.SnapshotWait(ctx, c, time.Duration(wait*float64(time.Second)), h.notifier)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(string(data)), nil
}

// Listen serves on addr (the same address again after Stop).
func (h *TestHost) Listen(addr string) {
	h.t.Helper()
	var l net.Listener
	var err error
	for range 50 { // the old socket may take a moment to go
		if l, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		h.t.Fatal(err)
	}
	h.srv = httptest.NewUnstartedServer(h.handler())
	h.srv.Listener = l
	h.srv.Start()
	h.addr = l.Addr().String()
}

// Stop ends the server and every connection to it.
func (h *TestHost) Stop() {
	if h.srv != nil {
		h.srv.CloseClientConnections()
		h.srv.Close()
		h.srv = nil
	}
}
