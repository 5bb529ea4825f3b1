package room

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLogCannotBeForged(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 30, 14, 20, 10, 123e6, time.UTC)
	evil := "opus\n2026-11-30T14:20:11.000Z disconnect seat=lead pid=1\x1b[2J"
	if err := AppendLog(dir, at, "connect", F("seat", "lead"), F("agent", evil), F("pid", 42)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, LogFile))
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("one call wrote %d lines:\n%s", len(lines), data)
	}
	if strings.ContainsRune(lines[0], 0x1b) {
		t.Fatal("escape byte written to server.log")
	}
	ll, ok := ParseLogLine(lines[0])
	if !ok || ll.Event != "connect" || ll.Fields["agent"] != evil || ll.Fields["pid"] != "42" {
		t.Fatalf("round trip failed: %+v", ll)
	}
	seats := SeatsFromLog(data)
	if seats[0].State != StateNotStarted || seats[0].Agent != evil {
		t.Fatalf("forged disconnect took effect: %+v", seats[0])
	}
}

func TestSeatsFromReferenceLog(t *testing.T) {
	data, err := os.ReadFile("testdata/reference-rooms/cache-design/.roundtable/cache-design/server.log")
	if err != nil {
		t.Fatal(err)
	}
	seats := SeatsFromLog(data)
	if len(seats) != 2 {
		t.Fatalf("%d seats", len(seats))
	}
	lead, peer := seats[0], seats[1]
	if lead.Agent != "opus-5" || lead.State != StateDisconnected || lead.PID != 3713 {
		t.Fatalf("lead = %+v", lead)
	}
	if peer.Agent != "codex" || peer.State != StateDisconnected || peer.LastTool != "wait_for_message" {
		t.Fatalf("peer = %+v", peer)
	}
	// The open room's log ends with both parked or active, not disconnected.
	data, _ = os.ReadFile("testdata/reference-rooms/open-room/.roundtable/open-room/server.log")
	for _, s := range SeatsFromLog(data) {
		if s.State == StateAbsent {
			t.Fatalf("seat %s absent in the open room", s.Seat)
		}
	}
}

func TestSeatStates(t *testing.T) {
	log := strings.Join([]string{
		"2026-11-30T14:20:10.000Z connect seat=lead agent=a pid=1",
		"2026-11-30T14:20:10.100Z connect seat=peer agent=b pid=2",
		"2026-11-30T14:20:10.200Z list_tools seat=peer",
		// Out of time order on purpose: lines from two processes interleave.
		"2026-11-30T14:20:12.000Z call seat=lead tool=wait_for_message",
		"2026-11-30T14:20:11.000Z call seat=lead tool=post",
		"not a log line",
	}, "\n")
	seats := SeatsFromLog([]byte(log))
	if seats[0].State != StateParked || seats[0].Calls != 2 {
		t.Fatalf("lead = %+v", seats[0])
	}
	if seats[1].State != StateNotStarted {
		t.Fatalf("peer = %+v, want connected but not started", seats[1])
	}
}

// TestLogLeavesADeletedRoomAlone: once room.json is gone (someone is
// deleting the room), Log writes nothing, so it cannot put server.log
// back into a folder being emptied.
func TestLogLeavesADeletedRoomAlone(t *testing.T) {
	r := newRoom(t, 3)
	if err := r.Log("call", F("seat", "lead"), F("tool", "post")); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(r.Dir(), LogFile)
	if _, err := os.Stat(logPath); err != nil {
		t.Fatalf("a live room's log was not written: %v", err)
	}
	for _, name := range []string{LogFile, "room.json"} {
		if err := os.Remove(filepath.Join(r.Dir(), name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Log("wait_return", F("seat", "peer"), F("reason", "error")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(logPath); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("server.log came back in a room being deleted: %v", err)
	}
}
