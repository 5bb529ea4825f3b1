package debate

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

// TestAgentRestraintChoice: what each preset gets for each --allow-agent-tools
// value, and which agents are held.
func TestAgentRestraintChoice(t *testing.T) {
	spec := func(value string) AgentSpec {
		s, err := ParseAgent(value)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	all := AllowWrite | AllowExec
	for _, tc := range []struct {
		agent string
		tools AgentTools
		args  []string
		held  bool
	}{
		{"acp:qwen", 0, []string{"--approval-mode", "plan"}, true},
		{"acp:qwen", AllowWrite, []string{"--approval-mode", "default"}, true},
		{"acp:qwen", AllowExec, []string{"--approval-mode", "default"}, true},
		{"acp:qwen", all, nil, true},
		{"acp:qwen --yolo", 0, nil, true},
		{"acp:qwen --approval-mode=auto-edit", 0, nil, true},
		{"acp:gemini", 0, []string{"--approval-mode", "default"}, false},
		{"acp:gemini -m gemini-2.5-flash", AllowExec, []string{"--approval-mode", "default"}, false},
		{"acp:gemini", AllowWrite, []string{"--approval-mode", "default"}, true},
		{"acp:opencode", 0, nil, true},
		{"acp:claude", 0, nil, true},
		{"acp:codex", 0, nil, true},
		{"acp:my-agent --stdio", 0, nil, false},
		{"acp:my-agent --stdio", AllowExec, nil, false},
		{"acp:my-agent --stdio", AllowWrite, nil, true},
	} {
		s := spec(tc.agent)
		if got := restraintArgs(s, tc.tools); !slices.Equal(got, tc.args) {
			t.Errorf("%s with %q: args %q, want %q", tc.agent, tc.tools, got, tc.args)
		}
		if got := agentHeld(s, tc.tools); got != tc.held {
			t.Errorf("%s with %q: held %v, want %v", tc.agent, tc.tools, got, tc.held)
		}
	}

	oc := spec("acp:opencode")
	for _, tc := range []struct {
		tools AgentTools
		user  string // the user's own OPENCODE_PERMISSION
		want  map[string]any
	}{
		{0, "", map[string]any{"edit": "deny", "bash": "deny"}},
		{AllowWrite, "", map[string]any{"bash": "deny"}},
		{AllowExec, "", map[string]any{"edit": "deny"}},
		{0, `{"webfetch":"ask","edit":"allow"}`, map[string]any{"webfetch": "ask", "edit": "deny", "bash": "deny"}},
		{0, `not json`, map[string]any{"edit": "deny", "bash": "deny"}},
	} {
		var environ []string
		if tc.user != "" {
			environ = []string{"OPENCODE_PERMISSION=" + tc.user}
		}
		env := restraintEnv(oc, tc.tools, environ)
		wantGit := tc.tools&AllowExec == 0 // opencode writes .git/opencode of a repository it sees
		if len(env) < 1 || (len(env) == 2) != wantGit || (wantGit && env[1] != "GIT_DIR="+noGitDir) {
			t.Fatalf("tools %q: env %q", tc.tools, env)
		}
		var got map[string]any
		v, ok := cutEnv(env[0], "OPENCODE_PERMISSION")
		if !ok || json.Unmarshal([]byte(v), &got) != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("tools %q over %q: %s, want %v", tc.tools, tc.user, env[0], tc.want)
		}
	}
	if env := restraintEnv(oc, all, nil); env != nil {
		t.Errorf("opencode with every tool allowed: env %q, want none", env)
	}
	if env := restraintEnv(spec("acp:qwen"), 0, nil); env != nil {
		t.Errorf("qwen: env %q, want none", env)
	}

	for _, tc := range []struct {
		offered []string
		current string
		tools   AgentTools
		want    string
	}{
		{[]string{"build", "plan"}, "build", 0, "plan"},                                                       // opencode
		{[]string{"build", "plan"}, "build", AllowWrite, ""},                                                  // opencode: its permission settings hold it
		{[]string{"plan", "default", "auto-edit", "auto", "yolo"}, "auto", 0, "plan"},                         // qwen
		{[]string{"plan", "default", "auto-edit", "auto", "yolo"}, "auto", AllowWrite, "default"},             // qwen asks, roundtable answers
		{[]string{"plan", "default", "auto-edit", "auto", "yolo"}, "auto-edit", AllowExec, "default"},         // qwen
		{[]string{"plan", "default", "auto-edit", "auto", "yolo"}, "yolo", all, ""},                           // all allowed: the user's choice
		{[]string{"default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"}, "default", 0, "dontAsk"}, // claude: dontAsk before plan
		{[]string{"default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"}, "acceptEdits", AllowWrite, "default"},
		{[]string{"default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"}, "default", AllowWrite, ""},
		{[]string{"read-only", "auto", "full-access"}, "auto", 0, "read-only"}, // codex
		{[]string{"read-only", "auto", "full-access"}, "read-only", 0, ""},
		{[]string{"read-only", "auto", "full-access"}, "auto", AllowWrite, ""}, // no asking mode to go to
		{[]string{"ask", "code"}, "code", 0, ""},
	} {
		if got := sessionMode(tc.offered, tc.current, tc.tools); got != tc.want {
			t.Errorf("modes %v (now %s), tools %q: switch to %q, want %q", tc.offered, tc.current, tc.tools, got, tc.want)
		}
	}
}

