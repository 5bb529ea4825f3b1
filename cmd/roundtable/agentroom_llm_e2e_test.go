//go:build llm

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// TestLLMOpencodeRoomInOneFolder: two opencode processes in one folder,
// both seats registered there with the lines the new-room form prints
// (stdio), each told its seat, hold one seat each and run the room to
// its close: the peer parks through at least one full wait (45 s for
// opencode) before the lead starts, the lead posts its brief, the peer
// answers, the lead writes the spec and closes the room, both exit, and
// nothing of theirs is left running. The model is seatModel (scripted,
// chat completions).
func TestLLMOpencodeRoomInOneFolder(t *testing.T) {
	agentRoomInOneFolder(t, "opencode", seatcmd.OpenCode)
}

// TestLLMQwenRoomInOneFolder is TestLLMOpencodeRoomInOneFolder with two
// Qwen Code processes (qwen -p), the seats registered with Qwen's printed
// lines (mcp add --scope project --trust, then mcp approve).
func TestLLMQwenRoomInOneFolder(t *testing.T) {
	agentRoomInOneFolder(t, "qwen", seatcmd.QwenCode)
}

// TestLLMCodexRoomInOneFolder: two codex exec runs (OpenAI Responses), in
// a git checkout, both seats registered in CODEX_HOME with the printed
// lines, each run with the printed headless approval of its own seat.
func TestLLMCodexRoomInOneFolder(t *testing.T) {
	agentRoomInOneFolder(t, "codex", seatcmd.Codex)
}

// TestLLMClaudeRoomInOneFolder: two claude -p runs (Anthropic messages,
// the tools loaded through ToolSearch), both seats registered for the
// folder with the printed lines, each allowed its own seat's tools.
func TestLLMClaudeRoomInOneFolder(t *testing.T) {
	agentRoomInOneFolder(t, "claude", seatcmd.ClaudeCode)
}

// headlessRun is the headless command the client's printed note gives
// for the seat's server name, the prompt as its first argument ("$1").
func headlessRun(client seatcmd.Client, name string) string {
	line := strings.TrimPrefix(client.Headless(name), "headless: ")
	line, _, _ = strings.Cut(line, " (")
	return "exec " + strings.Replace(line, `"…"`, `"$1"`, 1)
}

func agentRoomInOneFolder(t *testing.T, preset string, client seatcmd.Client) {
	bin := roundtableBin(t)
	model := newSeatModel(t)
	a := agentByPreset(t, preset)
	env := agentEnvAt(t, a, model.URL+"/v1")
	proj := t.TempDir()
	name := preset + "-room"
	for _, seat := range []string{room.SeatLead, room.SeatPeer} {
		s := seatcmd.Seat{Program: bin, Room: name, Seat: seat, Topic: "Should the cache be write-through?", Budget: 4, Cwd: proj}
		runPrintedLines(t, env, proj, client.Text(s))
	}
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out) // a checkout, as the agents expect
	}
	dir := filepath.Join(proj, room.Folder, name)
	start := func(seat string) *exec.Cmd {
		run := headlessRun(client, seatcmd.Seat{Room: name, Seat: seat}.ServerName())
		cmd := exec.Command("/bin/sh", "-c", run, "sh",
			"SEAT="+seat+". You hold the "+seat+" seat of the roundtable room "+name+": use only its tools, and stay until the room closes.")
		cmd.Dir, cmd.Env = proj, env
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if cmd.ProcessState == nil {
				_ = cmd.Process.Kill()
				_, _ = cmd.Process.Wait()
			}
			if t.Failed() {
				t.Logf("%s (%s) said:\n%s", preset, seat, out)
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
	peer := start(room.SeatPeer)
	until("the peer parked through a full wait", 120*time.Second, func() bool {
		return logHas("wait_return seat=peer reason=idle")
	})
	lead := start(room.SeatLead)
	done := make(chan error, 2)
	go func() { done <- lead.Wait() }()
	go func() { done <- peer.Wait() }()
	for range 2 {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("a %s run ended with %v", preset, err)
			}
		case <-time.After(4 * time.Minute):
			t.Fatalf("the room did not run to its close within 4 minutes; model calls: %q", model.Calls())
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
	for _, seat := range []string{room.SeatLead, room.SeatPeer} {
		if room.SeatHolder(dir, seat).Live {
			t.Errorf("the %s seat is still held after both agents exited", seat)
		}
	}
	// Both agents run both seats' servers; each seat is taken by one
	// server process only, the one of the agent that plays it.
	logText, _ := os.ReadFile(filepath.Join(dir, room.LogFile))
	pids := map[string]map[string]bool{}
	for _, line := range strings.Split(string(logText), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[1] != "connect" {
			continue
		}
		var seat, pid string
		for _, kv := range f[2:] {
			if v, ok := strings.CutPrefix(kv, "seat="); ok {
				seat = v
			}
			if v, ok := strings.CutPrefix(kv, "pid="); ok {
				pid = v
			}
		}
		if pids[seat] == nil {
			pids[seat] = map[string]bool{}
		}
		pids[seat][pid] = true
	}
	for _, seat := range []string{room.SeatLead, room.SeatPeer} {
		if len(pids[seat]) != 1 {
			t.Errorf("the %s seat was taken by %d seat servers (%v); want the one of its own agent:\n%s", seat, len(pids[seat]), pids[seat], logText)
		}
	}
	for p := range pids[room.SeatLead] {
		if pids[room.SeatPeer][p] {
			t.Errorf("one process (pid %s) took both seats", p)
		}
	}
}
