//go:build llm

package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The real coding agents of design/agents.md, installed by .ci/agents.sh
// (make e2e-llm puts their bin folders in ROUNDTABLE_AGENTS_PATH) and pointed
// at llama-server serving the tiny model under the alias "tiny" (make e2e-llm
// starts one with the agents' flags and sets ROUNDTABLE_AGENTS_LLM_URL).
// Each test gets its own HOME, XDG folders and CODEX_HOME, so nothing reads
// or writes a user's settings.

// realAgent is one agent as the tests drive it.
type realAgent struct {
	preset string   // acp:<preset> for roundtable
	argv   []string // the ACP agent command, as the preset resolves it
	// configure writes the agent's configuration under home and returns
	// the extra environment pointing it at base (http://host:port/v1).
	configure func(t *testing.T, home, base string) []string
}

// realAgents are the agents make e2e-llm installs (.ci/agents.sh's default
// ROUNDTABLE_AGENTS): gemini is left out, since it speaks only Google's API.
var realAgents = []realAgent{
	{preset: "qwen", argv: []string{"qwen", "--acp"}, configure: configureQwen},
	{preset: "opencode", argv: []string{"opencode", "acp"}, configure: configureOpencode},
	{preset: "codex", argv: []string{"codex-acp"}, configure: configureCodex},
	{preset: "claude", argv: []string{"claude-agent-acp"}, configure: configureClaude},
}

func agentByPreset(t *testing.T, preset string) realAgent {
	t.Helper()
	for _, a := range append(slices.Clone(realAgents), geminiAgent) {
		if a.preset == preset {
			return a
		}
	}
	t.Fatalf("no agent %q", preset)
	return realAgent{}
}

// agentsLLMURL is llama-server's /v1 URL started with the agents' flags
// (-c 65536, -n 256, newline as end of turn).
func agentsLLMURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("ROUNDTABLE_AGENTS_LLM_URL")
	if u == "" {
		t.Fatal("ROUNDTABLE_AGENTS_LLM_URL is not set: run these tests with make e2e-llm")
	}
	return strings.TrimSuffix(u, "/")
}

// agentsPath is PATH with the installed agents' bin folders first.
func agentsPath(t *testing.T) string {
	t.Helper()
	p := os.Getenv("ROUNDTABLE_AGENTS_PATH")
	if p == "" {
		t.Fatal("ROUNDTABLE_AGENTS_PATH is not set: run these tests with make e2e-llm (.ci/agents.sh installs the agents)")
	}
	return p + string(os.PathListSeparator) + os.Getenv("PATH")
}

// agentEnv builds an isolated environment for agent a: a fresh HOME with
// the agent's configuration pointing at llama-server, the agents on PATH,
// and nothing of the caller's environment but what a program needs to run.
// It fails the test when the agent's command is not installed.
func agentEnv(t *testing.T, a realAgent) []string {
	t.Helper()
	return agentEnvAt(t, a, agentsLLMURL(t))
}

// agentEnvAt is agentEnv with the agent pointed at base (http://host:port/v1)
// instead of llama-server.
func agentEnvAt(t *testing.T, a realAgent, base string) []string {
	t.Helper()
	return agentsEnvOf(t, base, a)
}

// agentsEnvAt is agentEnvAt for the agents of presets at once, in one
// HOME (gemini included: geminiAgent).
func agentsEnvAt(t *testing.T, base string, presets ...string) []string {
	t.Helper()
	var as []realAgent
	for _, p := range presets {
		as = append(as, agentByPreset(t, p))
	}
	return agentsEnvOf(t, base, as...)
}

func agentsEnvOf(t *testing.T, base string, as ...realAgent) []string {
	t.Helper()
	path := agentsPath(t)
	home := t.TempDir()
	env := []string{
		"HOME=" + home,
		"PATH=" + path,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"TMPDIR=" + t.TempDir(),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"CI=1",
		"NO_UPDATE_NOTIFIER=1",
		"DO_NOT_TRACK=1",
	}
	for _, d := range []string{".config", ".local/share", ".local/state", ".cache"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, a := range as {
		env = append(env, a.configure(t, home, base)...)
		if _, err := lookPathIn(a.argv[0], path); err != nil {
			t.Fatalf("%s is not installed: run .ci/agents.sh (make e2e-llm does): %v", a.argv[0], err)
		}
	}
	return env
}

func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b))
}

