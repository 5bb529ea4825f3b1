//go:build llm

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// The rooms run to their close by two processes of agent CLIs in one
// folder, both seats registered there with the lines we print: over
// stdio, the new-room form's lines (seatcmd); over HTTP, the lines of
// roundtable host's own output for that room. Each process is told its
// seat and run with the headless command the printed note gives. The peer
// parks through at least one full wait before the lead starts; the lead
// posts its brief, the peer answers, the lead writes the spec and closes
// the room; both exit, each seat was taken by its own agent only, and
// nothing of theirs is left running. The model is seatModel (scripted,
// in the CLI's own wire format). The rooms run in parallel (go test's
// -parallel, the machine's cores by default): most of a room's time is
// its agents parked in waits.

// TestLLMOpencodeRoomInOneFolder: two opencode processes (chat
// completions; 45 s waits, under opencode's 60 s tool timeout).
func TestLLMOpencodeRoomInOneFolder(t *testing.T) {
	agentRooms(t, "opencode", "opencode")
}

// TestLLMQwenRoomInOneFolder: two Qwen Code processes (qwen -p), the
// seats registered with Qwen's printed lines (mcp add --scope project
// --trust, then mcp approve), the tools reached through tool_search and
// tool_call.
func TestLLMQwenRoomInOneFolder(t *testing.T) {
	agentRooms(t, "qwen", "qwen")
}

// TestLLMCodexRoomInOneFolder: two codex exec runs (OpenAI Responses), in
// a git checkout, both seats registered in one CODEX_HOME, each run with
// the printed headless approval of its own seat.
func TestLLMCodexRoomInOneFolder(t *testing.T) {
	agentRooms(t, "codex", "codex")
}

// TestLLMClaudeRoomInOneFolder: two claude -p runs (Anthropic messages,
// the tools loaded through ToolSearch), each allowed its own seat's tools.
func TestLLMClaudeRoomInOneFolder(t *testing.T) {
	agentRooms(t, "claude", "claude")
}

// TestLLMGeminiRoomInOneFolder: two gemini -p runs (Google's
// generateContent), in a folder the printed headless line trusts.
func TestLLMGeminiRoomInOneFolder(t *testing.T) {
	agentRooms(t, "gemini", "gemini")
}

// TestLLMMixedRoom: Claude Code leads, Codex is the peer, in one folder
// and one HOME, over stdio and over HTTP.
func TestLLMMixedRoom(t *testing.T) {
	agentRooms(t, "claude", "codex")
}

// agentRooms runs agentRoom over stdio and over HTTP, in parallel with
// the other rooms.
func agentRooms(t *testing.T, lead, peer string) {
	t.Parallel()
	for _, tr := range []string{"stdio", "http"} {
		t.Run(tr, func(t *testing.T) {
			t.Parallel()
			agentRoom(t, tr, lead, peer)
		})
	}
}

// roomCLIs are the agent CLIs a room's seats are given to, by preset:
// the stdio lines' client and the label of host's lines.
var roomCLIs = map[string]struct {
	client seatcmd.Client
	label  string
}{
	"claude":   {seatcmd.ClaudeCode, "Claude Code"},
	"codex":    {seatcmd.Codex, "Codex"},
	"gemini":   {seatcmd.GeminiCLI, "Gemini CLI"},
	"qwen":     {seatcmd.QwenCode, "Qwen Code"},
	"opencode": {seatcmd.OpenCode, "opencode"},
}

// headlessRun is the headless command the client's printed note gives
// for the seat's server name, the prompt as its first argument ("$1").
func headlessRun(client seatcmd.Client, name string) string {
	_, line, _ := strings.Cut(client.Headless(name), "headless: ")
	line, _, _ = strings.Cut(line, " (")
	return "exec " + strings.Replace(line, `"…"`, `"$1"`, 1)
}

