//go:build llm

package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// TestLLMAgentDebateInterrupted stops a debate with Ctrl+C (SIGINT) while
// a real agent is in its turn, for the agents that do not exit when their
// stdin closes (codex-acp, claude-agent-acp): roundtable must still leave
// nothing running, exit 130, and keep the room, closed as cancelled.
func TestLLMAgentDebateInterrupted(t *testing.T) {
	modelURL := llmURLForModels(t)
	for _, preset := range []string{"codex", "claude"} {
		t.Run(preset, func(t *testing.T) {
			a := agentByPreset(t, preset)
			env := agentEnv(t, a)
			home := envValue(env, "HOME")
			cwd := t.TempDir()
			personaFile := filepath.Join(t.TempDir(), "personas.toml")
			// The agent speaks first, so the interruption lands in its turn;
			// three rounds leave work to stop even when the tiny model
			// answers the first turn at once.
			writeFile(t, personaFile, "[[persona]]\nname = \"Agent\"\npersona = \"a coding agent\"\nagent = [\"acp:"+preset+"\"]\n\n"+
				"[[persona]]\nname = \"Architect\"\npersona = \"a software architect\"\n")
			w := watchProcs(t, "HOME="+home, isOwnGroup)
			cmd := exec.Command(roundtableBin(t), "debate", "--topic", "Should we vendor our dependencies", "--rounds", "3",
				"--personas", personaFile, "--provider", "openai", "--base-url", modelURL, "--model", "tiny",
				"--max-tokens", "48", "--format", "jsonl", "--room", "stopped", "--cwd", cwd)
			cmd.Dir = cwd
			cmd.Env = withRace(env)
			var out, errb lockedBuffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			run := startWatched(t, cmd)
			defer run.kill()
			if !w.waitGroup(time.Minute) {
				t.Fatalf("no agent process started within a minute; stderr: %s", errb.String())
			}
			if !waitForEvent(&out, run, `"event":"turn_start"`, `"agent":"Agent"`) {
				t.Fatalf("the agent's turn did not start within a minute; stdout: %s; stderr: %s", tail(out.String(), 400), errb.String())
			}
			took := run.stopWith(t, syscall.SIGINT, &errb)
			groups := w.finish(t)
			r, err := room.Open(cwd, "stopped")
			if err != nil {
				t.Fatal(err)
			}
			st, err := r.State()
			if err != nil {
				t.Fatal(err)
			}
			if st.Closed == nil || st.Closed.Reason != debate.ReasonCancelled {
				t.Errorf("room after SIGINT: closed %+v, want %q", st.Closed, debate.ReasonCancelled)
			}
			last := ""
			if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) > 0 {
				last = lines[len(lines)-1]
			}
			t.Logf("%s: SIGINT -> exit in %v; agent groups %v; last event %s", preset, took.Round(time.Millisecond), groups, tail(last, 200))
		})
	}
}

// waitForEvent waits up to a minute for a line of out holding every one
// of parts, while run is still running; it says whether one came.
func waitForEvent(out fmt.Stringer, run *watched, parts ...string) bool {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(out.String(), "\n") {
			all := true
			for _, p := range parts {
				all = all && strings.Contains(line, p)
			}
			if all {
				return true
			}
		}
		select {
		case <-run.done:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	return false
}
