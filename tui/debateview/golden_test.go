package debateview

import (
	"testing"

	"github.com/roundtable-dev/roundtable/tui/internal/fidelity"
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

// narrow checks m's screen at width w (gold.Narrow): every line fits, a
// name cut at the edge ends in "…", and the hints keep q's.
func narrow(t *testing.T, m Model, w int) {
	t.Helper()
	q := m.keys.Quit.Help()
	fidelity.Narrow(t, m.View(), w, q.Key+" "+q.Desc, panel...)
}
