package watch_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
	"github.com/roundtable-dev/roundtable/tui/watch"
)

// TestRemoteWatchEndToEnd runs the real binary's watch --url in tmux
// against an MCP streamable-HTTP host serving a room of this process: the
// room shows, read-only, with "remote: host:port"; a message, a note, a
// seat and the close made in the source room appear; a lost connection
// says so and recovers.
func TestRemoteWatchEndToEnd(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	src, _, err := room.Create(t.TempDir(), "far", room.CreateOptions{Topic: "A room on another machine", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := src.PostMessage(room.Post{Seat: "lead", Agent: "opus", Text: "The brief: alpha."}); err != nil {
		t.Fatal(err)
	}
	host := watch.StartTestHost(t, src, "rt_observer-token")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 32, Dir: t.TempDir()},
		bin, "watch", "--url", host.URL(), "--token", "rt_observer-token")
	screen := s.WaitFor("The brief: alpha.", e2eTimeout)
	for _, want := range []string{"A room on another machine", "remote: " + host.Addr(), "room far"} {
		if !strings.Contains(screen, want) {
			t.Errorf("%q missing from the remote screen:\n%s", want, screen)
		}
	}

	if err := src.Log("connect", room.F("seat", "peer"), room.F("agent", "codex-far"), room.F("pid", 1)); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("codex-far", e2eTimeout)
	if _, _, err := src.PostMessage(room.Post{Seat: "peer", Agent: "codex-far", Text: "An answer from afar: bravo."}); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("An answer from afar: bravo.", e2eTimeout)
	if _, err := src.AddNote(room.NoteFromHost, "A steering note: charlie.", 0); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("A steering note: charlie.", e2eTimeout)

	// Read-only: i says so and opens nothing.
	s.SendKeys("i")
	s.WaitFor("read-only: an observer cannot", e2eTimeout)

	// The host goes away: the status says so; it comes back on the same
	// address: the watch carries on.
	addr := host.Addr()
	host.Stop()
	s.WaitFor("lost", 20*time.Second)
	host.Listen(addr)
	s.WaitFor("reconnected to "+addr, 20*time.Second)
	if _, _, err := src.PostMessage(room.Post{Seat: "lead", Agent: "opus", Kind: "decision", Text: "After the outage: delta."}); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("After the outage: delta.", e2eTimeout)

	if _, err := src.WriteSpec("# Far spec\n\nWritten remotely: echo."); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Close(room.CloseOptions{Reason: "agreed from afar", RequireSpec: true}); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("CLOSED · agreed from afar", e2eTimeout)
	s.SendKeys("s")
	s.WaitFor("Written remotely: echo.", e2eTimeout)
	s.SendKeys("q")
	s.WaitFor("After the outage: delta.", e2eTimeout)
	s.SendKeys("q")
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d after q, want 0", code)
	}
}

// TestRemoteWatchTokenRevoked checks that a token revoked while the
// screen runs is said in the status line.
func TestRemoteWatchTokenRevoked(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	src, _, err := room.Create(t.TempDir(), "far", room.CreateOptions{Topic: "Revoked", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	host := watch.StartTestHost(t, src, "rt_old")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 24, Dir: t.TempDir()},
		bin, "watch", "--url", host.URL(), "--token", "rt_old")
	s.WaitFor("no messages yet", e2eTimeout)
	host.SetToken("rt_new")
	// The parked call returns with this message; the next one is refused.
	if _, _, err := src.PostMessage(room.Post{Seat: "lead", Agent: "opus", Text: "Last words: foxtrot."}); err != nil {
		t.Fatal(err)
	}
	s.WaitFor("Last words: foxtrot.", e2eTimeout)
	s.WaitFor("refused the token", e2eTimeout)
	s.SendKeys("q")
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d after q, want 0", code)
	}
}

// TestRemoteWatchRefused checks what a token the host refuses and a bad
// command line give: one sentence each, exit 1 for the token, 2 for usage.
func TestRemoteWatchRefused(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	src, _, err := room.Create(t.TempDir(), "far", room.CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	host := watch.StartTestHost(t, src, "rt_right")
	// Token files: private with a token the host refuses, readable by
	// others, holding no token.
	dir := t.TempDir()
	tokenFile := func(name, body string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	wrongTok := "rt_" + strings.Repeat("w", 43)
	private := tokenFile("private", wrongTok+"\n", 0o600)
	shared := tokenFile("shared", wrongTok+"\n", 0o644)
	notToken := tokenFile("notes", "my observer token is below\n"+wrongTok+"\n", 0o600)
	tests := []struct {
		name string
		args []string
		env  []string
		code int
		want string
	}{
		{"wrong token", []string{"--url", host.URL(), "--token", "rt_wrong"}, nil, 1, "the host refused the token: it is wrong or has been revoked"},
		{"wrong token from the environment", []string{"--url", host.URL()}, []string{"ROUNDTABLE_TOKEN=rt_wrong"}, 1, "wrong or has been revoked"},
		{"no token", []string{"--url", host.URL()}, nil, 2, "--url needs the room's observer token"},
		{"wrong token from a file", []string{"--url", host.URL(), "--token-file", private}, nil, 1, "wrong or has been revoked"},
		{"token file others can read", []string{"--url", host.URL(), "--token-file", shared}, nil, 2, "chmod 600 " + shared},
		{"token file with more than a token", []string{"--url", host.URL(), "--token-file", notToken}, nil, 2, "does not hold a roundtable token alone"},
		{"missing token file", []string{"--url", host.URL(), "--token-file", filepath.Join(dir, "none")}, nil, 2, "no such file"},
		{"--token and --token-file", []string{"--url", host.URL(), "--token", "a", "--token-file", private}, nil, 2, "keep one"},
		{"not http", []string{"--url", "ftp://x", "--token", "a"}, nil, 2, "bad --url"},
		{"with --take", []string{"--url", host.URL(), "--token", "a", "--take", "lead"}, nil, 2, "--take does not go with --url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := exec.Command(bin, append([]string{"watch"}, tt.args...)...)
			cmd.Env = append(cmd.Environ(), tt.env...)
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tt.code {
				t.Errorf("exit: %v, want status %d", err, tt.code)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("%q missing from stderr:\n%s", tt.want, stderr.String())
			}
		})
	}
}
