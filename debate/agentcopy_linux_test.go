package debate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

// TestAgentWorksOnACopy: a command agent that may only read works on a
// copy (its session's folder, and the paths it names, are the copy's),
// says so in its first turn, and the copy goes when it stops; allowed to
// write, it works in place.
func TestAgentWorksOnACopy(t *testing.T) {
	steps := []acpagent.Step{{Tool: &acpagent.Tool{Kind: "read", Path: "ROOT/f.txt"}}, {Say: "ok"}}
	for _, tc := range []struct {
		name  string
		tools AgentTools
	}{{"read-only", 0}, {"write", AllowWrite}} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScripted(t, acpagent.Script{Turns: []acpagent.Turn{{Steps: steps}}}, tc.tools)
			write(t, filepath.Join(sc.cwd, "f.txt"), "f")
			before := treeHash(t, sc.cwd)
			var all []Activity
			for range 2 {
				_, acts, err := sc.speak(context.Background(), "A", nil)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, acts...)
			}
			var cwd string
			for _, r := range acpagent.Records(t, sc.record) {
				if c, ok := r["cwd"].(string); ok {
					cwd = c
				}
			}
			want := []Activity{{Kind: ActivityTool, Text: "reading f.txt"}, {Kind: ActivityTool, Text: "reading f.txt"}}
			if tc.tools == 0 {
				if cwd == sc.cwd {
					t.Fatal("the agent works in the user's folder")
				}
				if data, _ := os.ReadFile(filepath.Join(cwd, "f.txt")); string(data) != "f" {
					t.Errorf("f.txt in the copy: %q", data)
				}
				want = append([]Activity{{Kind: ActivityNote, Text: copyNote}}, want...)
			} else if cwd != sc.cwd {
				t.Fatalf("allowed to write, the agent works in %s, not %s", cwd, sc.cwd)
			}
			if fmt.Sprint(all) != fmt.Sprint(want) {
				t.Errorf("activity %v, want %v", all, want)
			}
			if err := sc.p.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(cwd); tc.tools == 0 && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the copy %s is still there after Close: %v", cwd, err)
			}
			if treeHash(t, sc.cwd) != before {
				t.Error("the user's folder changed")
			}
		})
	}
}
