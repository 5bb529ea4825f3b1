package mcpserver_test

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

func TestToolListsPerSeat(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "tools", "lead")
	peer := hosttest.StartSeat(t, cwd, "tools", "peer")
	got := lead.ToolNames()
	sort.Strings(got)
	if want := []string{"close_room", "post", "read_room", "room_status", "wait_for_message", "write_spec"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("lead tools %v, want %v", got, want)
	}
	got = peer.ToolNames()
	sort.Strings(got)
	if want := []string{"post", "read_room", "room_status", "wait_for_message"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("peer tools %v, want %v", got, want)
	}
}

// TestFullRoom walks a room from brief to close through two seat processes.
func TestFullRoom(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "cache", "lead", "--budget", "2", "--topic", "Write-through?", "--spec", "docs/decisions/cache.md")
	peer := hosttest.StartSeat(t, cwd, "cache", "peer")

	st := peer.OK("room_status", nil)
	if st["topic"] != "Write-through?" || st["budget"] != float64(2) || st["turn"] != "lead" || st["your_turn"] != false || st["spec"] != "docs/decisions/cache.md" {
		t.Fatalf("peer status: %v", st)
	}
	peer.Refused("post", map[string]any{"text": "me first"}, "lead's turn")

	// A parked peer is woken by the lead's post.
	woke := make(chan map[string]any, 1)
	go func() { woke <- peer.OK("wait_for_message", map[string]any{"timeout_seconds": 30}) }()
	time.Sleep(200 * time.Millisecond) // let it park
	// A parked wait does not block other calls of the same seat.
	if st := peer.OK("room_status", nil); st["message_count"] != float64(0) {
		t.Fatalf("status while parked: %v", st)
	}
	posted := lead.OK("post", map[string]any{"text": "## Brief\nShould we?", "kind": "brief"})
	if posted["posted"] != float64(1) || posted["round"] != float64(1) || posted["turn"] != "peer" {
		t.Fatalf("post reply: %v", posted)
	}
	var got map[string]any
	select {
	case got = <-woke:
	case <-time.After(10 * time.Second):
		t.Fatal("parked peer was not woken by the lead's post")
	}
	msgs := hosttest.MessagesOf(t, got)
	if len(msgs) != 1 || msgs[0]["text"] != "## Brief\nShould we?" || msgs[0]["seat"] != "lead" || got["your_turn"] != true {
		t.Fatalf("woken with %v", got)
	}

	lead.Refused("post", map[string]any{"text": "again"}, "peer's turn")
	peer.Refused("post", map[string]any{"text": "x", "kind": "two\nlines"}, "line break")
	peer.Refused("post", map[string]any{"text": "   "}, "non-empty")
	peer.OK("post", map[string]any{"text": "objection", "kind": "objection"})
	if m := hosttest.MessagesOf(t, lead.OK("wait_for_message", map[string]any{"timeout_seconds": 5})); len(m) != 1 || m[0]["kind"] != "objection" {
		t.Fatalf("lead got %v", m)
	}
	lead.OK("post", map[string]any{"text": "challenge", "kind": "challenge"})
	peer.OK("wait_for_message", map[string]any{"timeout_seconds": 5})
	peer.OK("post", map[string]any{"text": "concession", "kind": "concession"})
	lead.Refused("post", map[string]any{"text": "one more"}, "budget of 2 is spent")

	// The peer waits while the lead writes the spec: idle, with a note.
	start := time.Now()
	idle := peer.OK("wait_for_message", map[string]any{"timeout_seconds": 1})
	if idle["idle"] != true || !strings.Contains(idle["note"].(string), "lead is writing the spec") {
		t.Fatalf("idle reply: %v", idle)
	}
	if el := time.Since(start); el < time.Second {
		t.Fatalf("idle after %v for a 1 s timeout", el)
	}

	lead.Refused("close_room", map[string]any{"reason": "done"}, "no spec yet")
	peer.Refused("write_spec", map[string]any{"text": "# mine"}, "Only the lead")
	peer.Refused("close_room", map[string]any{}, "Only the lead")
	w := lead.OK("write_spec", map[string]any{"text": "# Decision\nWrite-through.\n\n## Dissent\n> concession"})
	if w["written"] != filepath.Join(cwd, "docs/decisions/cache.md") {
		t.Fatalf("write_spec reply %v", w)
	}
	if data, err := os.ReadFile(filepath.Join(cwd, "docs/decisions/cache.md")); err != nil || !strings.HasPrefix(string(data), "# Decision") {
		t.Fatalf("spec file: %q %v", data, err)
	}

	// Close reaches a parked peer.
	go func() { woke <- peer.OK("wait_for_message", map[string]any{"timeout_seconds": 30}) }()
	time.Sleep(200 * time.Millisecond)
	closed := lead.OK("close_room", map[string]any{"reason": "agreement reached"})
	if closed["closed"] != true || closed["spec_path"] != "docs/decisions/cache.md" {
		t.Fatalf("close reply %v", closed)
	}
	select {
	case got = <-woke:
	case <-time.After(10 * time.Second):
		t.Fatal("close did not reach the parked peer")
	}
	if got["closed"] != true || got["reason"] != "agreement reached" {
		t.Fatalf("peer woke with %v", got)
	}
	peer.Refused("post", map[string]any{"text": "late"}, "closed")
	lead.Refused("close_room", map[string]any{}, "already closed")

	// The transcript on disk is contiguous and alternates.
	r, err := room.Open(cwd, "cache")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	wantSeats := []string{"lead", "peer", "lead", "peer"}
	if len(rs.Messages) != 4 {
		t.Fatalf("%d messages on disk", len(rs.Messages))
	}
	for i, m := range rs.Messages {
		if m.Seq != i+1 || m.Seat != wantSeats[i] || m.Agent != wantSeats[i]+"-agent" {
			t.Fatalf("message %d: %+v", i, m)
		}
	}
	if rs.Closed == nil || rs.Closed.SpecPath != "docs/decisions/cache.md" {
		t.Fatalf("closed.json: %+v", rs.Closed)
	}
}

