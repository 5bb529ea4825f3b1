//go:build linux

package debate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

// TestCodexPresetStartsWithItsSandbox drives the codex preset's start-up
// with the scripted agent in codex-acp's place: it is started with the
// sandbox's -c overrides before the user's arguments and the sandbox's
// folder first on PATH, and, with no bubblewrap to be found, its column
// says so at the first turn only.
func TestCodexPresetStartsWithItsSandbox(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	binDir := t.TempDir()
	agent := filepath.Join(binDir, "codex-acp")
	if err := os.Symlink(acpagent.Build(t), agent); err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(t.TempDir(), "record.jsonl")
	script := acpagent.WriteScript(t, acpagent.Script{Record: record, PidDir: t.TempDir(), RecordEnv: []string{"PATH"}})
	spec := AgentSpec{Command: []string{agent, "-c", `model="tiny"`}, Preset: "codex"}
	p, err := NewAgentProvider(spec, AgentOptions{
		Cwd: t.TempDir(), Env: []string{acpagent.EnvScript + "=" + script, "PATH=" + binDir}, Grace: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	sc := &scripted{p: p, record: record}
	_, acts, err := sc.speak(context.Background(), "Codex", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) == 0 || acts[0].Kind != ActivityNote || acts[0].Text != codexNoSandbox {
		t.Errorf("first turn's activity %+v, want the note %q first", acts, codexNoSandbox)
	}
	_, acts, err = sc.speak(context.Background(), "Codex", []Turn{{Round: 1, Agent: "Codex", Text: "ok"}, {Round: 1, Agent: "A", Text: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 0 {
		t.Errorf("the note shows again at the second turn: %+v", acts)
	}
	var argv []string
	path := ""
	for _, r := range acpagent.Records(t, record) {
		if as, ok := r["argv"].([]any); ok && argv == nil {
			for _, a := range as {
				argv = append(argv, a.(string))
			}
		}
		if r["env"] == "PATH" {
			path, _ = r["value"].(string)
		}
	}
	want := []string{"-c", `sandbox_mode="read-only"`, "-c", `approval_policy="on-request"`, "-c", "features.unified_exec=false", "-c", `model="tiny"`}
	if !slices.Equal(argv, want) {
		t.Errorf("agent started with %q, want %q", argv, want)
	}
	first, rest, _ := strings.Cut(path, string(os.PathListSeparator))
	if rest != binDir {
		t.Errorf("agent's PATH %q, want the sandbox's folder then %q", path, binDir)
	}
	if got, err := os.Readlink(filepath.Join(first, "codex-linux-sandbox")); err != nil || got != acpagent.Build(t) {
		t.Errorf("codex-linux-sandbox in %s → %q (%v), want the agent's binary", first, got, err)
	}
}
