package transcript

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// goldenBeacon is the address the hostile room of the golden files tries to
// reach; the browser test uses a live server's address instead.
const goldenBeacon = "http://127.0.0.1:9"

// hostilePayload and hostileTexts are the shared hostile corpus.
var (
	hostilePayload = roomtest.HostilePayload
	hostileTexts   = roomtest.HostileTexts
)

// hostileRoom is a room whose every field is an attack: the topic, agent
// labels, kinds, seats, server.log labels, file names, the close reason and
// the spec path.
func hostileRoom(t *testing.T, beacon string) *room.Room {
	t.Helper()
	p := func(tag string) string { return hostilePayload(beacon, tag) }
	cfg := room.Config{
		Room:      "../../../escape",
		Topic:     "</title><script>" + p("topic") + "</script>\x1b]0;pwned\x07",
		Budget:    99,
		Spec:      "SPEC-hostile.md",
		CreatedAt: at(0),
	}
	var msgs []fileMsg
	for i, text := range hostileTexts(beacon) {
		seat, kind := room.SeatLead, "brief"
		if i%2 == 1 {
			seat, kind = room.SeatPeer, "objection"
		}
		msgs = append(msgs, fileMsg{Seq: i + 1, At: at(float64(i)), Seat: seat, Agent: "codex", Kind: kind, Text: text})
	}
	n := len(msgs)
	msgs = append(msgs,
		fileMsg{
			Seq: n + 1, At: at(float64(n)), Seat: `"><script>` + p("seat") + `</script>`, Agent: `<img src=x onerror="` + p("agent") + `">`,
			Kind: `" onmouseover="` + p("kind"), Text: "seat, agent and kind are attacks",
		},
		fileMsg{
			Seq: n + 2, At: `"><script>` + p("at") + `</script>`, Seat: room.SeatLead, Agent: "\x1b[2J\x1b[Hclear", Kind: "brief\nsecond line",
			Text: "my time is an attack",
		},
	)
	extra := map[string]string{
		"server.log": "2026-11-30T09:00:00.000Z connect seat=lead agent=\"<svg onload=alert(1)>\\u001b[31m\" pid=1\n" +
			"2026-11-30T09:00:00.100Z connect seat=peer agent=codex pid=2\n",
		"messages/9999-1-<svg onload=alert(1)>.json": "not json <script>alert(1)</script>",
		"closed.json": "{\"reason\": \"<script>" + p("reason") + "</script>\\u001b]52;c;eA==\\u0007\", " +
			"\"specPath\": \"javascript:alert(1)\", \"at\": \"" + at(60) + "\"}\n",
	}
	return writeRoom(t, "hostile", cfg, msgs, extra)
}

// hostileMessageCount is how many messages hostileRoom holds.
func hostileMessageCount() int { return len(hostileTexts(goldenBeacon)) + 2 }

func TestHostileRoomHasEveryAttack(t *testing.T) {
	// The corpus itself is what the other tests trust; check it carries
	// what the issue lists, so that nobody trims it by accident.
	all := strings.Join(hostileTexts(goldenBeacon), "\n")
	for _, want := range []string{"<script>", "onerror=", "onload=", "javascript:", "data:", "<iframe", "<svg onload", "<style>", "<link ", "<!--", "</body></html>", "\x1b[", "\x1b]52;"} {
		if !strings.Contains(all, want) {
			t.Errorf("the hostile corpus lacks %q", want)
		}
	}
}
