//go:build llm

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/debatetest"
)

// TestLLMReadOnlyAgents runs each real coding agent as a debate persona
// against debatetest's scripted model, which tries in turn to write a new
// file, to edit NOTES.md and to run `touch` in a shell, in a checkout that
// is a git repository with a commit, an uncommitted edit and an untracked
// file. Under the default tools (read-only) every file of the checkout,
// .git included, is byte-identical afterwards and the debate finishes;
// with --allow-agent-tools write the new file lands. Codex, whose every
// command runs in its sandbox, also runs with --allow-agent-tools exec:
// the touch lands; under the defaults its column shows the touch failed.
// The model personas and the moderator are the mock, so no llama-server
// is needed.
//
// What each agent did with each attempt is logged as a table row
// ("readonly: agent tools | write | edit | shell"), the source of the
// table in RELIABILITY.md.
func TestLLMReadOnlyAgents(t *testing.T) {
	for _, preset := range []string{"qwen", "opencode", "codex", "claude"} {
		toolSets := []string{"", "write"}
		if preset == "codex" {
			toolSets = append(toolSets, "exec")
		}
		for _, tools := range toolSets {
			name := preset + "/default"
			if tools != "" {
				name = preset + "/" + tools
			}
			t.Run(name, func(t *testing.T) { readOnlyCase(t, preset, tools) })
		}
	}
}

// readOnlyNotes is the tracked file the model tries to edit.
const readOnlyNotes = "# Notes\nNightly jobs run from cron on one host.\n"

