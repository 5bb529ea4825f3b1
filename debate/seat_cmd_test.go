package debate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// These tests run `roundtable seat` as a separate process of the built
// binary, against the other seat played by a scripted MCP client of the
// built binary's seat server, over real files.

// syncBuf is a buffer a process's output goroutine and the test share.
type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncBuf) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuf) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// seatProc is a running `roundtable seat`.
type seatProc struct {
	cmd    *exec.Cmd
	stderr *syncBuf
	done   chan int // its exit code
}

func startSeatProc(t testing.TB, bin string, env []string, args ...string) *seatProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"seat"}, args...)...)
	cmd.Env = env
	p := &seatProc{cmd: cmd, stderr: &syncBuf{}, done: make(chan int, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- exitCode(cmd.Wait()) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	return p
}

// exit waits for the process to end and returns its exit code.
func (p *seatProc) exit(t testing.TB) int {
	t.Helper()
	select {
	case code := <-p.done:
		p.done <- code
		return code
	case <-time.After(30 * time.Second):
		t.Fatalf("roundtable seat did not exit; stderr:\n%s", p.stderr.String())
		return -1
	}
}

// exitNow is the exit code if the process has ended, else -1.
func (p *seatProc) exitNow() int {
	select {
	case code := <-p.done:
		p.done <- code
		return code
	default:
		return -1
	}
}

// mcpSeat is a scripted MCP client holding the other seat through the
// binary's seat server.
type mcpSeat struct {
	t    testing.TB
	c    *client.Client
	name string
}

func startMCPSeat(t testing.TB, bin, cwd, roomName, seat string, extra ...string) *mcpSeat {
	t.Helper()
	args := append([]string{"--room", roomName, "--seat", seat, "--agent", "scripted-" + seat, "--cwd", cwd}, extra...)
	c, err := client.NewStdioMCPClientWithOptions(bin, nil, args, transport.WithCommandStderrWriter(&syncBuf{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-06-18"
	req.Params.ClientInfo = mcp.Implementation{Name: "seat-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize %s: %v", seat, err)
	}
	return &mcpSeat{t: t, c: c, name: seat}
}

// ok calls a tool that must succeed and returns its JSON reply.
func (s *mcpSeat) ok(tool string, args map[string]any) map[string]any {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 70*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", s.name, tool, err)
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		s.t.Fatalf("%s %s refused: %s", s.name, tool, text)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		s.t.Fatalf("%s %s: %v in %s", s.name, tool, err, text)
	}
	return out
}

// next waits (as an agent does, again after idle) for the other seat's
// next message, or the close.
func (s *mcpSeat) next() map[string]any {
	s.t.Helper()
	for range 10 {
		out := s.ok("wait_for_message", map[string]any{"timeout_seconds": 20})
		if out["idle"] != true {
			return out
		}
	}
	s.t.Fatalf("%s: nothing came in 200 s", s.name)
	return nil
}

// only is the one message of a wait_for_message reply.
func only(t testing.TB, reply map[string]any) map[string]any {
	t.Helper()
	msgs, _ := reply["messages"].([]any)
	if len(msgs) != 1 {
		t.Fatalf("want one message, got %v", reply)
	}
	return msgs[0].(map[string]any)
}

// seatsOut runs `roundtable seats` and returns its seats by name.
func seatsOut(t *testing.T, run func(string, []string, ...string) (string, string, int), cwd, roomName string) map[string]room.SeatInfo {
	t.Helper()
	out, errOut, code := run(cwd, nil, "seats", "--room", roomName, "--cwd", cwd)
	if code != 0 {
		t.Fatalf("roundtable seats: exit %d: %s", code, errOut)
	}
	var seats []room.SeatInfo
	if err := json.Unmarshal([]byte(out), &seats); err != nil {
		t.Fatalf("roundtable seats printed %q: %v", out, err)
	}
	m := map[string]room.SeatInfo{}
	for _, s := range seats {
		m[s.Seat] = s
	}
	return m
}

// waitSeat waits until `roundtable seats` shows seat in state.
func waitSeat(t *testing.T, run func(string, []string, ...string) (string, string, int), cwd, roomName, seat, state string) room.SeatInfo {
	t.Helper()
	var last room.SeatInfo
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if last = seatsOut(t, run, cwd, roomName)[seat]; last.State == state {
			return last
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the %s seat is %+v, never %q", seat, last, state)
	return last
}

// openAIServer answers every chat completion with reply, streamed in
// OpenAI's wire format one piece at a time; before the piece at index
// gateAt it waits for gate (or the client to go away). It records the
// request bodies.
type openAIServer struct {
	*fakeServer
}

func newOpenAIServer(t *testing.T, pieces []string, gateAt int, gate <-chan struct{}) *openAIServer {
	t.Helper()
	return &openAIServer{newFakeServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		for i, p := range pieces {
			if i == gateAt && gate != nil {
				select {
				case <-gate:
				case <-r.Context().Done():
					return
				}
			}
			finish := ""
			if i == len(pieces)-1 {
				finish = "stop"
			}
			s.chunk(p, finish)
		}
		s.usage(100, len(pieces), nil)
		s.done()
	})}
}

func (s *openAIServer) body(t *testing.T, i int) map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.bodies) {
		t.Fatalf("request %d of %d", i, len(s.bodies))
	}
	return s.bodies[i]
}

