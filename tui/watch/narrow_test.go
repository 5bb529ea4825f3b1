package watch

import (
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/fidelity"
)

// TestNarrowScreen: at 60 columns, with names longer than their columns,
// every line fits, each name is whole or cut with "…", and the hints keep
// q's.
func TestNarrowScreen(t *testing.T) {
	const (
		name  = "a-rather-long-room-name-for-testing"
		lead  = "claude-opus-4-with-a-very-long-agent-label"
		peer  = "gpt-5-codex-high-reasoning-long-label"
		topic = "Should we move the billing service to an event-sourced design this quarter"
	)
	cwd := t.TempDir()
	writeRoom(t, cwd, name, room.Config{Room: name, Topic: topic, Budget: 4, CreatedAt: at(0)}, []fileMsg{
		{1, at(1), room.SeatLead, lead, "brief", "hello", 0},
		{2, at(2), room.SeatPeer, peer, "objection", "hi there", 0},
	}, map[string]string{
		"server.log": "2026-11-30T09:00:00.000Z connect seat=lead agent=\"" + lead + "\" pid=1\n" +
			"2026-11-30T09:00:01.000Z connect seat=peer agent=" + peer + " pid=2\n",
	})
	for _, w := range []int{40, 60} {
		m := openModel(t, cwd, name, w, 24)
		q := m.keys.Quit.Help()
		fidelity.Narrow(t, m.View(), w, q.Key+" "+q.Desc, lead, peer, topic, name)
	}
}
