// Package golden compares screens with golden files for the TUI packages'
// tests: testdata/<Test>/<name>.golden, rewritten with `go test -update`.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Plain is a view without its colours, as golden files keep it.
func Plain(s string) string { return ansi.Strip(s) }

// Check compares got with testdata/<Test>/<name>.golden, or writes it with
// -update. Lines keep their trailing spaces: the width is part of what is
// checked.
func Check(t testing.TB, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", strings.Split(t.Name(), "/")[0], name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s (run go test -update to create it): %v", path, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}

// Normalize replaces a test's temporary folder with a fixed name; the lines
// that named it lose their trailing padding, whose width depended on the
// folder.
func Normalize(view, dir string) string {
	out := strings.ReplaceAll(view, dir, "/cwd")
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "/cwd") {
			l = strings.TrimRight(l, " ")
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// Dir is a new empty folder for a test whose screen shows its path: the
// path has the same length on every run (49 bytes, where t.TempDir's
// random part varies in its number of digits), so text that wraps around
// it wraps the same way before Normalize replaces it with /cwd.
func Dir(tb testing.TB) string {
	tb.Helper()
	base := tb.TempDir()
	dir := filepath.Join(base, strings.Repeat("d", max(1, 49-len(base)-1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}
