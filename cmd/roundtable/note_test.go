package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

var (
	noteBinOnce sync.Once
	noteBin     string
	noteBinErr  error
)

// builtBinary builds this command once for the tests that run it as a
// separate process.
func builtBinary(t *testing.T) string {
	t.Helper()
	noteBinOnce.Do(func() {
		dir, err := filepath.Abs(filepath.Join("..", "..", ".bin"))
		if err != nil {
			noteBinErr = err
			return
		}
		noteBin = filepath.Join(dir, "roundtable-notetest")
		if out, err := exec.Command("go", "build", "-o", noteBin, ".").CombinedOutput(); err != nil {
			noteBinErr = errors.New(string(out))
		}
	})
	if noteBinErr != nil {
		t.Fatalf("go build: %v", noteBinErr)
	}
	return noteBin
}

// runBin runs the binary with stdin and returns stdout, stderr and the
// exit code.
func runBin(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(builtBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	default:
		t.Fatal(err)
		return "", "", -1
	}
}

// TestNoteCommand sends notes to a room through the real binary, from
// arguments and from stdin: each is saved from the host, numbered, and
// changes neither round nor turn.
func TestNoteCommand(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "steer", room.CreateOptions{Topic: "t", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "a", Text: "brief"}); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runBin(t, "", "note", "--room", "steer", "--cwd", cwd, "Prefer", "the simple design.")
	if code != 0 || !strings.Contains(out, "note 1 sent to room steer") {
		t.Fatalf("note from arguments: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	out, stderr, code = runBin(t, "Read `cache.go` first.\nThen answer.\n", "note", "--room", "steer", "--cwd", cwd, "-")
	if code != 0 || !strings.Contains(out, "note 2 sent") {
		t.Fatalf("note from stdin: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Notes) != 2 || st.Notes[0].Text != "Prefer the simple design." || st.Notes[1].Text != "Read `cache.go` first.\nThen answer.\n" {
		t.Fatalf("notes %+v", st.Notes)
	}
	for _, n := range st.Notes {
		if n.From != room.NoteFromHost || n.AfterSeq != 1 {
			t.Fatalf("note %+v: want from host, after message 1", n)
		}
	}
	if st.Round != 1 || st.Turn != room.SeatPeer || len(st.Messages) != 1 {
		t.Fatalf("notes changed the room: round %d turn %s messages %d", st.Round, st.Turn, len(st.Messages))
	}
}

// TestNoteCommandRefusals: every wrong use says what went wrong and what to
// do, exits 2 (a wrong command line, or a note the room refuses before
// anything is written: the exit-code policy) and writes nothing.
func TestNoteCommandRefusals(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "open", room.CreateOptions{Topic: "t", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	closed, _, err := room.Create(cwd, "done", room.CreateOptions{Topic: "t", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := closed.Close(room.CloseOptions{Reason: "agreement reached"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := room.Create(cwd, "panel", room.CreateOptions{Topic: "t", Budget: 2, Mode: room.ModeDebate}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"no such room", "", []string{"--room", "nope", "hi"}, 2, `no room "nope"`},
		{"closed room", "", []string{"--room", "done", "hi"}, 2, "is closed (agreement reached) and takes no more notes"},
		{"empty text", "", []string{"--room", "open", "  "}, 2, "the note is empty"},
		{"empty stdin", "\n\n", []string{"--room", "open", "-"}, 2, "the note is empty"},
		{"too large", strings.Repeat("x", room.MaxTextBytes+1), []string{"--room", "open", "-"}, 2, "over the 256 KiB limit"},
		{"debate room", "", []string{"--room", "panel", "hi"}, 2, "persona debate"},
		{"no text", "", []string{"--room", "open"}, 2, "missing the note"},
		{"no room flag", "", []string{"hi"}, 2, "missing --room"},
		{"bad room name", "", []string{"--room", "../x", "hi"}, 2, "room name"},
		{"missing cwd", "", []string{"--room", "open", "--cwd", filepath.Join(cwd, "nope"), "hi"}, 2, "is not an existing folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"note", "--cwd", cwd}, c.args...)
			out, stderr, code := runBin(t, c.stdin, args...)
			if code != c.code || !strings.Contains(stderr, c.want) || out != "" {
				t.Fatalf("exit %d stdout %q stderr %q; want exit %d and %q", code, out, stderr, c.code, c.want)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
				t.Fatalf("more than a sentence (and the help pointer): %q", stderr)
			}
			// A closed room is its state, not the command line: no help
			// pointer after its sentence.
			if help := strings.Contains(stderr, "--help"); help == (c.name == "closed room") {
				t.Fatalf("the help pointer shown %v: %q", help, stderr)
			}
		})
	}
	for _, name := range []string{"open", "done", "panel"} {
		r, err := room.Open(cwd, name)
		if err != nil {
			t.Fatal(err)
		}
		if st, err := r.Refresh(); err != nil || len(st.Notes) != 0 {
			t.Fatalf("room %s: a refused note was written: %+v %v", name, st.Notes, err)
		}
	}
}
