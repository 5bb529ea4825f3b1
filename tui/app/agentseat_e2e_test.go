//go:build unix

package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EAgentSeat drives the real binary in tmux with the scripted ACP
// test agent as the peer: the form's "a command of your own" starts
// `roundtable seat --agent acp:<agent>`, the watch screen names the seat
// and shows the agent's draft, then its message; quitting the app leaves neither the seat nor the agent (which
// ignores SIGTERM and stdin closing, and has a child of its own) running.
func TestE2EAgentSeat(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	agent := tmuxtest.Build(t, "./debate/internal/acpagent/agentbin")
	pidDir := t.TempDir()
	script, err := json.Marshal(map[string]any{
		"ignoreStdinClose": true,
		"children":         1,
		"pidDir":           pidDir,
		"turns": []map[string]any{{"steps": []map[string]any{
			{"tool": map[string]any{"kind": "read", "title": "reading room/store.go", "path": "room/store.go"}},
			{"say": "Drafting the peer's answer: stream the export ", "chunkSize": 6},
			{"sleepMs": 1500},
			{"say": "in pages, never whole.", "chunkSize": 6},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(scriptPath, script, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(e2eEnv(t), "ACPAGENT_SCRIPT="+scriptPath)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 50, Dir: t.TempDir(), Env: env}, bin, "tui")
	s.WaitFor("Welcome to roundtable", 15*time.Second)
	s.SendKeys("m")
	s.WaitFor("New MCP room", 10*time.Second)
	s.SendKeys("-l", "agent-seat")
	s.SendKeys("Tab")
	s.SendKeys("-l", "Stream the export or load it whole?")
	// A budget the seats do not spend before the app quits; the lead: a
	// model (the mock).
	s.SendKeys("Tab")
	s.SendKeys("-l", "100")
	s.WaitFor("◂ 100 ▸", 10*time.Second)
	s.SendKeys("Tab", "Tab", "Tab", "Right") // seats, spec, the lead's mind
	s.WaitFor("◂ a model ▸", 10*time.Second)
	// The peer: an agent roundtable drives, a command of our own (past
	// the lead's provider, model and persona).
	s.SendKeys("Tab", "Tab", "Tab", "Tab", "Right", "Right")
	s.WaitFor("◂ an agent roundtable drives (ACP) ▸", 10*time.Second)
	s.SendKeys("Tab", "Left", "Left")
	s.WaitFor("◂ a command of your own ▸", 10*time.Second)
	s.SendKeys("Tab")
	s.SendKeys("-l", agent)
	s.SendKeys("C-s")
	_, pids := bothSeatsStarted(s)
	s.SendKeys("Enter")
	s.WaitFor("peer  roundtable · acp:agentbin", 20*time.Second)
	s.WaitUntil("the agent's draft", func(sc string) bool {
		return strings.Contains(sc, "peer is writing…") && strings.Contains(sc, "stream the export")
	}, 30*time.Second)
	s.WaitUntil("the agent's message", func(sc string) bool {
		return regexp.MustCompile(`(?m)^peer roundtable:acp:agentbin`).MatchString(sc) && strings.Contains(sc, "in pages, never whole.")
	}, 30*time.Second)
	agents, children := readPids(pidDir)
	if len(agents) == 0 || len(children) == 0 {
		t.Fatalf("the agent did not record its pids: %v %v", agents, children)
	}

	s.SendKeys("C-c")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
	if out := flat(s.CaptureHistory()); !strings.Contains(out, "the peer of room agent-seat (acp:"+agent) {
		t.Errorf("the app did not say it stopped the agent's seat:\n%s", out)
	}
	for _, pid := range append(append(pids, agents...), children...) {
		if !groupGone(pid, 5*time.Second) && processAlive(pid) {
			t.Errorf("process %d (or its group) outlived the app", pid)
		}
	}
}

// readPids reads the pid files the scripted agent writes.
func readPids(dir string) (agents, children []int) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		kind, num, _ := strings.Cut(e.Name(), "-")
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		if kind == "agent" {
			agents = append(agents, n)
		} else {
			children = append(children, n)
		}
	}
	return agents, children
}

// processAlive reports whether pid is a live process (not a zombie).
func processAlive(pid int) bool {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}
