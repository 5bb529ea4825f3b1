package debate

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// TestCommandLaunch drives the built binary through what a user gets
// wrong before a debate starts, and through the ways one ends early.
func TestCommandLaunch(t *testing.T) {
	bin := buildBinary(t)
	env := cleanEnv(t)
	run := binaryRunner(bin, env)
	nothingCreated := func(t *testing.T, cwd string) {
		t.Helper()
		if _, err := os.Stat(filepath.Join(cwd, room.Folder)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("created %s", room.Folder)
		}
	}

	t.Run("numeric flags say what they take", func(t *testing.T) {
		for _, tt := range []struct {
			args []string
			env  []string
			want string
		}{
			{[]string{"debate", "--topic", "t", "--rounds", "abc"}, nil, `--rounds must be a number from 1 to 10, not "abc"`},
			{[]string{"debate", "--topic", "t", "--rounds", "11"}, nil, `--rounds must be a number from 1 to 10, not "11"`},
			{[]string{"debate", "--topic", "t", "--rounds", "0"}, nil, `--rounds must be a number from 1 to 10, not "0"`},
			{[]string{"tui", "--rounds", "abc"}, nil, `--rounds must be a number from 1 to 10, not "abc"`},
			{[]string{"debate", "--topic", "t", "--max-tokens", "lots"}, nil, `--max-tokens must be a number of 1 or more, not "lots"`},
			{[]string{"debate", "--topic", "t", "--seed", "1.5"}, nil, `--seed must be a whole number, not "1.5"`},
			{[]string{"debate", "--topic", "t", "--turn-timeout", "soon"}, nil, `--turn-timeout must be a duration of more than 0 like 90s or 2m, not "soon"`},
			{[]string{"debate", "--topic", "t", "--turn-timeout", "0s"}, nil, `--turn-timeout must be a duration of more than 0 like 90s or 2m, not "0s"`},
			{[]string{"seed", "--room", "r", "--budget", "abc"}, nil, `--budget must be a number of 1 or more, not "abc"`},
			{[]string{"--room", "r", "--budget", "0"}, nil, `--budget must be a number of 1 or more, not "0"`},
			{[]string{"seed", "--room", "r"}, []string{"ROUNDTABLE_BUDGET=abc"}, `ROUNDTABLE_BUDGET must be a number of 1 or more, not "abc"`},
		} {
			cwd := t.TempDir()
			out, errOut, code := run(cwd, tt.env, tt.args...)
			first, _, _ := strings.Cut(errOut, "\n")
			if code != 2 || out != "" || first != "roundtable: "+tt.want {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.want)
			}
			nothingCreated(t, cwd)
		}
	})

	t.Run("a base URL without its port is refused", func(t *testing.T) {
		cwd := t.TempDir()
		_, errOut, code := run(cwd, nil, "debate", "--topic", "t", "--provider", "openai", "--base-url", "http://127.0.0.1:/v1")
		want := `roundtable: bad provider settings: --base-url "http://127.0.0.1:/v1" has a colon after the host but no port; write it like http://localhost:11434/v1`
		if code != 2 || !strings.HasPrefix(errOut, want+"\n") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		nothingCreated(t, cwd)
	})

	t.Run("a server that is not running is one sentence, and nothing is created", func(t *testing.T) {
		cwd := t.TempDir()
		port := closedPort(t)
		_, errOut, code := run(cwd, nil, "debate", "--topic", "t", "--provider", "ollama", "--base-url", "http://127.0.0.1:"+port+"/v1")
		want := "roundtable: Ollama at http://127.0.0.1:" + port + " is not answering: start it with `ollama serve`, or choose another provider\n"
		if code != 1 || errOut != want {
			t.Fatalf("exit %d, stderr %q, want %q", code, errOut, want)
		}
		nothingCreated(t, cwd)
	})

	t.Run("a pipe closed early stops the debate and closes its room", func(t *testing.T) {
		// As a user types it: the debate, paced, piped into head.
		cwd := t.TempDir()
		sh := exec.Command("sh", "-c", `"$0" debate --topic "Should we adopt GraphQL" --rounds 3 --room piped 2>err.txt | head -5`, bin)
		sh.Dir = cwd
		sh.Env = env
		out, err := sh.Output()
		if err != nil {
			t.Fatalf("sh: %v", err)
		}
		if n := strings.Count(string(out), "\n"); n != 5 {
			t.Errorf("head printed %d lines:\n%s", n, out)
		}
		// sh returns when head has exited; the debate may still be
		// saving. Its room must close without anyone reading.
		r, err := room.Open(cwd, "piped")
		if err != nil {
			t.Fatal(err)
		}
		var st room.State
		deadline := time.Now().Add(time.Minute) // a hang, not a slow machine
		for {
			if st, err = r.State(); err == nil && st.Closed != nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the room was left open: %+v %v", st, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if st.Closed.Reason != ReasonOutputClosed || len(st.Messages) > 1 {
			t.Fatalf("closed %+v with %d messages, want %q before the first turn ended", st.Closed, len(st.Messages), ReasonOutputClosed)
		}
		for _, m := range st.Messages {
			if m.Kind != KindIncomplete || !strings.HasSuffix(m.Text, "*[incomplete: output closed]*") {
				t.Errorf("message %+v", m)
			}
		}
		errText, _ := os.ReadFile(filepath.Join(cwd, "err.txt"))
		if !strings.Contains(string(errText), "roundtable: the output was closed (write /dev/stdout: broken pipe), so the debate stopped; what was said is saved in room piped\n") {
			t.Errorf("stderr:\n%s", errText)
		}
	})

	t.Run("the exit status of a closed output is 1", func(t *testing.T) {
		cwd := t.TempDir()
		cmd := exec.Command(bin, "debate", "--topic", "Should we adopt GraphQL", "--room", "closed")
		cmd.Dir = cwd
		cmd.Env = env
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		rd := bufio.NewReader(stdout)
		for range 3 {
			if _, err := rd.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
		stdout.Close()
		if code := exitCode(cmd.Wait()); code != 1 {
			t.Fatalf("exit %d, want 1 (not killed by SIGPIPE)", code)
		}
		r, err := room.Open(cwd, "closed")
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := r.State(); st.Closed == nil || st.Closed.Reason != ReasonOutputClosed {
			t.Fatalf("closed %+v", st.Closed)
		}
	})

	t.Run("ctrl+c prints one line", func(t *testing.T) {
		cwd := t.TempDir()
		cmd := exec.Command(bin, "debate", "--topic", "Should we adopt GraphQL", "--room", "stopped")
		cmd.Dir = cwd
		cmd.Env = env
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var errOut syncBuffer
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		rd := bufio.NewReader(stdout)
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("stdout ended before a turn: %v", err)
			}
			if strings.HasPrefix(line, "▌ Product Manager") {
				break
			}
		}
		if _, err := rd.ReadString('\n'); err != nil { // the blank line, then tokens
			t.Fatal(err)
		}
		// stderr is copied from its pipe on its own: wait for the first
		// line before taking what came before the signal.
		for deadline := time.Now().Add(time.Minute); !strings.Contains(errOut.String(), "saving the debate in room stopped"); {
			if time.Now().After(deadline) {
				t.Fatalf("stderr %q", errOut.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
		before := errOut.String()
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		var rest bytes.Buffer
		_, _ = rd.WriteTo(&rest)
		if code := exitCode(cmd.Wait()); code != 130 {
			t.Fatalf("exit %d, want 130", code)
		}
		after := strings.TrimPrefix(errOut.String(), before)
		want := "roundtable: stopped; what was said is saved in room stopped (roundtable transcript --room stopped)\n"
		if after != want {
			t.Errorf("after ctrl+c stderr got %q, want the one line %q", after, want)
		}
		// stdout only ends the cut turn's line.
		if strings.Contains(rest.String(), "stopped") || strings.Count(rest.String(), "\n") > 1 {
			t.Errorf("after ctrl+c stdout got more than the end of the turn: %q", rest.String())
		}
	})

	t.Run("duplicate persona names in a file are refused with their lines", func(t *testing.T) {
		cwd := t.TempDir()
		file := filepath.Join(cwd, "panel.toml")
		text := "[[persona]]\nname = \"Cost Optimizer\"\npersona = \"a finance-minded reviewer\"\n\n[[persona]]\n# the same voice again\nname = \"cost optimizer\"\npersona = \"someone else\"\n"
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errOut, code := run(cwd, nil, "debate", "--topic", "t", "--personas", "panel.toml")
		want := `roundtable: bad persona: panel.toml line 7: a second persona named "cost optimizer" (the first is at line 2); give each persona its own name`
		if code != 2 || !strings.HasPrefix(errOut, want+"\n") {
			t.Fatalf("exit %d, stderr %q, want %q", code, errOut, want)
		}
		if _, err := os.Stat(filepath.Join(cwd, room.Folder)); !errors.Is(err, os.ErrNotExist) {
			t.Error("a refused persona file created a room")
		}
	})
}

// closedPort is a local TCP port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	return port
}

// syncBuffer is a buffer a process writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
