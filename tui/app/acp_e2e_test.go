package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EAgentPersona drives the real binary in tmux with a persona spoken
// by the scripted ACP agent (debate/internal/acpagent, its script written
// here as JSON): the column shows what the agent does as one dim line, the
// refusal of an edit among it, and its words; quitting leaves no agent
// process behind.
func TestE2EAgentPersona(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	agent := tmuxtest.Build(t, "./debate/internal/acpagent/agentbin")
	dir := t.TempDir()
	pids := t.TempDir()
	script := map[string]any{
		"pidDir": pids, "children": 1, "ignoreStdinClose": true,
		"turns": []any{map[string]any{"steps": []any{
			map[string]any{"tool": map[string]any{"kind": "read", "path": "store.go"}},
			map[string]any{"say": "I read the store before arguing. "},
			map[string]any{"permission": map[string]any{"kind": "edit", "path": "main.go"}},
			map[string]any{"sleepMs": 2500},
			map[string]any{"say": "Keep it whole."},
		}}},
	}
	data, _ := json.Marshal(script)
	scriptPath := filepath.Join(dir, "script.json")
	personas := filepath.Join(dir, "personas.toml")
	toml := "[[persona]]\nname = \"Agent Smith\"\npersona = \"a maintainer who reads the code\"\nagent = [\"" + agent + "\"]\n\n" +
		"[[persona]]\nname = \"Model Mia\"\npersona = \"a reviewer\"\n"
	if os.WriteFile(scriptPath, data, 0o600) != nil || os.WriteFile(personas, []byte(toml), 0o600) != nil {
		t.Fatal("write the script or the personas")
	}
	env := append(e2eEnv(t), "ACPAGENT_SCRIPT="+scriptPath)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 140, Height: 40, Dir: t.TempDir(), Env: env},
		bin, "tui", "--topic", "Split the store package", "--rounds", "1", "--fast", "--personas", personas)
	screen := s.WaitUntil("the refusal in the agent's column", func(sc string) bool {
		return strings.Contains(sc, "✗ refused: edit main.go") && strings.Contains(sc, "I read the store before arguing.")
	}, 30*time.Second)
	if strings.Contains(screen, "⚙ reading store.go") {
		t.Errorf("the column shows more than the latest activity:\n%s", screen)
	}
	screen = s.WaitUntil("the verdict", func(sc string) bool {
		return strings.Contains(sc, "Keep it whole.") && strings.Contains(sc, "✓ verdict in")
	}, 30*time.Second)
	if strings.Contains(screen, "I read the store before arguing. ✗") {
		t.Errorf("the refusal went into the text:\n%s", screen)
	}
	s.SendKeys("q")
	s.WaitFor("1 room in", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
	ents, _ := os.ReadDir(pids)
	if len(ents) != 2 {
		t.Fatalf("pid files %v, want the agent's and its child's", ents)
	}
	for _, e := range ents {
		pid := strings.TrimPrefix(strings.TrimPrefix(e.Name(), "agent-"), "child-")
		if data, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil && !strings.Contains(string(data), ") Z ") {
			t.Errorf("%s is still running after quitting", e.Name())
		}
	}
}
