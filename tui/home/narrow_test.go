package home

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/tui/internal/fidelity"
	"github.com/roundtable-dev/roundtable/tui/internal/keytest"
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

// TestSmallScreens: at 60×20 and 80×24 the key bar shows the home
// screen's main keys, and ? shows every key, none cut off.
func TestSmallScreens(t *testing.T) {
	cwd := sampleRooms(t)
	for _, sz := range []struct{ w, h int }{{60, 20}, {80, 24}} {
		m := loaded(t, cwd, sz.w, sz.h)
		v := plain(m.View())
		if lines := strings.Split(v, "\n"); len(lines) != sz.h {
			t.Errorf("%dx%d: %d lines", sz.w, sz.h, len(lines))
		}
		keytest.KeyBar(t, v, "enter open", "n new debate", "m MCP room", "? help", "q quit")
		golden(t, fmt.Sprintf("rooms-%dx%d", sz.w, sz.h), folderless(v))
		m, _ = m.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
		v = plain(m.View())
		for _, g := range m.keys.FullHelp() {
			for _, b := range g {
				h := b.Help()
				if re := regexp.MustCompile(regexp.QuoteMeta(h.Key) + ` +` + regexp.QuoteMeta(h.Desc)); b.Enabled() && !re.MatchString(v) {
					t.Errorf("%dx%d: the help lacks %q:\n%s", sz.w, sz.h, h.Key+" "+h.Desc, v)
				}
			}
		}
		golden(t, fmt.Sprintf("help-%dx%d", sz.w, sz.h), folderless(v))
	}
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