func readOnlyCase(t *testing.T, preset, tools string) {
	a := agentByPreset(t, preset)
	srv := debatetest.NewToolServer(t, debatetest.ToolOptions{LogDir: os.Getenv("READONLY_LOG_DIR")})
	env := agentEnvAt(t, a, srv.URL+"/v1")
	home := envValue(env, "HOME")
	cwd := gitCheckout(t)
	before := treeHash(t, cwd)

	personaFile := filepath.Join(t.TempDir(), "personas.toml")
	writeFile(t, personaFile, "[[persona]]\nname = \"Architect\"\npersona = \"a software architect who weighs coupling and failure modes\"\n")
	args := []string{
		"debate", "--topic", "Should the nightly jobs move from cron to a queue", "--rounds", "1",
		"--personas", personaFile, "--provider", "mock", "--fast",
		"--agent", "Agent=acp:" + preset, "--turn-timeout", "3m",
		"--format", "jsonl", "--room", "readonly", "--cwd", cwd,
	}
	if tools != "" {
		args = append(args, "--allow-agent-tools", tools)
	}
	w := watchProcs(t, "HOME="+home, isOwnGroup)
	out, errOut, code := runIn(t, env, cwd, args...)
	w.finish(t)
	if code != 0 {
		t.Fatalf("roundtable %s: exit %d\nstderr:\n%s\nstdout:\n%s", strings.Join(args, " "), code, tail(errOut, 4000), tail(out, 4000))
	}

	var activity []string
	for line := range strings.Lines(out) {
		var ev struct {
			Event string `json:"event"`
			Data  struct {
				Agent, Kind, Text string
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if ev.Event == "activity" && ev.Data.Agent == "Agent" && ev.Data.Kind != "note" {
			activity = append(activity, ev.Data.Kind+": "+ev.Data.Text)
		}
		if ev.Event == string(debate.EventError) {
			t.Errorf("error event: %s", line)
		}
	}
	evs := jsonlEvents(t, out)
	if last := evs[len(evs)-1]; last.Type != debate.EventDone {
		t.Fatalf("last event %s, want done", last.Type)
	}

	// What the model asked for: a step is "called" when the agent offered
	// a tool for it and the model called it, "not offered" when no request
	// of the conversation declared one.
	replies := srv.Replies()
	calls := 0
	steps := map[string]string{}
	for _, step := range []string{"write", "edit", "shell"} {
		steps[step] = "not offered"
		for _, r := range replies {
			if tool, ok := strings.CutPrefix(r, step+":"); ok {
				steps[step] = "called " + tool
			}
		}
	}
	for _, r := range replies {
		if strings.Contains(r, ":") {
			calls++
		}
	}
	if !slices.ContainsFunc(srv.Requests(), func(r debatetest.ToolRequest) bool { return len(r.Tools) > 0 }) {
		t.Fatalf("the agent's conversation never reached the scripted model (replies %v)", replies)
	}
	if os.Getenv("READONLY_DEBUG") != "" {
		t.Logf("requests %+v\nstdout:\n%s", srv.Requests(), out)
	}
	if len(activity) < calls {
		t.Errorf("the model made %d tool calls, the agent's column shows %d: %v", calls, len(activity), activity)
	}

	wrote, wroteErr := os.ReadFile(filepath.Join(cwd, debatetest.ToolWroteFile))
	notes, _ := os.ReadFile(filepath.Join(cwd, debatetest.ToolEditFile))
	_, touchErr := os.Stat(filepath.Join(cwd, debatetest.ToolTouchedFile))
	outcome := func(step string, landed bool) string {
		if landed {
			return steps[step] + ", landed"
		}
		return steps[step] + ", no change"
	}
	label := tools
	if label == "" {
		label = "default"
	}
	t.Logf("readonly: %s %s | %s | %s | %s | activity %q", preset, label,
		outcome("write", wroteErr == nil),
		outcome("edit", strings.Contains(string(notes), debatetest.ToolEditNew)),
		outcome("shell", touchErr == nil), activity)

	switch tools {
	case "":
		if after := treeHash(t, cwd); after != before {
			t.Errorf("the checkout changed under the default tools:\n%s", treeDiff(before, after))
		}
		// Codex's sandbox runs the touch and it fails: the column says so.
		if preset == "codex" && !slices.ContainsFunc(activity, func(a string) bool {
			return strings.HasPrefix(a, "failed: failed: touch "+debatetest.ToolTouchedFile) && strings.Contains(a, "Read-only file system")
		}) {
			t.Errorf("codex's column does not show the touch failing in its read-only sandbox: %q", activity)
		}
	case "exec":
		if touchErr != nil {
			t.Errorf("with --allow-agent-tools exec, %s was not touched: %v", debatetest.ToolTouchedFile, touchErr)
		}
		if !slices.Contains(activity, "tool: ran: touch "+debatetest.ToolTouchedFile) {
			t.Errorf("the column does not show the touch ran: %q", activity)
		}
	case "write":
		if string(wrote) != debatetest.ToolWroteText {
			t.Errorf("with --allow-agent-tools write, %s holds %q (%v), want %q", debatetest.ToolWroteFile, wrote, wroteErr, debatetest.ToolWroteText)
		}
	}
}

// gitCheckout makes a git repository with one commit, an uncommitted edit
// of a tracked file and an untracked file, and refreshes its index so a
// later `git status` has nothing to rewrite.
func gitCheckout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	writeFile(t, filepath.Join(dir, debatetest.ToolEditFile), readOnlyNotes)
	writeFile(t, filepath.Join(dir, "jobs.txt"), "backup 02:00\n")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	writeFile(t, filepath.Join(dir, "jobs.txt"), "backup 02:00\nreport 03:00\n")
	writeFile(t, filepath.Join(dir, "scratch.txt"), "not tracked\n")
	git("status", "--porcelain")
	return dir
}

// treeHash lists every file and folder under dir (.git included, the
// rooms roundtable itself saves in .roundtable/ left out) with its mode
// and a hash of its content, one a line.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".roundtable" {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		switch {
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h := sha256.Sum256(data)
			sum = hex.EncodeToString(h[:8])
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			sum = "-> " + target
		}
		fmt.Fprintf(&b, "%s %v %s\n", rel, info.Mode(), sum)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// treeDiff is the lines of two treeHash lists that differ.
func treeDiff(before, after string) string {
	was := strings.Split(before, "\n")
	is := strings.Split(after, "\n")
	var out []string
	for _, l := range was {
		if !slices.Contains(is, l) {
			out = append(out, "- "+l)
		}
	}
	for _, l := range is {
		if !slices.Contains(was, l) {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
