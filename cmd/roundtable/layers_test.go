package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPackagesDependOneWay holds the layering of the packages: cmd → tui
// → debate → room → prompts, and nothing under debate/ reaching the seat
// server (room/mcpserver) or the host that serves it (room/host), which
// the web face's engine part (debate/webengine) must not pull in.
func TestPackagesDependOneWay(t *testing.T) {
	const mod = "github.com/roundtable-dev/roundtable/"
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "../../...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	layer := func(p string) string {
		p = strings.TrimPrefix(p, mod)
		top, _, _ := strings.Cut(p, "/")
		return top
	}
	rank := map[string]int{"prompts": 0, "room": 1, "debate": 2, "tui": 3, "cmd": 4}
	seen := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], mod) {
			continue
		}
		seen++
		from := strings.TrimPrefix(fields[0], mod)
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			to := strings.TrimPrefix(imp, mod)
			if rank[layer(imp)] > rank[layer(fields[0])] {
				t.Errorf("%s imports %s: packages depend cmd → tui → debate → room → prompts", from, to)
			}
			if layer(fields[0]) == "debate" && (to == "room/mcpserver" || to == "room/host") {
				t.Errorf("%s imports %s: nothing under debate/ imports the seat server or the host", from, to)
			}
		}
	}
	deps, err := exec.Command("go", "list", "-deps", "../../debate/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, deps)
	}
	for p := range strings.FieldsSeq(string(deps)) {
		if p == mod+"room/mcpserver" || p == mod+"room/host" {
			t.Errorf("a package under debate/ depends on %s (go list -deps ./debate/...)", strings.TrimPrefix(p, mod))
		}
	}
	if seen < 10 {
		t.Fatalf("go list named %d of our packages; the test reads nothing:\n%s", seen, out)
	}
}
