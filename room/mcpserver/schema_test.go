package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestToolSchemas snapshots each seat's tools/list: names, descriptions,
// argument schemas and annotations. A change here changes what agents see.
func TestToolSchemas(t *testing.T) {
	cwd := t.TempDir()
	for _, name := range []string{"lead", "peer"} {
		t.Run(name, func(t *testing.T) {
			s := hosttest.StartSeat(t, cwd, "schemas", name)
			res, err := s.Client.ListTools(context.Background(), mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			// No tool of a seat destroys anything (write_spec keeps what
			// it replaces): headless agents run tools not marked
			// destructive without asking (Codex refused write_spec).
			for _, tool := range res.Tools {
				if a := tool.Annotations; a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
					t.Errorf("%s: destructiveHint %v, openWorldHint %v; want both false", tool.Name, a.DestructiveHint, a.OpenWorldHint)
				}
			}
			got, err := json.MarshalIndent(res.Tools, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "TestToolSchemas", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Fatalf("%s tool schemas changed; review and run with -update:\n%s", name, got)
			}
		})
	}
}
