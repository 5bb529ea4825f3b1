package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
	"github.com/roundtable-dev/roundtable/room/mcpserver"
)

// prefillText writes n alternating messages whose text is about textBytes
// long, so a room's read_room reply has the size of a real one (agents write
// a few hundred words a turn).
func prefillText(tb testing.TB, cwd, name string, n, textBytes int) {
	tb.Helper()
	r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "bench", Budget: 1 << 30})
	if err != nil {
		tb.Fatal(err)
	}
	para := "A paragraph of the length agents write, with `code`, a [link](https://example.com) and \"quotes\" <T>. "
	text := strings.Repeat(para, max(textBytes/len(para), 1))
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		seat := room.SeatLead
		if i%2 == 0 {
			seat = room.SeatPeer
		}
		at := base.Add(time.Duration(i) * time.Millisecond)
		m := room.Message{Seq: i, At: at.Format(room.TimeLayout), Seat: seat, Agent: "a", Kind: room.DefaultKind(seat), Text: fmt.Sprintf("## Point %d\n\n%s", i, text)}
		body, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			tb.Fatal(err)
		}
		file := fmt.Sprintf("%04d-%d-abcdef.json", i, at.UnixMilli())
		if err := os.WriteFile(filepath.Join(r.MessagesDir(), file), append(body, '\n'), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// lineClient sends one request at a time to a seat process and reads the
// reply as one raw line, without decoding it: a 6 MB reply costs the client
// only the copy, so the figure is the server's.
type lineClient struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startLine(tb testing.TB, args ...string) *lineClient {
	tb.Helper()
	cmd, in, out := spawnPiped(tb, hosttest.PlainBinary(tb), args...)
	c := &lineClient{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
	tb.Cleanup(func() {
		c.in.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	c.call(tb, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}})
	if _, err := io.WriteString(c.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		tb.Fatal(err)
	}
	return c
}

// call sends a request and returns its reply line. With one request in
// flight and no progress token, the next line is the reply.
func (c *lineClient) call(tb testing.TB, method string, params any) []byte {
	tb.Helper()
	c.id++
	data, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := c.in.Write(append(data, '\n')); err != nil {
		tb.Fatal(err)
	}
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		tb.Fatalf("%s: %v", method, err)
	}
	if !bytes.Contains(line[:min(len(line), 64)], fmt.Appendf(nil, `"id":%d`, c.id)) {
		tb.Fatalf("%s: reply out of order: %.200s", method, line)
	}
	return line
}

func (c *lineClient) tool(tb testing.TB, name string, args map[string]any) []byte {
	tb.Helper()
	return c.call(tb, "tools/call", map[string]any{"name": name, "arguments": args})
}

// BenchmarkReadRoomSince0_10k: read_room {since: 0} in a room of 10,000
// messages of ~560 bytes each (a ~6 MB reply), from the request to the last
// byte of the reply at the client, and the seat process's CPU per call.
func BenchmarkReadRoomSince0_10k(b *testing.B) {
	cwd := b.TempDir()
	prefillText(b, cwd, "big", 10000, 500)
	c := startLine(b, "--room", "big", "--seat", "lead", "--cwd", cwd)
	c.tool(b, "room_status", nil) // the first call parses the 10,000 files once
	var lat []time.Duration
	size := 0
	cpu0, calls := hosttest.ProcCPU(c.cmd.Process.Pid), 0
	for b.Loop() {
		calls++
		t0 := time.Now()
		line := c.tool(b, "read_room", map[string]any{"since": 0})
		lat = append(lat, time.Since(t0))
		size = len(line)
		if bytes.Contains(line[:min(len(line), 200)], []byte(`"isError":true`)) || bytes.Contains(line[:min(len(line), 200)], []byte(`"error"`)) {
			b.Fatalf("read_room: %.300s", line)
		}
	}
	// CPU the seat process spent per call: less at the mercy of other
	// load on the machine than the wall-clock figures.
	cpu := hosttest.ProcCPU(c.cmd.Process.Pid) - cpu0
	hosttest.ReportMs(b, lat)
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(calls), "server-cpu-ms")
	b.ReportMetric(float64(size)/1e6, "reply-MB")
}

// BenchmarkReadRoomSince0_10kInProcess is the server's part of
// BenchmarkReadRoomSince0_10k without the pipe: the MCP server handles the
// request and the reply is marshaled as mcp-go's stdio transport does. Run
// it with -cpuprofile to see where a large read goes.
func BenchmarkReadRoomSince0_10kInProcess(b *testing.B) {
	cwd := b.TempDir()
	prefillText(b, cwd, "big", 10000, 500)
	ctx := b.Context()
	s, err := mcpserver.NewSeat(ctx, mcpserver.Options{Room: "big", Seat: room.SeatLead, Budget: 12, Cwd: cwd, Version: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	srv := s.MCPServer()
	srv.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`))
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_room","arguments":{"since":0}}}`)
	size := 0
	for b.Loop() {
		resp := srv.HandleMessage(ctx, req)
		data, err := json.Marshal(resp)
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size)/1e6, "reply-MB")
}
