package watch

import (
	"path/filepath"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// The rooms of the golden views. Each builder writes its room under a new
// temporary cwd and returns the cwd and the room's name.

func closedMCPRoom(t testing.TB) (string, string) {
	cwd := t.TempDir()
	msgs := []fileMsg{
		{1, at(0), "lead", "opus-5", "brief", "## Brief\n\nShould `retry` back off **exponentially** or linearly?\n\n- exponential\n- linear", 0},
		{2, at(47), "peer", "codex", "answer", "Exponential, with jitter: linear retries make clients retry in lockstep after an outage.", 0},
		{3, at(94), "lead", "opus-5", "decision", "Decided: exponential with full jitter, capped at 30 s.", 0},
		{4, at(141), "peer", "codex", "concession", "Agreed. I will write the table of delays into the spec.", 0},
	}
	writeRoom(t, cwd, "retry-policy", room.Config{Room: "retry-policy", Topic: "Retry policy for the sync client", Budget: 4, Spec: "SPEC-retry-policy.md", CreatedAt: at(-5)}, msgs, map[string]string{
		"closed.json": string(encode(t, room.Closed{Reason: "agreement reached", SpecPath: "SPEC-retry-policy.md", At: at(200)})),
		"server.log": "2026-11-30T08:59:55.000Z connect seat=lead agent=opus-5 pid=10\n" +
			"2026-11-30T08:59:56.000Z connect seat=peer agent=codex pid=11\n" +
			"2026-11-30T09:03:20.000Z call seat=lead tool=close_room\n" +
			"2026-11-30T09:03:21.000Z disconnect seat=peer pid=11\n" +
			"2026-11-30T09:03:22.000Z disconnect seat=lead pid=10\n",
	})
	writeFile(t, filepath.Join(cwd, "SPEC-retry-policy.md"), []byte("# Retry policy\n\nExponential backoff with full jitter, capped at 30 s.\n"))
	return cwd, "retry-policy"
}

func openMCPRoom(t testing.TB) (string, string) {
	cwd := t.TempDir()
	msgs := []fileMsg{
		{1, at(0), "lead", "opus-5", "brief", "Which **queue** should the indexer use: Redis streams or Postgres `LISTEN/NOTIFY`?", 0},
		{2, at(50), "peer", "codex", "objection", "Neither yet: how many events per second at peak?", 0},
		{3, at(90), "lead", "opus-5", "question", "About 400/s at peak. Also, this text tries \x1b]0;pwned\x07 to set the title and \x1b[2J to clear the screen.", 0},
	}
	writeRoom(t, cwd, "indexer-queue", room.Config{Room: "indexer-queue", Topic: "Queue for the indexer", Budget: 6, Spec: "SPEC-indexer-queue.md", CreatedAt: at(-5)}, msgs, map[string]string{
		"server.log": "2026-11-30T08:59:55.000Z connect seat=lead agent=opus-5 pid=10\n" +
			"2026-11-30T09:01:31.000Z call seat=lead tool=wait_for_message\n" +
			"2026-11-30T09:01:40.000Z connect seat=peer agent=\"codex\\nforged line\" pid=11\n",
	})
	return cwd, "indexer-queue"
}

func debateRoom(t testing.TB) (string, string) {
	cwd := t.TempDir()
	agents := []string{"skeptic", "optimist", "pragmatist"}
	var msgs []fileMsg
	seq := 0
	for round := 1; round <= 2; round++ {
		for _, a := range agents {
			seq++
			msgs = append(msgs, fileMsg{seq, at(float64(seq * 30)), a, "mock-1", "turn", a + " speaks in round " + itoa(round) + ": *a point* worth making.", round})
		}
	}
	seq++
	msgs = append(msgs, fileMsg{seq, at(float64(seq * 30)), "moderator", "mock-1", "summary", "## Verdict\n\nShip it behind a flag; the skeptic's test plan comes first.", 0})
	writeRoom(t, cwd, "ship-it", room.Config{Room: "ship-it", Topic: "Ship the new parser this week?", Spec: "SPEC-ship-it.md", CreatedAt: at(-5), Mode: room.ModeDebate, Agents: agents, Rounds: 2}, msgs, map[string]string{
		"closed.json": string(encode(t, room.Closed{Reason: "complete", At: at(300)})),
	})
	return cwd, "ship-it"
}

func corruptRoom(t testing.TB) (string, string) {
	cwd := t.TempDir()
	msgs := []fileMsg{
		{1, at(0), "lead", "opus-5", "brief", "First, readable.", 0},
		{3, at(60), "peer", "codex", "answer", "Third, readable: the second is broken.", 0},
	}
	writeRoom(t, cwd, "broken", room.Config{Room: "broken", Topic: "A room with bad files", Budget: 3, CreatedAt: at(-5)}, msgs, map[string]string{
		"messages/0002-1796050276320-aaaaaa.json": "{ this is not json",
		"messages/0004-1796050276320-bbbbbb.json": `{"seq": 4, "text": "no seat"}`,
		"messages/.tmp-123":                       "a writer's temporary file",
	})
	return cwd, "broken"
}

func itoa(n int) string { return string(rune('0' + n)) }

// referenceRoom copies a room written by the original TypeScript server.
func referenceRoom(name string) func(t testing.TB) (string, string) {
	return func(t testing.TB) (string, string) {
		return roomtest.CopyTree(t, filepath.Join(roomtest.ReferenceRooms(), name)), name
	}
}
