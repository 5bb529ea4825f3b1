package home

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/tui/internal/fidelity"
)

// TestNarrowView is the home screen at 60 columns: every line fits, a room
// name cut to its column is marked with "…", and the hints keep q's.
func TestNarrowView(t *testing.T) {
	cwd := sampleRooms(t)
	empty := t.TempDir()
	const w, h = 60, 24
	m := loaded(t, cwd, w, h)
	q := m.keys.Quit.Help()
	fidelity.Narrow(t, m.View(), w, q.Key+" "+q.Desc,
		"cache-design", "should-we-adopt-graphql-20261129-101500", "move-to-kubernetes-20261130-140000", "Should the cache be write-through")
	golden(t, "rooms-60x24", folderless(plain(m.View())))
	e := loaded(t, empty, w, h)
	fidelity.Narrow(t, e.View(), w, q.Key+" "+q.Desc)
	golden(t, "empty-60x24", folderless(plain(e.View())))
}

// folderless replaces the folder in the title, which a narrow screen cuts
// at a place that depends on the length of the test's temporary folder.
func folderless(view string) string {
	title, rest, _ := strings.Cut(view, "\n")
	if i := strings.Index(title, " in /"); i >= 0 {
		title = title[:i] + " in <folder>"
	}
	return title + "\n" + rest
}
