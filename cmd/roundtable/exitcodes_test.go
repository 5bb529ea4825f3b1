package main

import (
	"bufio"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestExitCodes holds every command to the one policy (exitCodes, in
// roundtable --help): 2 for what the command line asks that cannot run,
// found before any work; 1 for work that failed; 0 for done. Each command
// has a row for each code it can give here, and every command has a row
// for 2, so a command added without one fails.
func TestExitCodes(t *testing.T) {
	cwd := t.TempDir()
	open, _, err := room.Create(cwd, "open", room.CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := open.PostMessage(room.Post{Seat: room.SeatLead, Agent: "a", Text: "brief"}); err != nil {
		t.Fatal(err)
	}
	done, _, err := room.Create(cwd, "done", room.CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := done.Close(room.CloseOptions{Reason: "agreement reached"}); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dead := []string{"--provider", "openai", "--base-url", "http://127.0.0.1:1/v1", "--model", "m"}
	in := func(args ...string) []string { return append(args, "--cwd", cwd) }
	questions := filepath.Join(cwd, "q.jsonl")
	if err := os.WriteFile(questions, []byte(`{"id":"a","question":"What is 1+1?","answer":"2"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		cmd  string // the subcommand the row checks ("" for the root)
		args []string
		code int
	}{
		{"", []string{"--bogus"}, 2},
		{"", in("--room", "../x", "--seat", "lead"), 2},
		{"council", in("council", "--room", "c", "--topic", "t", "--seat", "x=bogus:1"), 2},
		{"debate", in("debate", "--topic", "t", "--provider", "nosuch"), 2},
		{"debate", in("debate", "--topic", "t", "--personas", cwd), 2},
		{"debate", in("debate", "--resume", "nosuch"), 2},
		{"debate", in(append([]string{"debate", "--topic", "t"}, dead...)...), 1},
		{"eval", []string{"eval", "--questions", filepath.Join(cwd, "nosuch.jsonl")}, 2},
		{"eval", []string{"eval", "--questions", questions, "--arms", "vote:0"}, 2},
		{"eval", append([]string{"eval", "--questions", questions, "--arms", "single"}, dead...), 1},
		{"eval", []string{"eval", "--questions", questions, "--arms", "single", "--provider", "mock"}, 0},
		{"host", in("host", "--room", "nosuch"), 2},
		{"host", in("host", "--all", "--listen", busy.Addr().String()), 1},
		{"note", in("note", "--room", "nosuch", "hi"), 2},
		{"note", in("note", "--room", "done", "hi"), 2},
		{"note", in("note", "--room", "open", "hi"), 0},
		{"rooms", in("rooms", "delete", "nosuch"), 2},
		{"rooms", in("rooms", "rename", "open", "done"), 2}, // the name is taken
		{"rooms", in("rooms", "restore", "nosuch"), 2},
		{"rooms", in("rooms", "--json"), 0},
		{"seat", in("seat", "--room", "done", "--seat", "peer"), 2},
		{"seat", in(append([]string{"seat", "--room", "fresh", "--topic", "t", "--seat", "lead"}, dead...)...), 1},
		{"seats", in("seats", "--room", "nosuch"), 2},
		{"seats", in("seats", "--room", "open"), 0},
		{"seed", in("seed", "--room", "done", "--topic", "again"), 2},
		{"seed", in("seed", "--room", "seeded", "--topic", "t"), 0},
		{"serve", in("serve", "--room", "bad/name"), 2},
		{"serve", in("serve", "--room", "served", "--seat", "lead"), 0}, // stdin ends: the client left
		{"transcript", in("transcript", "--room", "nosuch"), 2},
		{"transcript", in("transcript", "--room", "open", "--out", cwd+"/no/such/folder/x.md"), 2},
		{"transcript", in("transcript", "--room", "open"), 0},
		{"tui", in("tui", "--provider", "nosuch"), 2},
		{"tui", in("tui"), 1}, // no terminal
		{"verdict", in("verdict", "--room", "nosuch"), 2},
		{"verdict", in("verdict", "--room", "open", "--provider", "nosuch"), 2},
		{"verdict", in(append([]string{"verdict", "--room", "open"}, dead...)...), 1},
		{"version", []string{"version", "extra"}, 2},
		{"version", []string{"version"}, 0},
		{"watch", in("watch", "--room", "open", "--take", "nobody"), 2},
		{"watch", in("watch", "--room", "open"), 1}, // no terminal
	}
	usage := map[string]bool{}
	for _, r := range rows {
		_, stderr, code := runBin(t, "", r.args...)
		if code != r.code {
			t.Errorf("roundtable %s: exit %d, want %d (%s)", strings.Join(r.args, " "), code, r.code, strings.TrimSpace(stderr))
		}
		if code != 0 && !strings.HasPrefix(stderr, "roundtable: ") {
			t.Errorf("roundtable %s: stderr %q does not start with one sentence from roundtable", strings.Join(r.args, " "), stderr)
		}
		if r.code == 2 {
			usage[r.cmd] = true
		}
	}
	for _, c := range newRoot().Commands() {
		if name := c.Name(); name != "help" && !usage[name] {
			t.Errorf("roundtable %s has no row for exit 2 here: add one", name)
		}
	}
}

// TestExitCodeInterrupted: a debate interrupted (SIGINT, as Ctrl+C) exits
// 130 once it has saved what was said.
func TestExitCodeInterrupted(t *testing.T) {
	cwd := t.TempDir()
	cmd := exec.Command(builtBinary(t), "debate", "--topic", "Should we adopt GraphQL", "--rounds", "3", "--cwd", cwd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() && !strings.Contains(sc.Text(), "saving the debate in room") {
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("a debate interrupted: %v, want exit 130", err)
	}
}
