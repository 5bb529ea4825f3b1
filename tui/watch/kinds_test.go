package watch

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestAnyKindShown: the lead conceding, a label of the agent's own and a
// paragraph-long kind from another server each show on the message's
// header line, in the muted style of every kind: on one line, its escape
// sequence as visible text, cut with "…" only where the screen ends.
func TestAnyKindShown(t *testing.T) {
	cwd := t.TempDir()
	hostile := "line one\nline two \x1b[2J " + strings.Repeat("very long kind ", 20)
	writeRoom(t, cwd, "kinds", room.Config{Room: "kinds", Topic: "Kinds", Budget: 4, Spec: "SPEC-kinds.md", CreatedAt: at(-5)}, []fileMsg{
		{1, at(0), "lead", "opus-5", "concession", "The lead concedes.", 0},
		{2, at(10), "peer", "codex", "counter-proposal", "A label of its own.", 0},
		{3, at(20), "lead", "opus-5", hostile, "A kind from another server.", 0},
	}, nil)
	for _, w := range []int{60, 100} {
		m := openModel(t, cwd, "kinds", w, 40)
		view := plain(m)
		for _, want := range []string{"concession", "counter-proposal", "line one line two ␛[2J very long"} {
			if !strings.Contains(view, want) {
				t.Errorf("width %d: kind %q not shown:\n%s", w, want, view)
			}
		}
		if strings.Contains(m.View(), "\x1b[2J") || !regexp.MustCompile(`very long[^\n]*… #3 · `).MatchString(view) {
			t.Errorf("width %d: the long kind is not shown up to the edge:\n%s", w, view)
		}
		for _, line := range strings.Split(view, "\n") {
			if (strings.Contains(line, "opus-5") || strings.Contains(line, "codex")) && width(line) > w {
				t.Errorf("width %d: line of %d cells: %q", w, width(line), line)
			}
		}
		// The kind is muted like every kind: a known and an unknown one
		// look alike.
		if got, want := styledAs(m, "counter-proposal"), styledAs(m, "concession"); got == "" || got != want {
			t.Errorf("width %d: the new kind is styled %q, a known one %q", w, got, want)
		}
	}
}

// styledAs is the escape sequence just before word in the view.
func styledAs(m Model, word string) string {
	v := m.View()
	i := strings.Index(v, word)
	if i < 0 {
		return ""
	}
	j := strings.LastIndex(v[:i], "\x1b[")
	if j < 0 {
		return ""
	}
	return v[j:i]
}

// TestSpecTooLarge: a spec over the store's limit is not read; the screen
// says how large it is and to open it in an editor.
func TestSpecTooLarge(t *testing.T) {
	cwd, name := closedMCPRoom(t)
	if err := os.WriteFile(filepath.Join(cwd, "SPEC-retry-policy.md"), make([]byte, room.MaxSpecBytes+1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	m := openModel(t, cwd, name, 100, 24)
	m, cmd := press(m, "s")
	m, _ = m.Update(cmd())
	if got := flat(m); !strings.Contains(got, "the spec SPEC-retry-policy.md is 5.0 MiB, too large to show here") || !strings.Contains(got, "open it in an editor") {
		t.Errorf("no sentence for a large spec:\n%s", plain(m))
	}
}