// configureQwen: Qwen Code reads an OpenAI-compatible endpoint from its env.
func configureQwen(t *testing.T, home, base string) []string {
	writeJSON(t, filepath.Join(home, ".qwen", "settings.json"), map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}},
		"model":    map[string]any{"name": "tiny"},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
	})
	return []string{
		"OPENAI_BASE_URL=" + base,
		"OPENAI_API_KEY=local",
		"OPENAI_MODEL=tiny",
		"QWEN_CODE_MAX_OUTPUT_TOKENS=256",
	}
}

// geminiAgent is Gemini CLI, which speaks only Google's API: a room's
// seat, played against seatModel, not a debate's persona.
var geminiAgent = realAgent{preset: "gemini", argv: []string{"gemini"}, configure: configureGemini}

// configureGemini: Gemini CLI on Google's API at the server's root, with an
// API key and the model "tiny".
func configureGemini(t *testing.T, home, base string) []string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = ""
	writeJSON(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"model":    map[string]any{"name": "tiny"},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"general":  map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true},
	})
	return []string{"GOOGLE_GEMINI_BASE_URL=" + u.String(), "GEMINI_API_KEY=local"}
}

// configureOpencode: a provider on @ai-sdk/openai-compatible with the model
// "tiny", and no models.dev fetch.
func configureOpencode(t *testing.T, home, base string) []string {
	writeJSON(t, filepath.Join(home, ".config", "opencode", "opencode.json"), map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"model":      "local/tiny",
		"autoupdate": false,
		"share":      "disabled",
		"provider": map[string]any{
			"local": map[string]any{
				"npm":     "@ai-sdk/openai-compatible",
				"name":    "llama-server",
				"options": map[string]any{"baseURL": base, "apiKey": "local"},
				"models": map[string]any{
					"tiny": map[string]any{"name": "tiny", "limit": map[string]any{"context": 65536, "output": 256}},
				},
			},
		},
	})
	return []string{"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1"}
}

// configureCodex: config.toml in CODEX_HOME with a provider on the
// responses wire API (codex refuses "chat").
func configureCodex(t *testing.T, home, base string) []string {
	codexHome := filepath.Join(home, ".codex")
	writeFile(t, filepath.Join(codexHome, "config.toml"), fmt.Sprintf(`model = "tiny"
model_provider = "local"
check_for_update_on_startup = false
model_context_window = 65536

[model_providers.local]
name = "llama-server"
base_url = %q
wire_api = "responses"
`, base))
	return []string{"CODEX_HOME=" + codexHome}
}

// configureClaude: claude-agent-acp on the Anthropic wire API llama-server
// also serves (at the server's root, not /v1). As root, Claude Code needs
// IS_SANDBOX=1 or session/new fails ("Query closed before response").
func configureClaude(t *testing.T, home, base string) []string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = ""
	writeJSON(t, filepath.Join(home, ".claude", "settings.json"), map[string]any{})
	return []string{
		"ANTHROPIC_BASE_URL=" + u.String(),
		"ANTHROPIC_API_KEY=local",
		"ANTHROPIC_MODEL=tiny",
		"ANTHROPIC_SMALL_FAST_MODEL=tiny",
		"CLAUDE_CODE_MAX_OUTPUT_TOKENS=256",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"IS_SANDBOX=1",
	}
}

// leftovers lists the live processes (not zombies) in process group pgid
// or carrying marker (a KEY=VALUE only this test's processes have, such as
// its HOME) in their environment: what a test leaves running. /proc is read
// directly, so a process that left the group is still found by its HOME.
func leftovers(pgid int, marker string) []string {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return []string{"cannot read /proc: " + err.Error()}
	}
	var found []string
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so split after ')'.
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 3 || fields[0] == "Z" || fields[0] == "X" {
			continue
		}
		inGroup := pgid > 0 && fields[2] == strconv.Itoa(pgid)
		hasMarker := false
		if marker != "" {
			if env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ")); err == nil {
				hasMarker = slices.Contains(strings.Split(string(env), "\x00"), marker)
			}
		}
		if inGroup || hasMarker {
			cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			found = append(found, fmt.Sprintf("pid %d (%s)", pid, strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " "))))
		}
	}
	return found
}

// checkNoLeftovers fails when anything of group pgid or with marker in its
// environment is still running, after giving it a moment to exit.
func checkNoLeftovers(t *testing.T, pgid int, marker string) {
	t.Helper()
	var left []string
	for deadline := time.Now().Add(5 * time.Second); ; {
		if left = leftovers(pgid, marker); len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("still running after the test: %s", strings.Join(left, "; "))
	for _, l := range left { // leave nothing behind for the next test
		var pid int
		if _, err := fmt.Sscanf(l, "pid %d", &pid); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
