// Package tmuxtest drives a real program in a real terminal for end-to-end
// tests: it builds the roundtable binary, starts it in a detached tmux
// session of a given size, sends keys and reads the screen back.
//
// Each Session runs on a tmux server of its own (tmux -L), so tests never
// touch the user's tmux or each other, and the server is killed when the
// test ends. tmux must be installed: CI installs it (apt-get install tmux),
// and a missing tmux fails the test rather than skipping it.
package tmuxtest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Require returns the path of tmux, failing the test when it is missing.
func Require(tb testing.TB) string {
	tb.Helper()
	path, err := exec.LookPath("tmux")
	if err != nil {
		tb.Fatalf("tmux is not installed: end-to-end tests drive the binary in tmux; CI installs it (apt-get install tmux), install it the same way to run them locally")
	}
	return path
}

// Build compiles a main package (a path relative to the module root, like
// "./cmd/roundtable") into a temporary folder and returns the binary.
func Build(tb testing.TB, pkg string) string {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	bin := filepath.Join(tb.TempDir(), filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// moduleRoot is the folder of the go.mod of the package under test.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	return filepath.Dir(mod), nil
}

// Options shape a Session.
type Options struct {
	// Width and Height are the terminal's size; 80×24 when zero.
	Width, Height int
	// Env holds extra KEY=value variables for the program.
	Env []string
	// Dir is the program's working directory; the test's when empty.
	Dir string
	// Poll is how often WaitFor and WaitUntil look at the screen; 20 ms
	// when zero.
	Poll time.Duration
	// Raw, when set, is a file that gets every byte the program writes
	// to its terminal, from its first (tmux's pipe-pane), for sequences
	// a screen capture does not keep; see Session.Raw.
	Raw string
}

// Session is one program running in a detached tmux session.
type Session struct {
	tb     testing.TB
	tmux   string
	socket string
	name   string
	poll   time.Duration
	raw    string // Options.Raw
}

// exitMark starts the line the wrapper shell prints when the program ends.
const exitMark = "[tmuxtest: exit status "

// Start runs argv (the program and its arguments) in a new detached tmux
// session. A small shell runs the program (its arguments passed as they
// are, never parsed by the shell) and prints its exit status when it ends,
// for ExitStatus: tmux itself does not always reap a program that ends
// while the pane has terminal modes set. The tmux server is killed when
// the test ends.
func Start(tb testing.TB, opts Options, argv ...string) *Session {
	tb.Helper()
	if len(argv) == 0 {
		tb.Fatal("tmuxtest.Start: no program to run")
	}
	tmux := Require(tb)
	if opts.Width == 0 {
		opts.Width = 80
	}
	if opts.Height == 0 {
		opts.Height = 24
	}
	if opts.Poll <= 0 {
		opts.Poll = 20 * time.Millisecond
	}
	s := &Session{tb: tb, tmux: tmux, socket: "rt-" + randomID(), name: "main", poll: opts.Poll}
	// A config of our own keeps the user's ~/.tmux.conf out, keeps the
	// pane after the program exits (for ExitStatus) and gives the program
	// the whole window (no status bar).
	conf := filepath.Join(tb.TempDir(), "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g remain-on-exit on\nset -g status off\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		// The program saves what it was doing when its terminal goes (a
		// debate closes its room): wait for it, so the test's folders are
		// not removed while it still writes there.
		pid := s.programPID()
		_ = s.run("kill-server")
		waitGone(pid, 15*time.Second)
	})
	args := []string{
		"-f", conf, "new-session", "-d", "-s", s.name,
		"-x", strconv.Itoa(opts.Width), "-y", strconv.Itoa(opts.Height),
	}
	if opts.Dir != "" {
		args = append(args, "-c", opts.Dir)
	}
	for _, e := range append([]string{"TERM=xterm-256color"}, opts.Env...) {
		args = append(args, "-e", e)
	}
	script := `"$@"; status=$?; echo; echo "` + exitMark + `$status]"`
	gate := ""
	if opts.Raw != "" {
		// The program starts once its output is piped: the shell waits
		// for the gate file, made after pipe-pane.
		gate = filepath.Join(tb.TempDir(), "piped")
		script = `while [ ! -e "` + gate + `" ]; do sleep 0.01; done; ` + script
	}
	wrapper := []string{"/bin/sh", "-c", script, "sh"}
	if err := s.run(append(append(args, wrapper...), argv...)...); err != nil {
		tb.Fatalf("start %s in tmux: %v", argv[0], err)
	}
	if opts.Raw != "" {
		if err := s.run("pipe-pane", "-O", "-t", s.name, "cat >> '"+opts.Raw+"'"); err != nil {
			tb.Fatalf("pipe the pane's output: %v", err)
		}
		if err := os.WriteFile(gate, nil, 0o644); err != nil {
			tb.Fatal(err)
		}
		s.raw = opts.Raw
	}
	return s
}

// Raw is what the program wrote to its terminal so far, escape sequences
// and all; it needs Options.Raw.
func (s *Session) Raw() string {
	s.tb.Helper()
	if s.raw == "" {
		s.tb.Fatal("tmuxtest: Raw needs Options.Raw")
	}
	data, err := os.ReadFile(s.raw)
	if err != nil && !os.IsNotExist(err) {
		s.tb.Fatal(err)
	}
	return string(data)
}

// WaitRaw waits until the program's raw output (Raw) holds text.
func (s *Session) WaitRaw(text string, timeout time.Duration) string {
	s.tb.Helper()
	raw, done := s.pollFor(s.Raw, func(raw string) bool { return strings.Contains(raw, text) }, timeout)
	if !done {
		s.tb.Fatalf("after %s the program's output has no %q; the screen:\n%s", timeout, text, s.Capture())
	}
	return raw
}

