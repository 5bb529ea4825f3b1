package forms

import (
	"testing"

	gold "github.com/roundtable-dev/roundtable/tui/internal/golden"
)

// plain is a view without its colours, as golden files keep it.
func plain(s string) string { return gold.Plain(s) }

// golden compares got with testdata/<Test>/<name>.golden (go test -update
// rewrites it).
func golden(t *testing.T, name, got string) {
	t.Helper()
	gold.Check(t, name, got)
}

// normalize replaces the test's temporary folder with /cwd.
func normalize(view, dir string) string { return gold.Normalize(view, dir) }

// fixedDir is a test folder whose path has the same length on every run.
func fixedDir(t *testing.T) string { return gold.Dir(t) }
