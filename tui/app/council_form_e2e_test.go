//go:build unix

package app

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2ECouncilForm drives the real binary in tmux: the new-MCP-room
// form seats a council of three ("lead, critic, peer"), the critic a
// model (the mock). Creating it writes room.json with the seats and a
// prompt for each; the page lists the three seats, the lead's and the
// peer's MCP commands and the critic's process, which roundtable starts.
// The lead's brief, posted through the binary's MCP server as an agent
// would, is answered by the critic in the room's messages on disk.
func TestE2ECouncilForm(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 50, Dir: cwd, Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("Welcome to roundtable", 15*time.Second)
	s.SendKeys("m")
	s.WaitFor("New MCP room", 10*time.Second)
	s.SendKeys("-l", "council")
	s.SendKeys("Tab")
	s.SendKeys("-l", "Should the cache be write-through?")
	// The budget, then the seats: the default list, replaced.
	s.SendKeys("Tab", "Tab")
	s.WaitFor("▸ Seats       lead, peer", 10*time.Second)
	s.SendKeys("End", "C-u")
	s.SendKeys("-l", "lead, critic, peer")
	s.WaitUntil("three sections", func(sc string) bool {
		return strings.Contains(sc, "Critic      ◂ an agent you start (MCP) ▸") && strings.Count(sc, "◂ an agent you start (MCP) ▸") == 3
	}, 10*time.Second)
	// The spec, the lead's mind and label, then the critic's mind: a model.
	s.SendKeys("Tab", "Tab", "Tab", "Tab", "Right")
	s.WaitUntil("the critic a model, the mock", func(sc string) bool {
		return strings.Contains(sc, "Critic      ◂ a model ▸") && strings.Contains(sc, "◂ mock ▸")
	}, 10*time.Second)
	s.SendKeys("C-s")
	screen := s.WaitUntil("the page, the critic started", func(sc string) bool {
		return strings.Contains(sc, "roundtable plays it (pid ") && strings.Contains(sc, "3  Peer seat")
	}, 15*time.Second)
	for _, want := range []string{"1  Lead seat (claude)", "2  Critic seat (roundtable · model mock)", "3  Peer seat (codex)", "--seat=lead", "--seat=peer", "Started the critic seat (pid "} {
		if !strings.Contains(screen, want) {
			t.Errorf("%q is not on the page:\n%s", want, screen)
		}
	}
	m := regexp.MustCompile(`roundtable plays it \(pid (\d+)\)`).FindStringSubmatch(screen)
	pid, _ := strconv.Atoi(m[1])
	if groupGone(pid, 0) {
		t.Fatalf("the critic's process %d is not running", pid)
	}

	dir := filepath.Join(cwd, ".roundtable", "council")
	data, err := os.ReadFile(filepath.Join(dir, "room.json"))
	if err != nil || !strings.Contains(strings.Join(strings.Fields(string(data)), ""), `"seats":["lead","critic","peer"]`) {
		t.Fatalf("room.json (%v):\n%s", err, data)
	}
	prompts, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(prompts) != 3 {
		t.Errorf("prompts %v, want one for each of three seats", prompts)
	}
	// The critic holds its seat: its lock names its process.
	waitFile(t, filepath.Join(dir, "seats", room.SeatFile("critic")+".lock"), strconv.Itoa(pid)+"\n")

	postAsLead(t, bin, cwd, "council", "Brief: should the cache be write-through? Critic, find the holes.")
	msg := waitMessage(t, filepath.Join(dir, "messages"), "critic")
	if msg["agent"] != "roundtable:mock" || strings.TrimSpace(msg["text"].(string)) == "" {
		t.Errorf("the critic's message: %v", msg)
	}

	s.SendKeys("C-c")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
	if !groupGone(pid, 3*time.Second) {
		t.Errorf("the critic's process group %d outlived the app", pid)
	}
}

// postAsLead posts text as the lead of room through the binary's MCP
// stdio server, as the lead's agent would, and waits for the reply.
func postAsLead(t *testing.T, bin, cwd, name, text string) {
	t.Helper()
	cmd := exec.Command(bin, "--room="+name, "--seat=lead", "--agent=e2e", "--cwd="+cwd)
	cmd.Env = append(os.Environ(), e2eEnv(t)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		in.Close()
		_ = cmd.Wait()
	}()
	replies := make(chan map[string]any, 4)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var msg map[string]any
			if json.Unmarshal(sc.Bytes(), &msg) == nil && msg["id"] != nil {
				replies <- msg
			}
		}
		close(replies)
	}()
	send := func(w io.Writer, v map[string]any) {
		data, _ := json.Marshal(v)
		if _, err := w.Write(append(data, '\n')); err != nil {
			t.Fatalf("writing to the lead's server: %v", err)
		}
	}
	reply := func(what string) map[string]any {
		select {
		case r, ok := <-replies:
			if !ok {
				t.Fatalf("the lead's server ended before its %s reply", what)
			}
			if r["error"] != nil {
				t.Fatalf("%s: %v", what, r["error"])
			}
			return r
		case <-time.After(20 * time.Second):
			t.Fatalf("no %s reply from the lead's server", what)
		}
		return nil
	}
	send(in, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "e2e", "version": "1"},
	}})
	reply("initialize")
	send(in, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	send(in, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
		"name": "post", "arguments": map[string]any{"text": text, "kind": "brief"},
	}})
	if r := reply("post"); strings.Contains(toJSON(r), `"isError":true`) {
		t.Fatalf("post was refused: %v", r)
	}
}

func toJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// waitFile waits until the file at path holds text.
func waitFile(t *testing.T, path, text string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %q: %s", path, text, data)
		}
	}
}

// waitMessage waits for a message of seat among the room's message files
// and returns it.
func waitMessage(t *testing.T, dir, seat string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			var msg map[string]any
			if err == nil && json.Unmarshal(data, &msg) == nil && msg["seat"] == seat {
				return msg
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no message of the %s seat in %s (%d files)", seat, dir, len(files))
		}
	}
}
