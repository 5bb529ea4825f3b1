package transcript

import (
	"bytes"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// TestCouncilSeats: the transcripts of a council name every seat of the
// room in its order, with the mind that held it, the seat nobody took
// (and that never posted) included.
func TestCouncilSeats(t *testing.T) {
	cfg := room.Config{
		Room: "council", Topic: "Five seats", Budget: 3, Spec: "SPEC-council.md", CreatedAt: at(0),
		SeatNames: []string{"lead", "critic", "security", "peer", "ops"},
	}
	msgs := []fileMsg{
		{Seq: 1, At: at(0), Seat: "lead", Agent: "opus-5", Kind: "brief", Text: "The brief."},
		{Seq: 2, At: at(10), Seat: "critic", Agent: "codex", Kind: "objection", Text: "An objection."},
		{Seq: 3, At: at(20), Seat: "security", Agent: "person", Kind: "pass", Text: "Nothing to add."},
	}
	r := writeRoom(t, cfg.Room, cfg, msgs, map[string]string{
		"server.log": "2026-11-30T09:00:00.000Z connect seat=lead agent=opus-5 pid=1\n" +
			"2026-11-30T09:00:01.000Z connect seat=critic agent=codex pid=2\n",
	})
	var md bytes.Buffer
	if err := Markdown(&md, r); err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	if err := HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	for _, out := range []struct{ name, text string }{{"Markdown", md.String()}, {"HTML", html.String()}} {
		last := -1
		for _, seat := range []string{"lead", "critic", "security", "peer", "ops"} {
			i := strings.Index(out.text[max(last, 0):], seat)
			if i < 0 {
				t.Errorf("%s transcript does not name the seat %q after the one before it:\n%s", out.name, seat, out.text)
				continue
			}
			last = max(last, 0) + i
		}
		for _, mind := range []string{"opus-5", "codex", "person"} {
			if !strings.Contains(out.text, mind) {
				t.Errorf("%s transcript does not name the mind %q", out.name, mind)
			}
		}
	}
}
