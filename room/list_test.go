package room

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeJSONFile(t *testing.T, path string, v any) {
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

// listRoom writes a room with fixed times: created, its messages (seat,
// round, time) and, when reason is set, closed.json.
func listRoom(t *testing.T, cwd string, cfg Config, created time.Time, msgs []Message, reason string, closedAt time.Time) {
	t.Helper()
	dir := Dir(cwd, cfg.Room)
	cfg.CreatedAt = created.Format(TimeLayout)
	writeJSONFile(t, filepath.Join(dir, "room.json"), cfg)
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, m := range msgs {
		m.Seq = i + 1
		writeJSONFile(t, filepath.Join(dir, "messages", fmt.Sprintf("%04d-%d-abcdef.json", m.Seq, m.Time().UnixMilli())), m)
	}
	if reason != "" {
		writeJSONFile(t, filepath.Join(dir, "closed.json"), Closed{Reason: reason, SpecPath: cfg.Spec, At: closedAt.Format(TimeLayout)})
	}
}

func TestList(t *testing.T) {
	cwd := t.TempDir()
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return now.Add(-d).Format(TimeLayout) }
	listRoom(t, cwd, Config{Room: "mcp-open", Topic: "cache", Budget: 12}, now.Add(-2*time.Hour), []Message{
		{At: at(90 * time.Minute), Seat: SeatLead, Kind: "brief", Text: "b"},
		{At: at(5 * time.Minute), Seat: SeatPeer, Kind: "answer", Text: "a"},
		{At: at(4 * time.Minute), Seat: SeatLead, Kind: "concession", Text: "c"},
	}, "", time.Time{})
	listRoom(t, cwd, Config{Room: "debate-done", Topic: "graphql", Budget: 1, Mode: ModeDebate, Rounds: 2}, now.Add(-30*time.Hour), []Message{
		{At: at(29 * time.Hour), Seat: "PM", Text: "x", Round: 1},
		{At: at(28 * time.Hour), Seat: "PM", Text: "y", Round: 2},
		{At: at(28 * time.Hour), Seat: SeatModerator, Kind: KindSummary, Text: "v"},
	}, "complete", now.Add(-27*time.Hour))
	listRoom(t, cwd, Config{Room: "mcp-closed", Topic: "old", Budget: 4}, now.Add(-40*24*time.Hour), nil, "agreement reached", now.Add(-39*24*time.Hour))
	// Not rooms: a folder without room.json, a name the store refuses, a file.
	for _, p := range []string{"no-room-json/messages", "bad name"} {
		if err := os.MkdirAll(filepath.Join(cwd, Folder, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(cwd, Folder, "a-file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// A room whose room.json does not parse, and one with a bad message.
	writeJSONFile(t, filepath.Join(cwd, Folder, "broken", "messages", ".keep"), nil)
	if err := os.WriteFile(filepath.Join(cwd, Folder, "broken", "room.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A room that cannot be read is dated by its folder.
	if err := os.Chtimes(Dir(cwd, "broken"), now.Add(-3*time.Hour), now.Add(-3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	listRoom(t, cwd, Config{Room: "skips", Topic: "t", Budget: 2}, now.Add(-50*24*time.Hour), nil, "", time.Time{})
	if err := os.WriteFile(filepath.Join(cwd, Folder, "skips", "messages", "0001-1-abcdef.json"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}

	got, err := List(cwd)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	if want := "mcp-open broken debate-done mcp-closed skips"; strings.Join(names, " ") != want {
		t.Fatalf("rooms in order %v, want %s", names, want)
	}
	byName := map[string]Summary{}
	for _, s := range got {
		byName[s.Name] = s
	}
	checks := []struct {
		name                   string
		debate, closed         bool
		reason                 string
		used, budget, messages int
		last                   time.Time
	}{
		{"mcp-open", false, false, "", 2, 12, 3, now.Add(-4 * time.Minute)},
		{"debate-done", true, true, "complete", 2, 2, 3, now.Add(-27 * time.Hour)},
		{"mcp-closed", false, true, "agreement reached", 0, 4, 0, now.Add(-39 * 24 * time.Hour)},
	}
	for _, c := range checks {
		s := byName[c.name]
		if s.Debate != c.debate || s.Closed != c.closed || s.Reason != c.reason || s.Used != c.used || s.Budget != c.budget || s.Messages != c.messages || !s.Last.Equal(c.last) || s.Err != nil {
			t.Errorf("%s: %+v", c.name, s)
		}
	}
	if s := byName["broken"]; s.Err == nil || !strings.Contains(s.Err.Error(), "not valid JSON") || s.Last.IsZero() {
		t.Errorf("broken room: %+v", s)
	}
	if s := byName["skips"]; s.Skipped != 1 || s.Err != nil {
		t.Errorf("room with a bad message file: %+v", s)
	}

	if rooms, err := List(t.TempDir()); err != nil || len(rooms) != 0 {
		t.Fatalf("no .roundtable: %v %v", rooms, err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, Folder), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := List(other); err == nil || !strings.Contains(err.Error(), "list the rooms") {
		t.Errorf("List with a file for .roundtable: %v", err)
	}
}

func TestSpecFor(t *testing.T) {
	cfg := Config{Room: "r", Spec: "docs/r.md"}
	tests := []struct {
		closed *Closed
		want   string
	}{
		{nil, "docs/r.md"},
		{&Closed{Reason: "x"}, "docs/r.md"},
		{&Closed{SpecPath: "plans/final.md"}, "plans/final.md"},
		{&Closed{SpecPath: "../../etc/passwd"}, "SPEC-r.md"},
		{&Closed{SpecPath: "/etc/passwd"}, "SPEC-r.md"},
	}
	for _, tt := range tests {
		if got := SpecFor(cfg, tt.closed); got != tt.want {
			t.Errorf("SpecFor(%+v) = %q, want %q", tt.closed, got, tt.want)
		}
	}
}
