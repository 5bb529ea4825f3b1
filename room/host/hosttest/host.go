package hosttest

import (
	"bufio"
	"context"
	"crypto/tls"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Proc is a `roundtable host` process: URL is its /mcp endpoint.
type Proc struct {
	t    testing.TB
	Cmd  *exec.Cmd
	URL  string
	mu   sync.Mutex
	out  strings.Builder
	done chan struct{}
	err  error // the process's exit, once done is closed
}

// ServingLine is the line a host prints once it serves; its group is
// the URL of /mcp.
var ServingLine = regexp.MustCompile(`serving .* at (https?://\S+/mcp)`)

// Start runs `roundtable host --listen 127.0.0.1:0 args...` and waits
// for its URL.
func Start(t *testing.T, args ...string) *Proc {
	t.Helper()
	return StartBin(t, Binary(), args...)
}

// StartBin is Start with another binary.
func StartBin(t testing.TB, bin string, args ...string) *Proc {
	t.Helper()
	h := &Proc{t: t, done: make(chan struct{})}
	args = append([]string{"host", "--listen", "127.0.0.1:0"}, args...)
	h.Cmd = exec.Command(bin, args...)
	h.Cmd.Stderr = os.Stderr
	stdout, err := h.Cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Cmd.Start(); err != nil {
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
			if m := ServingLine.FindStringSubmatch(line); m != nil {
				select {
				case urlc <- m[1]:
				default:
				}
			}
		}
		h.err = h.Cmd.Wait()
		close(h.done)
	}()
	// The cleanup stops the host the way a user does (SIGTERM), so it
	// stops the debates it started before the test's folders go; a kill
	// would leave them writing into a folder being removed.
	t.Cleanup(func() {
		select {
		case <-h.done:
			return
		default:
		}
		_ = h.Cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-h.done:
		case <-time.After(30 * time.Second):
			_ = h.Cmd.Process.Kill()
			<-h.done
		}
	})
	select {
	case h.URL = <-urlc:
	case <-h.done:
		t.Fatalf("host exited before serving: %v\n%s", h.err, h.Output())
	case <-time.After(20 * time.Second):
		t.Fatalf("host did not print its URL:\n%s", h.Output())
	}
	return h
}

// Output is what the host has printed on stdout so far.
func (h *Proc) Output() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.out.String()
}

// Exited is closed once the process has exited and been waited for.
func (h *Proc) Exited() <-chan struct{} { return h.done }

// Err is the process's exit (nil when it exited 0), once Exited is closed.
func (h *Proc) Err() error { return h.err }

// Stop sends SIGTERM and waits for the exit.
func (h *Proc) Stop() error {
	_ = h.Cmd.Process.Signal(syscall.SIGTERM)
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

// HTTPClient is an HTTP client sending token; tlsConf, when set, trusts
// the test's certificate.
func HTTPClient(token string, tlsConf *tls.Config) *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.TLSClientConfig = tlsConf
	return &http.Client{Transport: bearer{token: token, base: base}}
}

// Protocol versions the HTTP tests connect with: the newest (no MCP
// session: one seat per token) and the one agents' CLIs speak today (a
// session per connection).
const (
	ProtoModern = ""
	ProtoLegacy = "2025-11-25"
)

// ConnectHTTP connects the official Go SDK's client to url with token.
func ConnectHTTP(t *testing.T, url, token, proto string) *SDKSeat {
	t.Helper()
	return ConnectHTTPWith(t, url, HTTPClient(token, nil), proto)
}

// ConnectHTTPWith is ConnectHTTP with an HTTP client of the test's.
func ConnectHTTPWith(t *testing.T, url string, hc *http.Client, proto string) *SDKSeat {
	t.Helper()
	cs, err := DialHTTP(url, hc, proto)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return NewSDKSeat(t, cs)
}

// DialHTTP connects the official Go SDK's client to url with hc, speaking
// proto (ProtoModern or ProtoLegacy); the caller closes the session.
func DialHTTP(url string, hc *http.Client, proto string) (*sdk.ClientSession, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	// Clients of a protocol with sessions keep a standing event stream
	// open (a GET), as agents' CLIs do.
	tr := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: proto == ProtoModern}
	var opts *sdk.ClientSessionOptions
	if proto != "" {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: proto}
	}
	return client.Connect(ctx, tr, opts)
}

// WaitOutput waits until the host has printed want, and returns all it
// printed.
func (h *Proc) WaitOutput(want string) string {
	h.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out := h.Output()
		if strings.Contains(out, want) {
			return out
		}
		select {
		case <-h.done:
			h.t.Fatalf("host exited (%v) before printing %q:\n%s", h.err, want, out)
		default:
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("host did not print %q within 20 s:\n%s", want, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
