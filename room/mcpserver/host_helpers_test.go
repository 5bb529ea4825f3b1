package mcpserver_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// hostProc is a `roundtable host` process.
type hostProc struct {
	t    testing.TB
	cmd  *exec.Cmd
	url  string
	mu   sync.Mutex
	out  strings.Builder
	done chan struct{}
	err  error // the process's exit, once done is closed
}

var servingLine = regexp.MustCompile(`serving .* at (https?://\S+/mcp)`)

// issueTokens creates room name under cwd (budget rounds) and issues its
// tokens, as a first `roundtable host` would, and returns them by grant.
// The tests take tokens from here rather than from the host's printout,
// whose layout is another helper's.
func issueTokens(t testing.TB, cwd, name string, budget int) map[string]string {
	t.Helper()
	r, _, err := room.Create(cwd, name, room.CreateOptions{Topic: "Should the cache be write-through", Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != 3 {
		t.Fatalf("IssueTokens gave %d tokens, want 3", len(toks))
	}
	return toks
}

// startHost runs `roundtable host --listen 127.0.0.1:0 args...` and waits
// for its URL.
func startHost(t *testing.T, args ...string) *hostProc {
	t.Helper()
	return startHostBin(t, binary, args...)
}

// startHostBin is startHost with another binary.
func startHostBin(t testing.TB, bin string, args ...string) *hostProc {
	t.Helper()
	h := &hostProc{t: t, done: make(chan struct{})}
	args = append([]string{"host", "--listen", "127.0.0.1:0"}, args...)
	h.cmd = exec.Command(bin, args...)
	h.cmd.Stderr = os.Stderr
	stdout, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			h.mu.Lock()
			h.out.WriteString(line + "\n")
			h.mu.Unlock()
			if m := servingLine.FindStringSubmatch(line); m != nil {
				select {
				case urlc <- m[1]:
				default:
				}
			}
		}
		h.err = h.cmd.Wait()
		close(h.done)
	}()
	t.Cleanup(func() {
		select {
		case <-h.done:
		default:
			_ = h.cmd.Process.Kill()
			<-h.done
		}
	})
	select {
	case h.url = <-urlc:
	case <-h.done:
		t.Fatalf("host exited before serving: %v\n%s", h.err, h.output())
	case <-time.After(20 * time.Second):
		t.Fatalf("host did not print its URL:\n%s", h.output())
	}
	return h
}

func (h *hostProc) output() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.out.String()
}

// stop sends SIGTERM and waits for the exit.
func (h *hostProc) stop() error {
	_ = h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.done:
		return h.err
	case <-time.After(30 * time.Second):
		h.t.Fatal("host did not stop within 30 s of SIGTERM")
		return nil
	}
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// httpClient is an HTTP client sending token; tlsConf, when set, trusts
// the test's certificate.
func httpClient(token string, tlsConf *tls.Config) *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.TLSClientConfig = tlsConf
	return &http.Client{Transport: bearer{token: token, base: base}}
}

// Protocol versions the HTTP tests connect with: the newest (no MCP
// session: one seat per token) and the one agents' CLIs speak today (a
// session per connection).
const (
	protoModern = ""
	protoLegacy = "2025-11-25"
)

// connectHTTP connects the official Go SDK's client to url with token.
func connectHTTP(t *testing.T, url, token, proto string) *sdkSeat {
	t.Helper()
	return connectHTTPWith(t, url, httpClient(token, nil), proto)
}

func connectHTTPWith(t *testing.T, url string, hc *http.Client, proto string) *sdkSeat {
	t.Helper()
	cs, err := dialHTTP(url, hc, proto)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return &sdkSeat{t: t, cs: cs}
}

func dialHTTP(url string, hc *http.Client, proto string) (*sdk.ClientSession, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}
	var opts *sdk.ClientSessionOptions
	if proto != "" {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: proto}
	}
	return client.Connect(ctx, tr, opts)
}

// rawPost posts body to url with the Authorization header auth ("": none)
// and returns the status, the headers and the body.
func rawPost(t *testing.T, url, auth, session string, body io.Reader) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"raw","version":"1"},"capabilities":{}}}`

// roomFiles lists what a refused call must not have written: messages,
// the close and the spec.
func roomFiles(t *testing.T, cwd, name string) []string {
	t.Helper()
	var out []string
	entries, _ := os.ReadDir(filepath.Join(cwd, ".roundtable", name, "messages"))
	for _, e := range entries {
		out = append(out, "messages/"+e.Name())
	}
	for _, f := range []string{filepath.Join(cwd, ".roundtable", name, "closed.json"), filepath.Join(cwd, "SPEC-"+name+".md")} {
		if _, err := os.Stat(f); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// serverLog is the room's server.log.
func serverLog(t *testing.T, cwd, name string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(cwd, ".roundtable", name, "server.log"))
	return string(b)
}

func callParams(name string, args map[string]any) *sdk.CallToolParams {
	return &sdk.CallToolParams{Name: name, Arguments: args}
}

// postedSeq is the seq a post's reply acknowledges.
func postedSeq(res *sdk.CallToolResult) (int, bool) {
	if res.IsError || len(res.Content) == 0 {
		return 0, false
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return 0, false
	}
	var out struct {
		Posted int `json:"posted"`
	}
	if json.Unmarshal([]byte(tc.Text), &out) != nil || out.Posted == 0 {
		return 0, false
	}
	return out.Posted, true
}