func cutEnv(kv, key string) (string, bool) {
	if len(kv) > len(key) && kv[:len(key)+1] == key+"=" {
		return kv[len(key)+1:], true
	}
	return "", false
}

// startRecorded starts the scripted agent as preset (its command replaced
// by the scripted agent) with tools, and returns what it recorded during
// the handshake.
func startRecorded(t *testing.T, preset string, tools AgentTools, s acpagent.Script) []map[string]any {
	t.Helper()
	bin := acpagent.Build(t)
	s.Record = filepath.Join(t.TempDir(), "record.jsonl")
	spec, err := ParseAgent("acp:" + preset)
	if err != nil {
		t.Fatal(err)
	}
	spec.Command = append([]string{bin}, spec.Command[1:]...)
	a, err := startAgent(context.Background(), spec, AgentOptions{
		Cwd: t.TempDir(), Tools: tools, Grace: 300 * time.Millisecond,
		Env: []string{acpagent.EnvScript + "=" + acpagent.WriteScript(t, s), "OPENCODE_PERMISSION={\"webfetch\":\"ask\"}"},
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	a.stop(false)
	return acpagent.Records(t, s.Record)
}

// recorded is the value of the first record holding key (and, when match
// is set, key's value equal to match), under field.
func recorded(recs []map[string]any, key, match, field string) (any, bool) {
	for _, r := range recs {
		v, ok := r[key]
		if !ok || (match != "" && v != match) {
			continue
		}
		return r[field], true
	}
	return nil, false
}

// TestAgentRestraintHandshake: the restraints reach the agent: its
// command-line flags, its environment, and the mode switched through a
// "mode" config option (opencode) or a legacy session mode (qwen, claude,
// codex), or left alone.
func TestAgentRestraintHandshake(t *testing.T) {
	t.Run("opencode read-only", func(t *testing.T) {
		recs := startRecorded(t, "opencode", 0, acpagent.Script{ConfigModes: []string{"build", "plan"}, RecordEnv: []string{"OPENCODE_PERMISSION", "GIT_DIR"}})
		if v, _ := recorded(recs, "env", "GIT_DIR", "value"); v != noGitDir {
			t.Errorf("GIT_DIR %v, want %s", v, noGitDir)
		}
		if v, _ := recorded(recs, "config", "mode", "value"); v != "plan" {
			t.Errorf("mode config option set to %v, want plan; records %v", v, recs)
		}
		v, _ := recorded(recs, "env", "OPENCODE_PERMISSION", "value")
		var perm map[string]any
		if s, _ := v.(string); json.Unmarshal([]byte(s), &perm) != nil || perm["edit"] != "deny" || perm["bash"] != "deny" || perm["webfetch"] != "ask" {
			t.Errorf("OPENCODE_PERMISSION %v, want edit and bash denied over the user's webfetch", v)
		}
	})
	t.Run("opencode write", func(t *testing.T) {
		recs := startRecorded(t, "opencode", AllowWrite, acpagent.Script{ConfigModes: []string{"build", "plan"}, RecordEnv: []string{"OPENCODE_PERMISSION"}})
		if _, ok := recorded(recs, "config", "", "value"); ok {
			t.Errorf("a config option was set with write allowed: %v", recs)
		}
		if v, _ := recorded(recs, "env", "OPENCODE_PERMISSION", "value"); v != `{"bash":"deny","webfetch":"ask"}` {
			t.Errorf("OPENCODE_PERMISSION %v", v)
		}
	})
	t.Run("qwen read-only", func(t *testing.T) {
		recs := startRecorded(t, "qwen", 0, acpagent.Script{Modes: []string{"auto", "plan", "default", "yolo"}})
		argv, _ := recorded(recs, "cwd", "", "argv")
		if fmt.Sprint(argv) != "[--acp --approval-mode plan]" {
			t.Errorf("argv %v, want --acp --approval-mode plan", argv)
		}
		if v, _ := recorded(recs, "mode", "", "mode"); v != "plan" {
			t.Errorf("mode %v, want plan", v)
		}
	})
	t.Run("qwen write", func(t *testing.T) {
		recs := startRecorded(t, "qwen", AllowWrite, acpagent.Script{Modes: []string{"auto", "plan", "default", "yolo"}})
		argv, _ := recorded(recs, "cwd", "", "argv")
		if fmt.Sprint(argv) != "[--acp --approval-mode default]" {
			t.Errorf("argv %v", argv)
		}
		if v, _ := recorded(recs, "mode", "", "mode"); v != "default" {
			t.Errorf("mode %v, want default (asking) from auto", v)
		}
	})
	t.Run("claude read-only", func(t *testing.T) {
		recs := startRecorded(t, "claude", 0, acpagent.Script{Modes: []string{"default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"}})
		if v, _ := recorded(recs, "mode", "", "mode"); v != "dontAsk" {
			t.Errorf("mode %v, want dontAsk", v)
		}
		if argv, _ := recorded(recs, "cwd", "", "argv"); fmt.Sprint(argv) != "[]" {
			t.Errorf("argv %v, want none", argv)
		}
	})
	t.Run("all allowed", func(t *testing.T) {
		recs := startRecorded(t, "qwen", AllowWrite|AllowExec, acpagent.Script{Modes: []string{"yolo", "plan", "default"}, ConfigModes: []string{"build", "plan"}})
		for _, k := range []string{"mode", "config"} {
			if v, ok := recorded(recs, k, "", k); ok {
				t.Errorf("%s set to %v with every tool allowed", k, v)
			}
		}
	})
}
