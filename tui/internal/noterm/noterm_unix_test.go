//go:build unix

package noterm

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestWithoutATerminal: the built binary's watch and tui, started with no
// terminal at all (a new session, stdin from /dev/null), say they need one
// and what to do instead: watch of a room that does not exist points to
// the list of rooms, not to a transcript it cannot give.
func TestWithoutATerminal(t *testing.T) {
	bin := os.Getenv("ROUNDTABLE_BIN")
	if bin == "" {
		dir := t.TempDir()
		bin = dir + "/roundtable"
		build := exec.Command("go", "build", "-o", bin, "github.com/roundtable-dev/roundtable/cmd/roundtable")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
	}
	cwd := t.TempDir()
	if out, err := exec.Command(bin, "seed", "--room", "r", "--topic", "t", "--cwd", cwd).CombinedOutput(); err != nil {
		t.Fatalf("seed: %v %s", err, out)
	}
	for _, c := range []struct {
		args    []string
		instead string
	}{
		{[]string{"watch", "--room", "r", "--cwd", cwd}, "read the room with roundtable transcript --room r"},
		{[]string{"watch", "--room", "nosuch", "--cwd", cwd}, "list the rooms with roundtable rooms: there is no room nosuch yet"},
		{[]string{"tui", "--cwd", cwd}, "run a debate with roundtable debate"},
	} {
		args := c.args
		cmd := exec.Command(bin, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() == 0 {
			t.Fatalf("%v: %v %s", args, err, out)
		}
		if want := "roundtable " + args[0] + " needs a terminal"; !strings.Contains(string(out), want) || strings.Contains(string(out), "bubbletea") {
			t.Fatalf("%v said %q, want %q", args, out, want)
		}
		if !strings.Contains(string(out), c.instead) {
			t.Errorf("%v said %q; want what to do instead, %q", args, out, c.instead)
		}
	}
}