func TestReadRoomDoesNotSkipUnreadAfterOwnPost(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "rr", "lead", "--budget", "5")
	peer := hosttest.StartSeat(t, cwd, "rr", "peer")
	lead.OK("post", map[string]any{"text": "brief"})
	// The peer posts without reading first; its own post must not mark the
	// brief as read.
	peer.OK("post", map[string]any{"text": "reply"})
	msgs := hosttest.MessagesOf(t, peer.OK("read_room", nil))
	if len(msgs) != 1 || msgs[0]["text"] != "brief" {
		t.Fatalf("read_room after own post: %v", msgs)
	}
	if msgs := hosttest.MessagesOf(t, peer.OK("read_room", nil)); len(msgs) != 0 {
		t.Fatalf("second read_room repeated messages: %v", msgs)
	}
	all := hosttest.MessagesOf(t, peer.OK("read_room", map[string]any{"since": 0}))
	if len(all) != 2 {
		t.Fatalf("read_room since 0: %d messages", len(all))
	}
}

func TestSeatExitsWhenClientDisconnectsWhileParked(t *testing.T) {
	cwd := t.TempDir()
	c := startRaw(t, hosttest.Binary(), "--room", "gone", "--seat", "peer", "--cwd", cwd)
	c.initialize(t)
	reply := c.tool("wait_for_message", map[string]any{"timeout_seconds": 50})
	time.Sleep(300 * time.Millisecond)
	seats, err := room.ReadSeats(filepath.Join(cwd, ".roundtable", "gone"))
	if err != nil || seats[1].State != room.StateParked {
		t.Fatalf("seats: %+v %v", seats, err)
	}
	closedAt := time.Now()
	c.in.Close() // the client goes away: stdin reaches EOF
	select {
	case <-c.exited:
		if c.waitErr != nil {
			t.Fatalf("seat exited with %v", c.waitErr)
		}
	case <-time.After(time.Second):
		t.Fatal("seat process still running 1 s after its client left")
	}
	t.Logf("seat process gone %v after its client closed stdin", time.Since(closedAt).Round(time.Millisecond))
	_ = reply // whatever the cancelled wait answered went to a closed client
	seats, _ = room.ReadSeats(filepath.Join(cwd, ".roundtable", "gone"))
	if seats[1].State != room.StateDisconnected {
		t.Fatalf("peer state after exit: %+v", seats[1])
	}
}

func TestStdoutCarriesOnlyProtocolAndBadFlagsCreateNothing(t *testing.T) {
	cwd := t.TempDir()
	for _, args := range [][]string{
		{"--room", "../escape", "--cwd", cwd},
		{"--room", "ok", "--seat", "boss", "--cwd", cwd},
		{"--room", "ok", "--budget", "0", "--cwd", cwd},
		{"--room", "ok", "--budget", "-3", "--cwd", cwd},
		{"--room", "ok", "--unknown-flag", "--cwd", cwd},
	} {
		out, errOut, code := hosttest.Run(t, args...)
		if code != 2 || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Fatalf("bad flags created %v", entries)
	}
	// Environment variables fill flags; a flag wins over its variable.
	out, _, code := hosttest.RunEnv(t, []string{"ROUNDTABLE_ROOM=fromenv", "ROUNDTABLE_TOPIC=env topic", "ROUNDTABLE_BUDGET=3", "ROUNDTABLE_CWD=" + cwd},
		"seed", "--budget", "5")
	if code != 0 || !strings.Contains(out, `"room": "fromenv"`) {
		t.Fatalf("seed from env: exit %d %s", code, out)
	}
	r, err := room.Open(cwd, "fromenv")
	if err != nil || r.Config().Budget != 5 || r.Config().Topic != "env topic" {
		t.Fatalf("room from env: %+v %v", r, err)
	}
	for _, p := range []string{"lead.md", "peer.md"} {
		data, err := os.ReadFile(filepath.Join(r.Dir(), p))
		if err != nil || !strings.Contains(string(data), "env topic") || strings.Contains(string(data), "{{") {
			t.Fatalf("%s: %v\n%s", p, err, data)
		}
	}
}

func TestRoomFolderDeletedWhileSeatRuns(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "doomed", "lead")
	peer := hosttest.StartSeat(t, cwd, "doomed", "peer")
	lead.OK("post", map[string]any{"text": "brief"})
	woke := make(chan string, 1)
	go func() {
		_, text, _, err := peer.Try("wait_for_message", map[string]any{"timeout_seconds": 20})
		if err != nil {
			text = err.Error()
		}
		woke <- text
	}()
	peer.OK("room_status", nil) // the wait above may have returned the brief already
	<-woke
	go func() {
		_, text, _, err := peer.Try("wait_for_message", map[string]any{"timeout_seconds": 20})
		if err != nil {
			text = err.Error()
		}
		woke <- text
	}()
	time.Sleep(200 * time.Millisecond)
	if err := os.RemoveAll(filepath.Join(cwd, ".roundtable", "doomed")); err != nil {
		t.Fatal(err)
	}
	select {
	case text := <-woke:
		if !strings.Contains(text, "gone") {
			t.Fatalf("parked wait after deletion: %q", text)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("parked wait not told that the room is gone")
	}
	lead.Refused("post", map[string]any{"text": "anyone?"}, "gone")
	lead.Refused("room_status", nil, "gone")
}
