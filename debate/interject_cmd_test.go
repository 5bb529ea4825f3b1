package debate

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestCommandInterjectFrom runs the built binary with --interject-from
// (a file, and - for stdin, also implied by --pause-between-rounds): the
// notes come out as note events and are saved in the room; a missing file
// is a usage error that creates nothing.
func TestCommandInterjectFrom(t *testing.T) {
	bin := buildBinary(t)
	env := cleanEnv(t)
	cases := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"file", []string{"--interject-from", "notes.txt"}, ""},
		{"stdin", []string{"--interject-from", "-"}, "Mind the mobile clients\n\nAnd the cost\n"},
		{"pause reads stdin", []string{"--pause-between-rounds"}, "Mind the mobile clients\n\nAnd the cost\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cwd := t.TempDir()
			if err := os.WriteFile(filepath.Join(cwd, "notes.txt"), []byte("Mind the mobile clients\n\nAnd the cost\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"debate", "--topic", "Adopt GraphQL", "--rounds", "3", "--format", "jsonl", "--fast", "--room", "gql"}, c.args...)
			cmd := exec.Command(bin, args...)
			cmd.Dir, cmd.Env = cwd, env
			cmd.Stdin = strings.NewReader(c.stdin)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\n%s", err, errOut.String())
			}
			if n := strings.Count(out.String(), `{"event":"note","data":{"round":`); n != 2 {
				t.Fatalf("%d note events in\n%s", n, out.String())
			}
			if !strings.Contains(out.String(), `"from":"user","text":"Mind the mobile clients"`) {
				t.Fatalf("the first note is missing:\n%s", out.String())
			}
			r, err := room.Open(cwd, "gql")
			if err != nil {
				t.Fatal(err)
			}
			st, _ := r.State()
			if len(st.Notes) != 2 || st.Notes[0].Round != 1 || st.Notes[1].Round != 3 || st.Notes[1].Text != "And the cost" {
				t.Fatalf("room notes %+v", st.Notes)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		cwd := t.TempDir()
		cmd := exec.Command(bin, "debate", "--topic", "t", "--fast", "--interject-from", "nope.txt")
		cmd.Dir, cmd.Env = cwd, env
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		err := cmd.Run()
		if exitCode(err) != 2 || !strings.Contains(errOut.String(), "--interject-from nope.txt cannot be read") {
			t.Fatalf("exit %d: %s", exitCode(err), errOut.String())
		}
		if _, err := os.Stat(filepath.Join(cwd, room.Folder)); err == nil {
			t.Fatal("a usage error created rooms")
		}
	})
}
