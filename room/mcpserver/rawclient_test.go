package mcpserver_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// rawClient speaks JSON-RPC over a seat process's stdio with as little
// client-side work as possible, so benchmarks measure the server.
type rawClient struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	mu      sync.Mutex
	nextID  int
	pending map[int]chan map[string]any
	notes   chan map[string]any // notifications from the server
	exited  chan struct{}       // closed when the process has been waited for
	waitErr error
}

// spawnPiped starts bin with args, its stdin and stdout as pipes and its
// stderr on the test's.
func spawnPiped(tb testing.TB, bin string, args ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser) {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	return cmd, in, out
}

func startRaw(tb testing.TB, bin string, args ...string) *rawClient {
	tb.Helper()
	cmd, in, out := spawnPiped(tb, bin, args...)
	c := &rawClient{cmd: cmd, in: in, pending: map[int]chan map[string]any{}, notes: make(chan map[string]any, 64), exited: make(chan struct{})}
	go c.read(out)
	go func() { c.waitErr = cmd.Wait(); close(c.exited) }()
	tb.Cleanup(c.close)
	return c
}

func (c *rawClient) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var msg map[string]any
		if json.Unmarshal(sc.Bytes(), &msg) != nil {
			continue
		}
		id, ok := msg["id"].(float64)
		if !ok {
			select {
			case c.notes <- msg:
			default:
			}
			continue
		}
		c.mu.Lock()
		ch := c.pending[int(id)]
		delete(c.pending, int(id))
		c.mu.Unlock()
		if ch != nil {
			ch <- msg
		}
	}
}

func (c *rawClient) close() {
	c.in.Close()
	select {
	case <-c.exited:
	case <-time.After(3 * time.Second):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
}

// send writes a request and returns the channel its response arrives on.
func (c *rawClient) send(method string, params any) <-chan map[string]any {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan map[string]any, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	c.mu.Lock()
	_, err := c.in.Write(append(data, '\n'))
	c.mu.Unlock()
	if err != nil {
		panic(err)
	}
	return ch
}

func (c *rawClient) initialize(tb testing.TB) {
	tb.Helper()
	<-c.send("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}})
	data := []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	c.mu.Lock()
	c.in.Write(data)
	c.mu.Unlock()
}

func (c *rawClient) tool(name string, args map[string]any) <-chan map[string]any {
	return c.send("tools/call", map[string]any{"name": name, "arguments": args})
}
