package watch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
)

// TestLeadComposerKinds: the lead's composer suggests the lead's kinds
// only (not the peer's /objection), and once a kind is typed its title
// names that kind instead of the default and the suggestions.
func TestLeadComposerKinds(t *testing.T) {
	m := leadScreen(t, bigRoom(t, 2), "big", 160, 40)
	if !m.take.comp.IsOpen() {
		t.Fatal("the composer did not open on the lead's turn")
	}
	v := xansi.Strip(m.View())
	if strings.Contains(v, "/objection") {
		t.Fatalf("the lead's composer suggests the peer's /objection:\n%s", v)
	}
	// Round 2 of 2: the lead's last word is its decision.
	if !strings.Contains(v, "kind decision (start with /challenge, /question, /brief") {
		t.Fatalf("no decision as the default kind of the last round in the title:\n%s", v)
	}
	for _, r := range "/question What bounds the memory?" {
		m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	v = xansi.Strip(m.View())
	if !strings.Contains(v, "· kind question") || strings.Contains(v, "kind decision") || strings.Contains(v, "start with /") {
		t.Fatalf("after typing /question the title says:\n%s", v)
	}
}

// TestLeadKindFollowsTheRoom: the lead's default kind is the brief in an
// empty room, a challenge once the seats have spoken, and the decision in
// the last round the budget leaves (before: brief every time).
func TestLeadKindFollowsTheRoom(t *testing.T) {
	for _, c := range []struct {
		msgs, budget int
		want         string
	}{{0, 4, "brief"}, {2, 4, "challenge"}, {4, 4, "challenge"}, {6, 4, "decision"}, {2, 2, "decision"}, {2, 0, "challenge"}} {
		m := Model{}
		m.cfg.Budget = c.budget
		m.st.Messages = make([]room.Message, c.msgs)
		m.st.Round = c.msgs / 2
		got := m.kindsFor(room.SeatLead)
		if got[0] != c.want || len(got) != len(room.LeadKinds) {
			t.Errorf("%d messages, budget %d: kinds %q, want %s first and every lead kind", c.msgs, c.budget, got, c.want)
		}
	}
}

// TestStatusClearOfPosition: at 60 columns a status that wraps keeps the
// scroll position three cells clear of its words, on the first line with
// the room (before: "…the composer opens following · 1–2 of 2", one
// sentence to the eye), and every word of the status is shown.
func TestStatusClearOfPosition(t *testing.T) {
	m := openModel(t, bigRoom(t, 2), "big", 60, 20)
	for _, status := range []string{
		"you play the lead: the composer opens on your turn; q gives the seat up",
		"short",
		strings.Repeat("word ", 30),
	} {
		m.setStatus(status, true)
		m, _ = m.Update(tea.WindowSizeMsg{Width: 60, Height: 40}) // lays the frame out again; both messages in view: "1–2 of 2"
		lines := strings.Split(xansi.Strip(m.View()), "\n")
		n := len(m.footerText().status)
		end := len(lines) - m.helpHeight()
		shown := lines[end-n : end]
		var words []string
		found := false
		for _, l := range shown {
			if i := strings.Index(l, "following · "); i >= 0 {
				found = true
				if before := l[:i]; strings.TrimSpace(before) != "" && !strings.HasSuffix(before, "   ") {
					t.Errorf("status %q: the position is not clear of it: %q", status, l)
				}
				l = l[:i]
			}
			words = append(words, strings.Fields(l)...)
		}
		if !found {
			t.Errorf("status %q: no position beside it:\n%s", status, strings.Join(shown, "\n"))
		}
		if got, want := strings.Join(words, " "), strings.Join(strings.Fields(status), " "); got != want {
			t.Errorf("status %q: shown as %q", status, got)
		}
	}
}

// TestLeadPostsTheKindItsTitleNames: a post with no kind typed is of the
// kind the composer's title names (a challenge in round 2 of 4), not the
// room's default for the lead (brief).
func TestLeadPostsTheKindItsTitleNames(t *testing.T) {
	cwd := seatRoom(t, "kinds", 4, append(slices.Clone(brief), fileMsg{2, at(20), "peer", "codex", "answer", "Yes, with a flag.", 0}))
	if err := os.Remove(filepath.Join(room.Dir(cwd, "kinds"), room.LogFile)); err != nil {
		t.Fatal(err) // the lead is nobody's: the person takes it
	}
	m := leadScreen(t, cwd, "kinds", 100, 30)
	if !m.take.comp.IsOpen() || !strings.Contains(flat(m), "Your turn as lead · round 2 · kind challenge") {
		t.Fatalf("the composer's title:\n%s", plain(m))
	}
	m, _ = typeText(m, "What does the p99 look like?")
	m, cmd := press(m, "enter")
	m, _ = m.Update(await[postedMsg](t, cmd))
	st, err := m.room.Refresh()
	if err != nil || m.status != "posted" {
		t.Fatalf("status %q, %v", m.status, err)
	}
	if last := st.Messages[len(st.Messages)-1]; last.Seat != room.SeatLead || last.Kind != "challenge" || last.Text != "What does the p99 look like?" {
		t.Fatalf("posted %+v; want the lead's challenge", last)
	}
}

// leadScreen is the watch screen on room name with its lead taken by the
// person, opened at width×height; it is closed when the test ends.
func leadScreen(t testing.TB, cwd, name string, width, height int) Model {
	t.Helper()
	p, err := TakeSeat(cwd, name, "lead")
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(Options{Cwd: cwd, Room: name, ExportDir: cwd, Dark: true, Location: time.UTC, Person: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	m, _ = m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	m, _ = m.Update(openCmd(m.id, m.sess, m.cwd, name, phaseOpening)())
	return m
}