// agentRoom runs a room to its close with the lead played by the CLI of
// preset lead and the peer by that of peer, both registered in one
// folder and one HOME, over transport ("stdio" or "http").
func agentRoom(t *testing.T, transport, lead, peer string) {
	bin := roundtableBin(t)
	model := newSeatModel(t)
	presets := []string{lead}
	if peer != lead {
		presets = append(presets, peer)
	}
	env := agentsEnvAt(t, model.URL+"/v1", presets...)
	proj := t.TempDir()
	name := lead + "-" + transport
	if peer != lead {
		name = "mixed-" + transport
	}
	played := map[string]string{room.SeatLead: lead, room.SeatPeer: peer}
	topic := "Should the cache be write-through?"
	var hostOut string
	if transport == "http" {
		h := hosttest.StartBin(t, bin, "--room", name, "--topic", topic, "--budget", "4", "--cwd", proj)
		hostOut = h.Output()
	}
	for _, p := range presets {
		cli := roomCLIs[p]
		for _, seat := range []string{room.SeatLead, room.SeatPeer} {
			if transport == "http" {
				block := printedBlock(t, hostOut, seat, cli.label)
				runPrintedLines(t, env, proj, block)
				// Codex reads the token from a variable: the printed note
				// says to set it wherever codex starts, as the line does.
				for line := range strings.SplitSeq(block, "\n") {
					if kv, ok := strings.CutPrefix(line, "export "); ok {
						env = append(env, kv)
					}
				}
				continue
			}
			s := seatcmd.Seat{Program: bin, Room: name, Seat: seat, Topic: topic, Budget: 4, Cwd: proj}
			runPrintedLines(t, env, proj, cli.client.Text(s))
		}
	}
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out) // a checkout, as the agents expect
	}
	dir := filepath.Join(proj, room.Folder, name)
	start := func(seat string) *exec.Cmd {
		cli := roomCLIs[played[seat]]
		run := headlessRun(cli.client, seatcmd.Seat{Room: name, Seat: seat}.ServerName())
		cmd := exec.Command("/bin/sh", "-c", run, "sh",
			"SEAT="+seat+". You hold the "+seat+" seat of the roundtable room "+name+": use only its tools, and stay until the room closes.")
		cmd.Dir, cmd.Env = proj, env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			if cmd.ProcessState == nil {
				_, _ = cmd.Process.Wait()
			}
			if t.Failed() {
				t.Logf("%s (%s) said:\n%s", played[seat], seat, out)
			}
		})
		return cmd
	}
	logHas := func(text string) bool {
		b, _ := os.ReadFile(filepath.Join(dir, room.LogFile))
		return strings.Contains(string(b), text)
	}
	until := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !ok() {
			if time.Now().After(deadline) {
				b, _ := os.ReadFile(filepath.Join(dir, room.LogFile))
				t.Fatalf("not within %s: %s\nserver.log:\n%s\nmodel calls: %q", d, what, b, model.Calls())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	peerCmd := start(room.SeatPeer)
	until("the peer parked through a full wait", 120*time.Second, func() bool {
		return logHas("wait_return seat=peer reason=idle")
	})
	leadCmd := start(room.SeatLead)
	done := make(chan error, 2)
	go func() { done <- leadCmd.Wait() }()
	go func() { done <- peerCmd.Wait() }()
	for range 2 {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("an agent's run ended with %v", err)
			}
		case <-time.After(4 * time.Minute):
			t.Fatalf("the room did not run to its close within 4 minutes; model calls: %q", model.Calls())
		}
	}
	// Nothing of the agents' is left running: no process of their groups,
	// none with their HOME.
	for _, cmd := range []*exec.Cmd{leadCmd, peerCmd} {
		var left []string
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if left = leftovers(cmd.Process.Pid, envEntry(env, "HOME")); len(left) == 0 || time.Now().After(deadline) {
				break
			}
		}
		if len(left) > 0 {
			t.Errorf("left running after the agents exited: %q", left)
		}
	}
	r, err := room.Open(proj, name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil || st.Closed == nil {
		t.Fatalf("the room is not closed: %v %+v", err, st)
	}
	if b, err := os.ReadFile(filepath.Join(proj, r.Config().Spec)); err != nil || !strings.Contains(string(b), "Write-through") {
		t.Fatalf("the spec: %v %q", err, b)
	}
	seats := map[string]bool{}
	for _, m := range st.Messages {
		seats[m.Seat] = true
	}
	if !seats[room.SeatLead] || !seats[room.SeatPeer] {
		t.Fatalf("the room's messages are from %v; want both seats", seats)
	}
	// The seats are free: at once over stdio (the servers exited with
	// their agents); over HTTP within a minute, for a CLI that exits
	// without ending its sessions (the host frees a quiet seat).
	free := 10 * time.Second
	if transport == "http" {
		free = time.Minute
	}
	for _, seat := range []string{room.SeatLead, room.SeatPeer} {
		for deadline := time.Now().Add(free); room.SeatHolder(dir, seat).Live; time.Sleep(200 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("the %s seat is still held %s after both agents exited", seat, free)
				break
			}
		}
	}
	// Both agents run both seats' servers (HTTP: hold sessions to both
	// seats' URLs); each seat is taken by one server process (HTTP: one
	// session) only, the one of the agent that plays it.
	key := "pid="
	if transport == "http" {
		key = "session="
	}
	logText, _ := os.ReadFile(filepath.Join(dir, room.LogFile))
	takers := map[string]map[string]bool{}
	for _, line := range strings.Split(string(logText), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[1] != room.EventConnect {
			continue
		}
		var seat, who string
		for _, kv := range f[2:] {
			if v, ok := strings.CutPrefix(kv, "seat="); ok {
				seat = v
			}
			if v, ok := strings.CutPrefix(kv, key); ok {
				who = v
			}
		}
		if takers[seat] == nil {
			takers[seat] = map[string]bool{}
		}
		takers[seat][who] = true
	}
	for _, seat := range []string{room.SeatLead, room.SeatPeer} {
		if len(takers[seat]) != 1 {
			t.Errorf("the %s seat was taken by %d seat servers or sessions (%v); want the one of its own agent:\n%s", seat, len(takers[seat]), takers[seat], logText)
		}
	}
	for p := range takers[room.SeatLead] {
		if takers[room.SeatPeer][p] {
			t.Errorf("one process or session (%s%s) took both seats", key, p)
		}
	}
}

// envEntry is key's entry in env ("KEY=VALUE"), "" when it has none.
func envEntry(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return key + "=" + v
		}
	}
	return ""
}
