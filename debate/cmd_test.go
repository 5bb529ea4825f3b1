package debate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// buildBinary builds cmd/roundtable once per test into a temporary folder.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "roundtable")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/roundtable").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// cleanEnv is the test process's environment without roundtable's and the
// providers' variables, with a private config folder.
func cleanEnv(t *testing.T) []string {
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ROUNDTABLE_") || strings.HasPrefix(k, "OPENROUTER_") || strings.HasPrefix(k, "OPENAI_") ||
			k == "HOME" || k == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// binaryRunner runs the built binary in cwd with env (plus extraEnv) and
// returns what it printed and its exit code.
func binaryRunner(bin string, env []string) func(cwd string, extraEnv []string, args ...string) (stdout, stderr string, code int) {
	return func(cwd string, extraEnv []string, args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = cwd
		cmd.Env = append(append([]string{}, env...), extraEnv...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		return o.String(), e.String(), exitCode(err)
	}
}

func TestCommandBinary(t *testing.T) {
	bin := buildBinary(t)
	env := cleanEnv(t)
	run := binaryRunner(bin, env)

	t.Run("done", func(t *testing.T) {
		cwd := t.TempDir()
		out, errOut, code := run(cwd, nil, "debate", "--topic", "Should we adopt GraphQL", "--rounds", "2", "--format", "jsonl", "--fast", "--room", "gql")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if !strings.HasPrefix(lines[0], `{"event":"session_start"`) || !strings.HasPrefix(lines[len(lines)-1], `{"event":"done"`) {
			t.Fatalf("jsonl from %q to %q", lines[0], lines[len(lines)-1])
		}
		r, err := room.Open(cwd, "gql")
		if err != nil {
			t.Fatal(err)
		}
		st, _ := r.State()
		if st.Closed == nil || st.Closed.Reason != ReasonComplete || len(st.Messages) != 7 {
			t.Fatalf("room: %d messages, closed %+v", len(st.Messages), st.Closed)
		}
	})

	t.Run("rank", func(t *testing.T) {
		cwd := t.TempDir()
		out, errOut, code := run(cwd, nil, "debate", "--topic", "t", "--rounds", "1", "--rank", "--fast", "--format", "jsonl")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		var kinds []string
		rankers := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var ev Event
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			if ev.Type == EventToken {
				continue
			}
			kinds = append(kinds, string(ev.Type))
			if ev.Type == EventRanking {
				rankers[ev.Agent] = true
				if len(ev.Ranking) != 2 || slices.Contains(ev.Ranking, ev.Agent) {
					t.Errorf("%s ranks %q", ev.Agent, ev.Ranking)
				}
			}
		}
		got := strings.Join(kinds, " ")
		if !strings.Contains(got, "round_end ranking ranking ranking summary done") || len(rankers) != 3 {
			t.Fatalf("events %s; want three rankers' rankings between the round_end and the verdict", got)
		}
	})

	t.Run("usage errors exit 2 and create nothing", func(t *testing.T) {
		for _, args := range [][]string{
			{"debate", "--rounds", "2"},
			{"debate", "--topic", "t", "--rounds", "0"},
			{"debate", "--topic", "t", "--rounds", "11"},
			{"debate", "--topic", "t", "--format", "yaml"},
			{"debate", "--topic", "t", "--provider", "nope"},
			{"debate", "--topic", "t", "--agent", "Nameless"},
			{"debate", "--topic", "t", "--room", "../x"},
			{"debate", "--topic", "t", "--turn-timeout", "0s"},
			{"debate", "--topic", "t", "--no-such-flag"},
		} {
			cwd := t.TempDir()
			_, errOut, code := run(cwd, nil, args...)
			if code != 2 {
				t.Errorf("%v: exit %d, want 2\n%s", args, code, errOut)
			}
			if _, err := os.Stat(filepath.Join(cwd, room.Folder)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%v created %s", args, room.Folder)
			}
		}
	})

	t.Run("missing key exits 1 naming the variable", func(t *testing.T) {
		cwd := t.TempDir()
		_, errOut, code := run(cwd, []string{"ROUNDTABLE_PROVIDER=openrouter"}, "debate", "--topic", "t")
		if code != 1 || !strings.Contains(errOut, "OPENROUTER_API_KEY") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if _, err := os.Stat(filepath.Join(cwd, room.Folder)); !errors.Is(err, os.ErrNotExist) {
			t.Error("a missing key still created the room")
		}
	})

	t.Run("interrupt exits 130 after saving", func(t *testing.T) {
		cwd := t.TempDir()
		cmd := exec.Command(bin, "debate", "--topic", "Should we adopt GraphQL", "--room", "stopped", "--format", "text")
		cmd.Dir = cwd
		cmd.Env = env
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until the first persona is speaking, then press ctrl+c.
		rd := bufio.NewReader(stdout)
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("stdout ended before a turn: %v\n%s", err, errOut.String())
			}
			if strings.HasPrefix(line, "▌ Product Manager") {
				break
			}
		}
		time.Sleep(300 * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		_, _ = rd.WriteTo(&bytes.Buffer{}) // until the process closes stdout
		code := exitCode(cmd.Wait())
		if code != 130 {
			t.Fatalf("exit %d, want 130\n%s", code, errOut.String())
		}
		r, err := room.Open(cwd, "stopped")
		if err != nil {
			t.Fatal(err)
		}
		st, _ := r.State()
		if st.Closed == nil || st.Closed.Reason != ReasonCancelled || len(st.Messages) != 1 || st.Messages[0].Kind != KindIncomplete {
			t.Fatalf("closed %+v, messages %+v", st.Closed, st.Messages)
		}
	})
}
