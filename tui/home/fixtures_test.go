package home

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// fixedNow is the clock of the test screens.
var fixedNow = time.Date(2026, 11, 30, 14, 20, 0, 0, time.UTC)

type fixtureMsg struct {
	seat, kind, text string
	round            int
	ago              time.Duration
}

type fixture struct {
	name     string
	cfg      room.Config
	created  time.Duration // before fixedNow
	msgs     []fixtureMsg
	closed   string // reason; empty: open
	closedAt time.Duration
}

// writeJSON writes v as a room file.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeRoom writes a room in the store's format with fixed times.
func writeRoom(t *testing.T, cwd string, f fixture) {
	t.Helper()
	dir := filepath.Join(cwd, room.Folder, f.name)
	cfg := f.cfg
	cfg.Room = f.name
	cfg.CreatedAt = fixedNow.Add(-f.created).Format(room.TimeLayout)
	writeJSON(t, filepath.Join(dir, "room.json"), cfg)
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, m := range f.msgs {
		at := fixedNow.Add(-m.ago)
		msg := room.Message{Seq: i + 1, At: at.Format(room.TimeLayout), Seat: m.seat, Agent: "mock", Kind: m.kind, Text: m.text, Round: m.round}
		writeJSON(t, filepath.Join(dir, "messages", fmt.Sprintf("%04d-%d-abcdef.json", i+1, at.UnixMilli())), msg)
	}
	if f.closed != "" {
		writeJSON(t, filepath.Join(dir, "closed.json"), room.Closed{Reason: f.closed, SpecPath: cfg.Spec, At: fixedNow.Add(-f.closedAt).Format(room.TimeLayout)})
	}
}

// sampleRooms writes four rooms of every kind into a new folder.
func sampleRooms(t *testing.T) string {
	t.Helper()
	cwd := t.TempDir()
	agents := []string{"Product Manager", "Software Architect"}
	writeRoom(t, cwd, fixture{
		name: "cache-design", cfg: room.Config{Topic: "Should the cache be write-through", Budget: 12, Spec: "SPEC-cache-design.md"},
		created: 2 * time.Hour,
		msgs: []fixtureMsg{
			{seat: "lead", kind: "brief", text: "brief", ago: 90 * time.Minute},
			{seat: "peer", kind: "answer", text: "answer", ago: 5 * time.Minute},
		},
	})
	writeRoom(t, cwd, fixture{
		name: "should-we-adopt-graphql-20261129-101500", cfg: room.Config{Topic: "Should we adopt GraphQL", Budget: 2, Spec: "SPEC-x.md", Mode: room.ModeDebate, Agents: agents, Rounds: 2},
		created: 28 * time.Hour,
		msgs: []fixtureMsg{
			{seat: agents[0], kind: "turn", text: "a", round: 1, ago: 28 * time.Hour},
			{seat: agents[1], kind: "turn", text: "b", round: 1, ago: 28 * time.Hour},
			{seat: agents[0], kind: "turn", text: "c", round: 2, ago: 28 * time.Hour},
			{seat: agents[1], kind: "turn", text: "d", round: 2, ago: 28 * time.Hour},
			{seat: "moderator", kind: "summary", text: "**Decision:** yes", round: 2, ago: 28 * time.Hour},
		},
		closed: "complete", closedAt: 28 * time.Hour,
	})
	writeRoom(t, cwd, fixture{
		name: "move-to-kubernetes-20261130-140000", cfg: room.Config{Topic: "Move to \x1b[31mKubernetes\x1b[0m", Budget: 3, Spec: "SPEC-y.md", Mode: room.ModeDebate, Agents: agents, Rounds: 3},
		created: 20 * time.Minute,
		msgs: []fixtureMsg{
			{seat: agents[0], kind: "incomplete", text: "a *[incomplete: cancelled]*", round: 1, ago: 19 * time.Minute},
		},
		closed: "cancelled", closedAt: 19 * time.Minute,
	})
	writeRoom(t, cwd, fixture{
		name: "old-room", cfg: room.Config{Topic: "An old decision", Budget: 4, Spec: "SPEC-old-room.md"},
		created: 40 * 24 * time.Hour, closed: "agreement reached", closedAt: 39 * 24 * time.Hour,
	})
	// Not rooms: a folder without room.json, a file, a bad name.
	if err := os.MkdirAll(filepath.Join(cwd, room.Folder, "not-a-room"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, room.Folder, ".gitignore"), []byte("*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return cwd
}

func roomCfg(topic string) room.Config {
	return room.Config{Topic: topic, Budget: 6, Spec: "SPEC.md"}
}
