package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2ESeatPersonaAndTools drives the real binary in tmux at 80×24: q
// goes back from the debate form's rounds (a field with nothing to type);
// in the new-MCP-room form the lead is the scripted ACP agent with a
// persona and write allowed, the peer the mock model with a persona. A
// persona without a description is first refused with the --persona
// flag's sentence, whole on the screen. The seat processes started carry
// the flags (their /proc cmdline), the agent is prompted as the persona,
// and its request to edit a file is allowed, as --allow-agent-tools write
// allows it.
func TestE2ESeatPersonaAndTools(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	agent := tmuxtest.Build(t, "./debate/internal/acpagent/agentbin")
	record := filepath.Join(t.TempDir(), "record.jsonl")
	script, err := json.Marshal(map[string]any{"record": record, "turns": []map[string]any{{"steps": []map[string]any{
		{"permission": map[string]any{"kind": "edit", "title": "edit main.go", "path": "main.go"}},
		{"say": "Lead: stream the export in pages."},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(scriptPath, script, 0o600); err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	env := append(e2eEnv(t), "ACPAGENT_SCRIPT="+scriptPath)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 80, Height: 24, Dir: cwd, Env: env}, bin, "tui")
	s.WaitFor("Welcome to roundtable", 15*time.Second)

	// The debate form: q on the rounds goes back home.
	s.SendKeys("n")
	s.WaitFor("New persona debate", 10*time.Second)
	s.SendKeys("Tab")
	s.WaitFor("q/esc back", 10*time.Second)
	s.SendKeys("q")
	s.WaitFor("Welcome to roundtable", 10*time.Second)

	s.SendKeys("m")
	s.WaitFor("New MCP room", 10*time.Second)
	s.SendKeys("-l", "persona-seat")
	s.SendKeys("Tab")
	s.SendKeys("-l", "Stream the export?")
	s.SendKeys("Tab")
	s.SendKeys("-l", "100")
	s.WaitFor("◂ 100 ▸", 10*time.Second)
	// Past the seats and the spec, the lead: an agent roundtable drives,
	// a command of our own.
	s.SendKeys("Tab", "Tab", "Tab", "Right", "Right")
	s.WaitFor("◂ an agent roundtable drives (ACP) ▸", 10*time.Second)
	s.SendKeys("Tab", "Left")
	s.WaitFor("◂ a command of your own ▸", 10*time.Second)
	s.SendKeys("Tab")
	s.SendKeys("-l", agent)
	s.SendKeys("Tab")
	s.WaitFor("Name=who they are (empty: none)", 10*time.Second)
	s.SendKeys("-l", "Security Reviewer")
	s.SendKeys("Tab", "Right")
	s.WaitFor("tools     ◂ write ▸", 10*time.Second)
	s.SendKeys("C-s")
	want := `The lead seat's persona: --persona "Security Reviewer" needs a name and a description, like --persona "Security Reviewer=assumes every new surface will be attacked".`
	screen := s.WaitUntil("the persona refused", func(sc string) bool { return strings.Contains(flat(sc), want) }, 10*time.Second)
	for _, l := range strings.Split(screen, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("a line of %d cells: %q", n, l)
		}
	}
	s.SendKeys("-l", "=assumes every surface is attacked")
	s.WaitFor("persona   Security Reviewer=assumes every surface is attacked", 10*time.Second)
	// The peer: the mock model, with a persona; a model has no tools.
	s.SendKeys("Tab", "Tab", "Right")
	s.WaitFor("◂ a model ▸", 10*time.Second)
	s.SendKeys("Tab", "Tab", "Tab")
	s.SendKeys("-l", "Cost Optimizer=watches the spend")
	screen = s.WaitFor("Cost Optimizer=watches the spend", 10*time.Second)
	if strings.Count(screen, "tools     ◂") != 1 {
		t.Errorf("tools shown for other than the agent's seat:\n%s", screen)
	}
	s.SendKeys("C-s")
	s.WaitFor("MCP room persona-seat is ready", 15*time.Second)

	dir := filepath.Join(cwd, ".roundtable", "persona-seat")
	lead := seatCmdline(t, filepath.Join(dir, "seat-lead.log"))
	peer := seatCmdline(t, filepath.Join(dir, "seat-peer.log"))
	for _, arg := range []string{"seat", "--seat=lead", "--persona=Security Reviewer=assumes every surface is attacked", "--agent=acp:" + agent, "--allow-agent-tools=write"} {
		if !slices.Contains(lead, arg) {
			t.Errorf("the lead's command lacks %q: %q", arg, lead)
		}
	}
	for _, arg := range []string{"seat", "--seat=peer", "--persona=Cost Optimizer=watches the spend", "--provider=mock"} {
		if !slices.Contains(peer, arg) {
			t.Errorf("the peer's command lacks %q: %q", arg, peer)
		}
	}
	if slices.ContainsFunc(peer, func(a string) bool { return strings.HasPrefix(a, "--allow-agent-tools") }) {
		t.Errorf("the model's seat got tools: %q", peer)
	}

	// What the agent saw: the persona in its prompt, its edit allowed.
	var prompt, outcome string
	for deadline := time.Now().Add(30 * time.Second); outcome == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, rec := range records(record) {
			if p, ok := rec["prompt"].(string); ok && prompt == "" {
				prompt = p
			}
			if rec["permission"] == "edit" {
				outcome, _ = rec["outcome"].(string)
			}
		}
	}
	if !strings.Contains(prompt, "Security Reviewer") || !strings.Contains(prompt, "assumes every surface is attacked") {
		t.Errorf("the agent's prompt does not carry its persona:\n%s", prompt)
	}
	if outcome != "allow" {
		t.Errorf("the agent's edit: outcome %q, want allow (--allow-agent-tools write)", outcome)
	}

	s.SendKeys("C-c")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// TestE2EDebateAgentTools: in the new-debate form, a persona spoken for
// by the scripted ACP agent (--agent) brings up the Agent tools row;
// write chosen there, the debate started lets the agent edit, as
// --allow-agent-tools write does.
func TestE2EDebateAgentTools(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	agent := tmuxtest.Build(t, "./debate/internal/acpagent/agentbin")
	record := filepath.Join(t.TempDir(), "record.jsonl")
	script, err := json.Marshal(map[string]any{"record": record, "turns": []map[string]any{{"steps": []map[string]any{
		{"permission": map[string]any{"kind": "edit", "title": "edit main.go", "path": "main.go"}},
		{"say": "Keep the store whole."},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(scriptPath, script, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(e2eEnv(t), "ACPAGENT_SCRIPT="+scriptPath)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 80, Height: 24, Dir: t.TempDir(), Env: env},
		bin, "tui", "--fast", "--rounds", "1", "--agent", "Skeptic=acp:"+agent)
	s.WaitFor("Welcome to roundtable", 15*time.Second)
	s.SendKeys("n")
	s.WaitFor("New persona debate", 10*time.Second)
	s.SendKeys("-l", "Split the store?")
	s.SendKeys("Tab", "Tab", "Tab")
	s.WaitFor("▸ Agent tools ◂ read-only ▸", 10*time.Second)
	s.SendKeys("Right")
	s.WaitFor("▸ Agent tools ◂ write ▸", 10*time.Second)
	s.SendKeys("C-s")
	s.WaitFor("verdict in", 60*time.Second)
	outcome := ""
	for _, rec := range records(record) {
		if rec["permission"] == "edit" {
			outcome, _ = rec["outcome"].(string)
		}
	}
	if outcome != "allow" {
		t.Errorf("the agent's edit: outcome %q, want allow (write chosen in the form)", outcome)
	}
	s.SendKeys("q")
	s.WaitFor("1 room in", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// seatCmdline is the argv of the `roundtable seat` process whose log is
// at path: its pid from the log's first line, its argv from /proc.
func seatCmdline(t *testing.T, path string) []string {
	t.Helper()
	re := regexp.MustCompile(`playing the \w+ seat of room \S+ as .* \(pid (\d+)\)`)
	var m []string
	for deadline := time.Now().Add(20 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(path)
		m = re.FindStringSubmatch(string(data))
	}
	if m == nil {
		data, _ := os.ReadFile(path)
		t.Fatalf("%s never said which pid plays the seat:\n%s", path, data)
	}
	pid, _ := strconv.Atoi(m[1])
	raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		t.Fatalf("the seat process %d: %v", pid, err)
	}
	return strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
}

// records reads the scripted agent's record file: one JSON object a line
// (a line being written is skipped).
func records(path string) []map[string]any {
	data, _ := os.ReadFile(path)
	var out []map[string]any
	for _, line := range strings.Split(string(data), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil {
			out = append(out, rec)
		}
	}
	return out
}