// chatMessages are the contents of a request's messages, in order.
func chatMessages(body map[string]any) []string {
	var out []string
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		c, _ := mm["content"].(string)
		out = append(out, c)
	}
	return out
}

func TestSeatCommand(t *testing.T) {
	bin := buildBinary(t)
	env := cleanEnv(t)
	run := binaryRunner(bin, env)

	t.Run("mock peer against an MCP lead, to closure", func(t *testing.T) {
		cwd := t.TempDir()
		lead := startMCPSeat(t, bin, cwd, "gql", room.SeatLead, "--topic", "Should we adopt GraphQL", "--budget", "2")
		peer := startSeatProc(t, bin, env, "--room", "gql", "--seat", "peer", "--provider", "mock", "--fast", "--cwd", cwd)
		parked := waitSeat(t, run, cwd, "gql", room.SeatPeer, room.StateParked)
		if parked.Agent != "roundtable:mock" || parked.PID != peer.cmd.Process.Pid || parked.Last != room.WaitTool {
			t.Fatalf("parked peer: %+v (pid %d)", parked, peer.cmd.Process.Pid)
		}
		lead.ok("post", map[string]any{"text": "We adopt GraphQL for the mobile API only.", "kind": "brief"})
		m := only(t, lead.next())
		if m["seat"] != "peer" || m["agent"] != "roundtable:mock" || !slices.Contains(room.PeerKinds, m["kind"].(string)) ||
			!strings.Contains(m["text"].(string), "GraphQL") || strings.HasPrefix(m["text"].(string), "kind:") {
			t.Fatalf("the peer's answer: %v", m)
		}
		lead.ok("post", map[string]any{"text": "Show me the query cost numbers.", "kind": "challenge"})
		m = only(t, lead.next())
		if m["seat"] != "peer" || m["seq"] != float64(4) {
			t.Fatalf("the peer's second answer: %v", m)
		}
		lead.ok("write_spec", map[string]any{"text": "# Spec\n\n## Decision\nMobile API only."})
		lead.ok("close_room", map[string]any{"reason": "budget spent"})
		if code := peer.exit(t); code != 0 {
			t.Fatalf("exit %d: %s", code, peer.stderr.String())
		}
		s := seatsOut(t, run, cwd, "gql")[room.SeatPeer]
		if s.State != room.StateDisconnected || s.Calls != 5 || s.Last != room.WaitTool || s.Agent != "roundtable:mock" {
			t.Fatalf("peer after the close: %+v", s)
		}
	})

	t.Run("OpenAI-compatible peer against an MCP lead", func(t *testing.T) {
		cwd := t.TempDir()
		srv := newOpenAIServer(t, []string{"kind: objection\n\n", "Reads dominate ", "the <hot> path; see room/store.go:120."}, -1, nil)
		lead := startMCPSeat(t, bin, cwd, "cache", room.SeatLead, "--topic", "Should the cache be write-through", "--budget", "1")
		peer := startSeatProc(t, bin, env, "--room", "cache", "--seat", "peer", "--provider", "openai", "--base-url", srv.URL+"/v1",
			"--model", "test-model", "--persona", "Security Reviewer=assumes every new surface will be attacked", "--cwd", cwd)
		lead.ok("post", map[string]any{"text": "Write-through: reads dominate.", "kind": "brief"})
		m := only(t, lead.next())
		if m["kind"] != "objection" || m["text"] != "Reads dominate the <hot> path; see room/store.go:120." || m["agent"] != "roundtable:test-model" {
			t.Fatalf("the peer's answer: %v", m)
		}
		body := srv.body(t, 0)
		msgs := chatMessages(body)
		if body["model"] != "test-model" || body["stream"] != true || len(msgs) != 2 {
			t.Fatalf("request: %v", body)
		}
		for _, want := range []string{"peer seat of roundtable room `cache`", "Should the cache be write-through", "kind: objection", "Security Reviewer"} {
			if !strings.Contains(msgs[0], want) {
				t.Errorf("the system prompt lacks %q:\n%s", want, msgs[0])
			}
		}
		if !strings.Contains(msgs[1], "Write-through: reads dominate.") {
			t.Errorf("the user prompt lacks the brief:\n%s", msgs[1])
		}
		lead.ok("write_spec", map[string]any{"text": "# Spec"})
		lead.ok("close_room", nil)
		if code := peer.exit(t); code != 0 {
			t.Fatalf("exit %d: %s", code, peer.stderr.String())
		}
	})

	t.Run("mock lead against an MCP peer writes the spec and closes", func(t *testing.T) {
		cwd := t.TempDir()
		lead := startSeatProc(t, bin, env, "--room", "led", "--seat", "lead", "--provider", "mock", "--fast",
			"--topic", "Should we split the monolith", "--budget", "2", "--spec", "docs/SPEC.md", "--cwd", cwd)
		waitFor(t, func() bool { _, err := room.Open(cwd, "led"); return err == nil })
		peer := startMCPSeat(t, bin, cwd, "led", room.SeatPeer)
		brief := only(t, peer.next())
		// The seat created the room as seed does (before it posted).
		for _, f := range []string{"lead.md", "peer.md"} {
			if data, err := os.ReadFile(filepath.Join(room.Dir(cwd, "led"), f)); err != nil || !strings.Contains(string(data), "Should we split the monolith") {
				t.Fatalf("%s of a room the seat created: %v %.80q", f, err, data)
			}
		}
		if brief["kind"] != "brief" || brief["agent"] != "roundtable:mock" || !strings.Contains(brief["text"].(string), "split the monolith") {
			t.Fatalf("brief: %v", brief)
		}
		peer.ok("post", map[string]any{"text": "Split the billing module first: it changes least.", "kind": "proposal"})
		second := only(t, peer.next())
		if second["seat"] != "lead" || !slices.Contains(room.LeadKinds, second["kind"].(string)) {
			t.Fatalf("the lead's second post: %v", second)
		}
		peer.ok("post", map[string]any{"text": "I still object to splitting before the tests exist.", "kind": "objection"})
		end := peer.next()
		if end["closed"] != true || end["spec_path"] != "docs/SPEC.md" || end["reason"] != "budget spent" {
			t.Fatalf("the end: %v", end)
		}
		if code := lead.exit(t); code != 0 {
			t.Fatalf("exit %d: %s", code, lead.stderr.String())
		}
		spec, err := os.ReadFile(filepath.Join(cwd, "docs", "SPEC.md"))
		if err != nil || !strings.Contains(string(spec), "## Decision") || !strings.Contains(string(spec), "I still object to splitting before the tests exist") {
			t.Fatalf("spec %q: %v", spec, err)
		}
		s := seatsOut(t, run, cwd, "led")[room.SeatLead]
		if s.State != room.StateDisconnected || s.Last != "close_room" || s.Agent != "roundtable:mock" {
			t.Fatalf("lead after the close: %+v", s)
		}
	})

	t.Run("drafts are live mid-turn and gone after the post", func(t *testing.T) {
		cwd := t.TempDir()
		gate := make(chan struct{})
		srv := newOpenAIServer(t, []string{"kind: answer\n\n", "First half, ", "second half."}, 2, gate)
		lead := startMCPSeat(t, bin, cwd, "live", room.SeatLead, "--topic", "T", "--budget", "1")
		startSeatProc(t, bin, env, "--room", "live", "--seat", "peer", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m1", "--cwd", cwd)
		r, err := room.Open(cwd, "live")
		if err != nil {
			t.Fatal(err)
		}
		lead.ok("post", map[string]any{"text": "Brief.", "kind": "brief"})
		var d room.Draft
		waitFor(t, func() bool {
			ds, _ := r.Drafts()
			if len(ds) == 1 {
				d = ds[0]
			}
			return d.Text == "kind: answer\n\nFirst half, "
		})
		if d.Seat != room.SeatPeer || d.Agent != "roundtable:m1" || d.StartedAt.IsZero() {
			t.Fatalf("draft %+v", d)
		}
		if st := lead.ok("room_status", nil); st["message_count"] != float64(1) {
			t.Fatalf("a draft was counted as a message: %v", st)
		}
		if s := seatsOut(t, run, cwd, "live")[room.SeatPeer]; s.State != room.StateThinking || s.WaitReturn != room.WaitMessage {
			t.Fatalf("composing peer: %+v", s)
		}
		close(gate)
		if m := only(t, lead.next()); m["text"] != "First half, second half." || m["kind"] != "answer" {
			t.Fatalf("the post: %v", m)
		}
		waitFor(t, func() bool { ds, _ := r.Drafts(); return len(ds) == 0 })
		if _, err := os.Stat(filepath.Join(room.DraftsDir(r.Dir()), "peer.json")); !os.IsNotExist(err) {
			t.Fatalf("draft file: %v", err)
		}
	})

	t.Run("a second seat process is refused naming the first", func(t *testing.T) {
		cwd := t.TempDir()
		if _, errOut, code := run(cwd, nil, "seed", "--room", "twice", "--topic", "T", "--cwd", cwd); code != 0 {
			t.Fatal(errOut)
		}
		first := startSeatProc(t, bin, env, "--room", "twice", "--seat", "peer", "--provider", "mock", "--cwd", cwd)
		waitSeat(t, run, cwd, "twice", room.SeatPeer, room.StateParked)
		logPath := filepath.Join(room.Dir(cwd, "twice"), room.LogFile)
		before, _ := os.ReadFile(logPath)
		// Started like the first, so that a second player that is wrongly
		// let in fails the test (exit times out) instead of hanging it.
		second := startSeatProc(t, bin, env, "--room", "twice", "--seat", "peer", "--provider", "mock", "--cwd", cwd)
		code, errOut := second.exit(t), second.stderr.String()
		want := fmt.Sprintf("roundtable: the peer seat of room twice is already played by pid %d (roundtable seat); stop it first\n", first.cmd.Process.Pid)
		if code != 2 || !strings.HasPrefix(errOut, want) {
			t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, want)
		}
		if after, _ := os.ReadFile(logPath); string(after) != string(before) {
			t.Fatalf("the refused seat wrote to server.log:\n%s", after[len(before):])
		}
		// A parked seat stopped by SIGTERM leaves and frees the seat.
		if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := first.exit(t); code != 130 {
			t.Fatalf("exit %d after SIGTERM: %s", code, first.stderr.String())
		}
		if s := seatsOut(t, run, cwd, "twice")[room.SeatPeer]; s.State != room.StateDisconnected {
			t.Fatalf("peer after SIGTERM: %+v", s)
		}
	})

	t.Run("a seat whose player was killed is free", func(t *testing.T) {
		cwd := t.TempDir()
		if _, errOut, code := run(cwd, nil, "seed", "--room", "dead", "--topic", "T", "--cwd", cwd); code != 0 {
			t.Fatal(errOut)
		}
		first := startSeatProc(t, bin, env, "--room", "dead", "--seat", "lead", "--provider", "mock", "--fast", "--cwd", cwd)
		waitSeat(t, run, cwd, "dead", room.SeatLead, room.StateParked) // it posted its brief
		if err := first.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		first.exit(t)
		second := startSeatProc(t, bin, env, "--room", "dead", "--seat", "lead", "--provider", "mock", "--fast", "--cwd", cwd)
		// The killed lead never logged its disconnect: it still looks
		// parked, so wait for the second's own connect and park.
		var s room.SeatInfo
		waitFor(t, func() bool {
			s = seatsOut(t, run, cwd, "dead")[room.SeatLead]
			return s.PID == second.cmd.Process.Pid && s.State == room.StateParked
		})
		if code := second.exitNow(); code >= 0 {
			t.Fatalf("the second lead exited %d: %s", code, second.stderr.String())
		}
		if err := second.cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if code := second.exit(t); code != 130 {
			t.Fatalf("exit %d after SIGINT: %s", code, second.stderr.String())
		}
	})

	t.Run("SIGTERM mid-turn leaves no draft and a disconnect", func(t *testing.T) {
		cwd := t.TempDir()
		never := make(chan struct{})
		defer close(never)
		srv := newOpenAIServer(t, []string{"kind: answer\n\n", "half", " never sent"}, 2, never)
		lead := startMCPSeat(t, bin, cwd, "term", room.SeatLead, "--topic", "T", "--budget", "1")
		peer := startSeatProc(t, bin, env, "--room", "term", "--seat", "peer", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--cwd", cwd)
		r, _ := room.Open(cwd, "term")
		lead.ok("post", map[string]any{"text": "Brief.", "kind": "brief"})
		waitFor(t, func() bool { ds, _ := r.Drafts(); return len(ds) == 1 && strings.HasSuffix(ds[0].Text, "half") })
		if err := peer.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := peer.exit(t); code != 130 || !strings.Contains(peer.stderr.String(), "stopped: the peer seat of room term is free again") {
			t.Fatalf("exit %d, stderr %q", code, peer.stderr.String())
		}
		if ds, _ := r.Drafts(); len(ds) != 0 {
			t.Fatalf("drafts after SIGTERM: %+v", ds)
		}
		st, _ := r.Refresh()
		if len(st.Messages) != 1 {
			t.Fatalf("%d messages: the half-written turn was posted", len(st.Messages))
		}
		logData, _ := os.ReadFile(filepath.Join(r.Dir(), room.LogFile))
		var lastPeer string
		for _, line := range strings.Split(strings.TrimSpace(string(logData)), "\n") {
			if ll, ok := room.ParseLogLine(line); ok && ll.Fields["seat"] == room.SeatPeer {
				lastPeer = ll.Event + " pid=" + ll.Fields["pid"]
			}
		}
		if want := "disconnect pid=" + strconv.Itoa(peer.cmd.Process.Pid); lastPeer != want {
			t.Fatalf("the peer's last log line is %q, want %q", lastPeer, want)
		}
	})

	t.Run("usage mistakes exit 2 and write nothing", func(t *testing.T) {
		cwd := t.TempDir()
		if _, errOut, code := run(cwd, nil, "seed", "--room", "open", "--topic", "T", "--cwd", cwd); code != 0 {
			t.Fatal(errOut)
		}
		shut, _, err := room.Create(cwd, "shut", room.CreateOptions{Topic: "T", Budget: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := shut.Close(room.CloseOptions{Reason: "done"}); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, cwd)
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"--room", "open", "--seat", "peer", "--provider", "mock", "--agent", "acp:codex"}, "not both"},
			{[]string{"--room", "open", "--seat", "peer", "--agent", "acp:"}, "acp:"},
			{[]string{"--room", "open", "--seat", "peer", "--agent", ""}, "--agent is empty"},
			{[]string{"--room", "open", "--seat", "moderator", "--provider", "mock"}, "moderator"},
			{[]string{"--room", "open", "--provider", "mock"}, "--seat is required"},
			{[]string{"--room", "shut", "--seat", "peer", "--provider", "mock"}, "room shut is closed (done)"},
			{[]string{"--room", "open", "--seat", "peer", "--agent", "acp:codex", "--allow-agent-tools", "root"}, "allow-agent-tools"},
			{[]string{"--room", "open", "--seat", "peer", "--persona", "Nameless"}, "--persona"},
		} {
			p := startSeatProc(t, bin, env, append([]string{"--cwd", cwd}, c.args...)...)
			code, errOut := p.exit(t), p.stderr.String()
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			// The sentence, then the --help pointer for a command-line
			// mistake; a closed room is the room's state: no pointer.
			want := 2
			if strings.Contains(c.want, "is closed") {
				want = 1
			}
			if code != 2 || !strings.HasPrefix(lines[0], "roundtable: ") || !strings.Contains(lines[0], c.want) || len(lines) != want {
				t.Errorf("%v: exit %d, stderr %q; want 2 and one sentence with %q (%d lines)", c.args, code, errOut, c.want, want)
			}
		}
		if after := snapshot(t, cwd); !slices.Equal(before, after) {
			t.Fatalf("a refused seat wrote:\nbefore %v\nafter  %v", before, after)
		}
	})

	t.Run("a seat that cannot start leaves no room behind", func(t *testing.T) {
		cwd := t.TempDir()
		p := startSeatProc(t, bin, env, "--cwd", cwd, "--room", "fresh", "--seat", "lead", "--agent", "acp:no-such-agent-here", "--topic", "T")
		code, errOut := p.exit(t), p.stderr.String()
		if code == 0 || !strings.Contains(errOut, "no-such-agent-here is not on PATH") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if after := snapshot(t, cwd); len(after) != 1 { // the folder itself
			t.Fatalf("the failed seat left %v", after)
		}
		// A room that was there before stays, whatever the failure.
		if _, errOut, code := run(cwd, nil, "seed", "--room", "kept", "--topic", "T", "--cwd", cwd); code != 0 {
			t.Fatal(errOut)
		}
		p = startSeatProc(t, bin, env, "--cwd", cwd, "--room", "kept", "--seat", "lead", "--agent", "acp:no-such-agent-here")
		if code := p.exit(t); code == 0 {
			t.Fatal("the missing agent started")
		}
		if _, err := room.Open(cwd, "kept"); err != nil {
			t.Fatalf("the room seeded before is gone: %v", err)
		}
	})
}
