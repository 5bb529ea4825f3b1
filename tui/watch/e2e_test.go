package watch_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

const e2eTimeout = 10 * time.Second

// TestWatchEndToEnd drives the real binary in tmux: it starts on an empty
// folder, waits for the first seat, and shows what this test process (a
// process other than the watcher) writes through the store: a seat
// connecting, each message, the close, the spec.
func TestWatchEndToEnd(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 32, Dir: t.TempDir()}, bin, "watch", "--room", "e2e", "--cwd", cwd)
	s.WaitFor("waiting for the first seat", e2eTimeout)

	r, _, err := room.Create(cwd, "e2e", room.CreateOptions{Topic: "End to end topic", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	s.WaitFor("End to end topic", e2eTimeout)
	if err := r.Log("connect", room.F("seat", "lead"), room.F("agent", "opus-e2e"), room.F("pid", 1)); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("connected but never started", e2eTimeout)

	posts := []room.Post{
		{Seat: "lead", Agent: "opus-e2e", Text: "First **message** from the lead: alpha."},
		{Seat: "peer", Agent: "codex-e2e", Kind: "objection", Text: "Second, from the peer: bravo."},
		{Seat: "lead", Agent: "opus-e2e", Kind: "decision", Text: "Third, the decision: charlie."},
	}
	for _, p := range posts {
		if _, _, err := r.PostMessage(p); err != nil {
			t.Fatal(err)
		}
		s.WaitFor(strings.ReplaceAll(p.Text, "**", ""), e2eTimeout)
	}
	if _, err := r.WriteSpec("# The spec\n\nWritten at the end: delta."); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: "agreement reached", RequireSpec: true}); err != nil {
		t.Fatal(err)
	}
	screen := s.WaitFor("CLOSED · agreement reached", e2eTimeout)
	for _, want := range []string{"alpha", "bravo", "charlie", "3 of 3"} {
		if !strings.Contains(screen, want) {
			t.Errorf("%q missing from the closed screen:\n%s", want, screen)
		}
	}
	s.SendKeys("s")
	s.WaitFor("Written at the end: delta.", e2eTimeout)
	s.SendKeys("q") // q is "back": from the spec to the messages
	s.WaitFor("Third, the decision: charlie.", e2eTimeout)
	s.SendKeys("q") // and, standalone, from the messages out
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d after q, want 0", code)
	}
}

// TestWatchBadCommandLine checks the exit code and the message of a wrong
// command line (run without a terminal: the error goes to stderr).
func TestWatchBadCommandLine(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad room name", []string{"watch", "--room", "../etc", "--cwd", t.TempDir()}, "bad room name"},
		{"missing cwd", []string{"watch", "--room", "r", "--cwd", filepath.Join(t.TempDir(), "missing")}, "not an existing folder"},
		{"cwd is a file", []string{"watch", "--room", "r", "--cwd", bin}, "not an existing folder"},
		{"unknown flag", []string{"watch", "--rooom", "r"}, "unknown flag"},
		{"arguments", []string{"watch", "extra"}, "roundtable watch --room extra"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := exec.Command(bin, tt.args...)
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Errorf("exit: %v, want status 2", err)
			}
			if !strings.Contains(strings.ToLower(stderr.String()), tt.want) {
				t.Errorf("%q missing from stderr:\n%s", tt.want, stderr.String())
			}
		})
	}
}
