//go:build llm

package main

import (
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
			// The agent speaks first, so the interruption lands in its turn.
			writeFile(t, personaFile, "[[persona]]\nname = \"Agent\"\npersona = \"a coding agent\"\nagent = [\"acp:"+preset+"\"]\n\n"+
				"[[persona]]\nname = \"Architect\"\npersona = \"a software architect\"\n")
			w := watchProcs(t, "HOME="+home, isOwnGroup)
			cmd := exec.Command(roundtableBin(t), "debate", "--topic", "Should we vendor our dependencies", "--rounds", "1",
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
			time.Sleep(500 * time.Millisecond) // into initialize / the turn
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
