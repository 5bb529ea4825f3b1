package home

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

func TestList(t *testing.T) {
	cwd := sampleRooms(t)
	rooms, err := List(cwd)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rooms {
		names = append(names, r.Name)
	}
	want := "cache-design move-to-kubernetes-20261130-140000 should-we-adopt-graphql-20261129-101500 old-room"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("rooms newest first = %s\nwant %s", got, want)
	}
	checks := []struct {
		i                      int
		mode, status           string
		used, budget, messages int
		last                   time.Duration
	}{
		{0, ModeMCP, "open", 1, 12, 2, 5 * time.Minute},
		{1, ModeDebate, "stopped", 1, 3, 1, 19 * time.Minute},
		{2, ModeDebate, "done", 2, 2, 5, 28 * time.Hour},
		{3, ModeMCP, "closed", 0, 4, 0, 39 * 24 * time.Hour},
	}
	for _, c := range checks {
		r := rooms[c.i]
		if r.Mode != c.mode || r.Status() != c.status || r.Used != c.used || r.Budget != c.budget || r.Messages != c.messages {
			t.Errorf("%s: mode %s status %s rounds %d/%d messages %d", r.Name, r.Mode, r.Status(), r.Used, r.Budget, r.Messages)
		}
		if !r.Last.Equal(fixedNow.Add(-c.last).Truncate(time.Millisecond)) {
			t.Errorf("%s: last activity %s, want %s", r.Name, r.Last, fixedNow.Add(-c.last))
		}
	}
}

func TestListBadRooms(t *testing.T) {
	cwd := t.TempDir()
	if rooms, err := List(cwd); err != nil || len(rooms) != 0 {
		t.Fatalf("no .roundtable: %v %v", rooms, err)
	}
	dir := filepath.Join(cwd, room.Folder, "broken")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "room.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	rooms, err := List(cwd)
	if err != nil || len(rooms) != 1 {
		t.Fatalf("rooms %v err %v", rooms, err)
	}
	if rooms[0].Err == "" || !strings.Contains(rooms[0].Err, "not valid JSON") {
		t.Errorf("a broken room.json is not reported: %+v", rooms[0])
	}
	// A file where .roundtable should be is an error, said plainly.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, room.Folder), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := List(other); err == nil || !strings.Contains(err.Error(), "list the rooms") {
		t.Errorf("List on a file: %v", err)
	}
}

func TestAgo(t *testing.T) {
	now := fixedNow
	tests := []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "?"},
		{now.Add(-10 * time.Second), "just now"},
		{now.Add(time.Minute), "just now"},
		{now.Add(-5 * time.Minute), "5m ago"},
		{now.Add(-3 * time.Hour), "3h ago"},
		{now.Add(-50 * time.Hour), "2d ago"},
		{time.Date(2026, 3, 4, 12, 0, 0, 0, time.Local), "Mar 4"},
		{time.Date(2024, 3, 4, 12, 0, 0, 0, time.Local), "2024-03-04"},
	}
	for _, tt := range tests {
		if got := ago(now, tt.t); got != tt.want {
			t.Errorf("ago(%s) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

func TestRowColumns(t *testing.T) {
	tests := []struct {
		width, longest     int
		name, mode, active int
		topicAtLeast       int
	}{
		{200, 40, 40, 6, 9, 100},
		{120, 38, 38, 6, 9, 20},
		{80, 38, 26, 6, 0, 16},
		{50, 38, 16, 0, 0, 0},
	}
	for _, tt := range tests {
		c := rowColumns(tt.width, tt.longest)
		if c.name != tt.name || c.mode != tt.mode || c.activity != tt.active || c.topic < tt.topicAtLeast {
			t.Errorf("rowColumns(%d, %d) = %+v", tt.width, tt.longest, c)
		}
		used := 2 + c.status + gap + c.name + gap + c.rounds + gap + c.topic
		if c.mode > 0 {
			used += c.mode + gap
		}
		if c.activity > 0 {
			used += c.activity + gap
		}
		if used > tt.width {
			t.Errorf("rowColumns(%d, %d) takes %d cells", tt.width, tt.longest, used)
		}
	}
}

func TestTruncateMiddle(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"short", 10, "short"},
		{"should-we-rewrite-the-billing-service-20261130-155617", 26, "should-we-re…261130-155617"},
		{"abcdef", 4, "abc…"},
	}
	for _, tt := range tests {
		if got := truncateMiddle(tt.in, tt.w); got != tt.want {
			t.Errorf("truncateMiddle(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
}

// TestListAbandonedDebate: an open debate whose process is gone (its run
// lock free) is listed as failed, with a hint saying what enter and R do;
// one whose run lock is held stays open, or paused while its run waits
// between two rounds.
func TestListAbandonedDebate(t *testing.T) {
	cwd := t.TempDir()
	cfg := room.Config{Topic: "Killed mid-turn", Mode: room.ModeDebate, Agents: []string{"A", "B"}, Rounds: 2, Spec: "SPEC.md"}
	writeRoom(t, cwd, fixture{name: "killed", created: time.Hour, cfg: cfg})
	cfg.Topic = "Still running"
	writeRoom(t, cwd, fixture{name: "running", created: time.Hour, cfg: cfg})
	r, err := room.Open(cwd, "running")
	if err != nil {
		t.Fatal(err)
	}
	lock, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = lock.Unlock() }()
	rooms, err := List(cwd)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Room{}
	for _, r := range rooms {
		got[r.Name] = r
	}
	if k := got["killed"]; !k.Abandoned || k.Status() != "failed" {
		t.Errorf("killed: abandoned %v status %s, want failed", k.Abandoned, k.Status())
	}
	if k := got["running"]; k.Abandoned || k.Status() != "open" {
		t.Errorf("running: abandoned %v status %s, want open", k.Abandoned, k.Status())
	}
	// Its run waits between two rounds: the list says so.
	if err := r.SetPaused(1); err != nil {
		t.Fatal(err)
	}
	if rooms, err = List(cwd); err != nil {
		t.Fatal(err)
	}
	for _, rm := range rooms {
		if rm.Name == "running" && rm.Status() != "paused" {
			t.Errorf("running, paused after round 1: status %s, want paused", rm.Status())
		}
	}
	if err := r.ClearPaused(); err != nil {
		t.Fatal(err)
	}
	m := loaded(t, cwd, 140, 20)
	for i, idx := range m.shown {
		if m.rooms[idx].Name == "killed" {
			m.cursor = i
		}
	}
	if h := m.hint(); !strings.Contains(h, "ended without closing") || !strings.Contains(h, "R goes on") {
		t.Errorf("hint on the killed debate: %q", h)
	}
}
