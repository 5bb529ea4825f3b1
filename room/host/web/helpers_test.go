package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// binary is the roundtable binary, built once for the tests that run it
// as a separate process.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "roundtable-web-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "roundtable")
	build := exec.Command("go", "build", "-o", binary, "github.com/roundtable-dev/roundtable/cmd/roundtable")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building roundtable:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// host is a `roundtable host` process (hosttest.Proc) serving cwd, with
// its starter token.
type host struct {
	*hosttest.Proc
	t       testing.TB
	cmd     *exec.Cmd
	base    string // http://127.0.0.1:port
	cwd     string
	starter string
}

// startHost runs `roundtable host --all --listen 127.0.0.1:0 --cwd cwd`
// with a fast heartbeat and args, and waits until it serves.
func startHost(t testing.TB, cwd string, args ...string) *host {
	t.Helper()
	file := filepath.Join(t.TempDir(), "starter")
	args = append([]string{"--all", "--cwd", cwd, "--starter-token-file", file, "--sse-heartbeat", "100ms"}, args...)
	p := hosttest.StartBin(t, binary, args...)
	h := &host{Proc: p, t: t, cmd: p.Cmd, base: strings.TrimSuffix(p.URL, "/mcp"), cwd: cwd}
	tok, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("--starter-token-file has mode %v, want 0600", fi.Mode().Perm())
	}
	h.starter = strings.TrimSpace(string(tok))
	return h
}

func (h *host) output() string { return h.Output() }

// stop sends SIGTERM and waits for the exit.
func (h *host) stop() { _ = h.Stop() }

// observerToken is the first observer token the host printed.
func (h *host) observerToken() string {
	h.t.Helper()
	// The host prints a room's watch line once it has picked the new room
	// up, which may be a moment after the API created it.
	re := regexp.MustCompile(`ROUNDTABLE_TOKEN=(rt_\S+) roundtable watch`)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(h.output()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("no observer token in the host's output after 10 s:\n%s", h.output())
		}
	}
}

// do sends a request with token (none when ""), extra headers and body,
// and returns the status and body.
func (h *host) do(method, path, token, body string, hdr map[string]string) (int, string) {
	h.t.Helper()
	req, err := http.NewRequest(method, h.base+path, strings.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// create posts a session and returns its id.
func (h *host) create(body string) string {
	h.t.Helper()
	code, resp := h.do(http.MethodPost, "/api/sessions", h.starter, body, nil)
	if code != http.StatusCreated {
		h.t.Fatalf("POST /api/sessions: %d %s", code, resp)
	}
	var c struct{ ID, Stream, Page string }
	if err := json.Unmarshal([]byte(resp), &c); err != nil {
		h.t.Fatal(err)
	}
	if c.Stream != "/api/sessions/"+c.ID+"/stream" || c.Page != "/rooms/"+c.ID {
		h.t.Fatalf("answer %s: stream and page do not name the room", resp)
	}
	return c.ID
}

// sse is one event as a plain client reads it.
type sse struct {
	ID, Name string
	Data     json.RawMessage
}

// stream is what a client read of an event stream.
type stream struct {
	events     []sse
	heartbeats int
	status     int
}

// readStream reads path's event stream with token, sending lastID as
// Last-Event-ID when set, until it ends or stop says to drop it (after
// the event just read).
func (h *host) readStream(path, token, lastID string, stop func(sse) bool) stream {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.base+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	st := stream{status: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		return st
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		h.t.Fatalf("Content-Type %q", ct)
	}
	if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("X-Accel-Buffering") != "no" {
		h.t.Fatalf("headers %v: want Cache-Control no-store and X-Accel-Buffering no", resp.Header)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	var cur sse
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Name == "" {
				continue
			}
			st.events = append(st.events, cur)
			if stop != nil && stop(cur) {
				return st
			}
			cur = sse{}
		case strings.HasPrefix(line, ":"):
			st.heartbeats++
		case strings.HasPrefix(line, "id: "):
			cur.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.Name = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.Data = json.RawMessage(line[6:])
		case strings.HasPrefix(line, "retry: "):
		default:
			h.t.Fatalf("a line that is no part of the event stream format: %q", line)
		}
	}
	return st
}

// roomFolders lists the folders under cwd/.roundtable.
func roomFolders(t testing.TB, cwd string) []string {
	t.Helper()
	es, err := os.ReadDir(filepath.Join(cwd, ".roundtable"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