func randomID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// run runs a tmux command on the session's server.
func (s *Session) run(args ...string) error {
	_, err := s.output(args...)
	return err
}

func (s *Session) output(args ...string) (string, error) {
	cmd := exec.Command(s.tmux, append([]string{"-L", s.socket}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// KillPane closes the program's terminal, as closing its window does: the
// pane and its pseudo-terminal go, and the program gets SIGHUP. There is
// no exit status to read after it.
func (s *Session) KillPane() {
	s.tb.Helper()
	if err := s.run("kill-pane", "-t", s.name); err != nil {
		s.tb.Fatal(err)
	}
}

// SendKeys sends keys as tmux names them ("q", "Enter", "C-c", "Up").
func (s *Session) SendKeys(keys ...string) {
	s.tb.Helper()
	if err := s.run(append([]string{"send-keys", "-t", s.name}, keys...)...); err != nil {
		s.tb.Fatal(err)
	}
}

// Capture returns the screen as plain text, one line per row.
func (s *Session) Capture() string {
	s.tb.Helper()
	out, err := s.output("capture-pane", "-p", "-t", s.name)
	if err != nil {
		s.tb.Fatal(err)
	}
	return out
}

// CaptureHistory returns the pane's scrollback and screen as plain text,
// lines the terminal wrapped joined again: what a program printed after
// leaving its full-window screen, even once it scrolled out of view.
func (s *Session) CaptureHistory() string {
	s.tb.Helper()
	out, err := s.output("capture-pane", "-p", "-J", "-S", "-", "-t", s.name)
	if err != nil {
		s.tb.Fatal(err)
	}
	return out
}

// CaptureANSI returns the screen with its colours and attributes as
// escape sequences (capture-pane -e).
func (s *Session) CaptureANSI() string {
	s.tb.Helper()
	out, err := s.output("capture-pane", "-p", "-e", "-t", s.name)
	if err != nil {
		s.tb.Fatal(err)
	}
	return out
}

// WaitFor waits until the screen contains text and returns the screen; it
// fails the test with the last screen after timeout.
func (s *Session) WaitFor(text string, timeout time.Duration) string {
	s.tb.Helper()
	return s.WaitUntil(fmt.Sprintf("%q", text), func(screen string) bool { return strings.Contains(screen, text) }, timeout)
}

// WaitUntil waits until ok accepts the screen; what names the wait in the
// failure message.
func (s *Session) WaitUntil(what string, ok func(screen string) bool, timeout time.Duration) string {
	s.tb.Helper()
	screen, done := s.pollFor(s.Capture, ok, timeout)
	if !done {
		s.tb.Fatalf("the screen did not show %s within %v; last screen:\n%s", what, timeout, screen)
	}
	return screen
}

// pollFor reads read every poll interval until ok holds for what it
// read or timeout passes; it returns the last read and whether ok held.
func (s *Session) pollFor(read func() string, ok func(string) bool, timeout time.Duration) (string, bool) {
	deadline := time.Now().Add(timeout)
	for {
		got := read()
		if ok(got) {
			return got, true
		}
		if time.Now().After(deadline) {
			return got, false
		}
		time.Sleep(s.poll)
	}
}

// PID is the process id of the program (the child of the wrapper shell).
func (s *Session) PID() int {
	s.tb.Helper()
	out, err := s.output("display-message", "-p", "-t", s.name, "#{pane_pid}")
	if err != nil {
		s.tb.Fatal(err)
	}
	shell := strings.TrimSpace(out)
	deadline := time.Now().Add(5 * time.Second)
	for {
		data, err := os.ReadFile(filepath.Join("/proc", shell, "task", shell, "children"))
		if err == nil {
			if f := strings.Fields(string(data)); len(f) > 0 {
				pid, err := strconv.Atoi(f[0])
				if err == nil {
					return pid
				}
			}
		}
		if time.Now().After(deadline) {
			s.tb.Fatalf("no program running under the tmux pane's shell %s (%v)", shell, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// programPID is the program's process id while it runs, else 0.
func (s *Session) programPID() int {
	out, err := s.output("display-message", "-p", "-t", s.name, "#{pane_pid}")
	if err != nil {
		return 0
	}
	shell := strings.TrimSpace(out)
	data, err := os.ReadFile(filepath.Join("/proc", shell, "task", shell, "children"))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return 0
	}
	pid, _ := strconv.Atoi(f[0])
	return pid
}

// waitGone waits until process pid has exited (or is a zombie), at most
// timeout.
func waitGone(pid int, timeout time.Duration) {
	if pid <= 0 {
		return
	}
	stat := filepath.Join("/proc", strconv.Itoa(pid), "stat")
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(stat)
		if err != nil {
			return
		}
		if i := bytes.LastIndexByte(data, ')'); i >= 0 && i+2 < len(data) && data[i+2] == 'Z' {
			return
		}
	}
}

// ExitStatus waits for the program to exit and returns its exit status.
func (s *Session) ExitStatus(timeout time.Duration) int {
	s.tb.Helper()
	screen := s.WaitFor(exitMark, timeout)
	i := strings.LastIndex(screen, exitMark)
	var status int
	if _, err := fmt.Sscanf(screen[i+len(exitMark):], "%d]", &status); err != nil {
		s.tb.Fatalf("read the exit status from %q: %v", screen[i:], err)
	}
	return status
}
