package watch_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// toolReply decodes the JSON text of a tool result.
func toolReply(t *testing.T, who string, res map[string]any) map[string]any {
	t.Helper()
	result, _ := res["result"].(map[string]any)
	content, _ := result["content"].([]any)
	if res["error"] != nil || len(content) != 1 || result["isError"] == true {
		t.Fatalf("%s: bad reply %v", who, res)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%s: reply is not JSON: %v\n%s", who, err, text)
	}
	return out
}

// hostNotes returns the texts of a reply's notes, checking each is from
// the host.
func hostNotes(t *testing.T, who string, reply map[string]any) []string {
	t.Helper()
	raw, _ := reply["notes"].([]any)
	var out []string
	for _, n := range raw {
		n := n.(map[string]any)
		if n["from"] != "host" {
			t.Fatalf("%s: a note not from the host: %v", who, n)
		}
		out = append(out, n["text"].(string))
	}
	return out
}

// await is a reply within the e2e timeout.
func await(t *testing.T, who string, ch <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case r := <-ch:
		return toolReply(t, who, r)
	case <-time.After(e2eTimeout):
		t.Fatalf("%s: no reply", who)
		return nil
	}
}

// TestWatchSteeringNoteEndToEnd runs the built binary three times: watch
// in tmux and two seat servers spoken to as an agent's MCP client does.
// A note typed with i wakes both parked seats, from the host, with the
// turn unchanged, and shows in the feed as a host band; a second note,
// typed while neither seat is parked, comes with each seat's next
// read_room or wait_for_message.
func TestWatchSteeringNoteEndToEnd(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 110, Height: 34, Dir: t.TempDir()}, bin, "watch", "--room", "steer-e2e", "--cwd", cwd)
	s.WaitFor("waiting for the first seat", e2eTimeout)
	lead := startSeatProc(t, bin, cwd, "steer-e2e", "lead")
	peer := startSeatProc(t, bin, cwd, "steer-e2e", "peer")
	s.WaitFor("Seats on screen", e2eTimeout)

	await(t, "lead post", lead.call("post", map[string]any{"text": "The brief: write-through or write-back?", "kind": "brief"}))
	await(t, "peer's wait for the brief", peer.call("wait_for_message", map[string]any{"timeout_seconds": 10}))
	leadWoke := lead.call("wait_for_message", map[string]any{"timeout_seconds": 50})
	peerWoke := peer.call("wait_for_message", map[string]any{"timeout_seconds": 50})
	s.WaitUntil("both seats parked", func(sc string) bool {
		return seatLine(sc, "lead", "lead-e2e", "parked · ") && seatLine(sc, "peer", "peer-e2e", "parked · ")
	}, e2eTimeout)

	s.SendKeys("i")
	s.WaitFor("Steering note to both seats", e2eTimeout)
	s.SendKeys("Drop write-back: the audit log needs every write on disk")
	s.WaitFor("needs every write on disk", e2eTimeout)
	s.SendKeys("Enter")
	s.WaitFor("note 1 sent: both seats get it", e2eTimeout)

	for who, ch := range map[string]<-chan map[string]any{"lead": leadWoke, "peer": peerWoke} {
		r := await(t, who+"'s parked wait", ch)
		if n := hostNotes(t, who, r); len(n) != 1 || n[0] != "Drop write-back: the audit log needs every write on disk" {
			t.Fatalf("%s woke with notes %v: %v", who, n, r)
		}
		if msgs, _ := r["messages"].([]any); len(msgs) != 0 || r["turn"] != "peer" || r["round"] != float64(1) {
			t.Fatalf("%s: the note moved the room or came with messages: %v", who, r)
		}
	}
	screen := s.WaitUntil("the note as a host band and the seats told", func(sc string) bool {
		return strings.Contains(sc, "host · steering note to both seats") && strings.Contains(sc, "since its wait returned your note")
	}, e2eTimeout)
	if strings.Index(screen, "The brief: write-through") > strings.Index(screen, "host · steering note") {
		t.Fatalf("the band is not after the brief:\n%s", screen)
	}

	// Neither seat is parked now: the next note waits for their next call.
	s.SendKeys("i")
	s.WaitFor("Steering note to both seats", e2eTimeout)
	s.SendKeys("Quote the benchmark numbers")
	s.WaitFor("Quote the benchmark numbers", e2eTimeout)
	s.SendKeys("Enter")
	s.WaitFor("note 2 sent", e2eTimeout)
	// The seat server sees the note when its folder watch reports it, a
	// moment after the write: read until it comes (once).
	var n []string
	for deadline := time.Now().Add(e2eTimeout); len(n) == 0 && time.Now().Before(deadline); {
		n = hostNotes(t, "peer", await(t, "peer read", peer.call("read_room", nil)))
		if len(n) == 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if len(n) != 1 || n[0] != "Quote the benchmark numbers" {
		t.Fatalf("peer's next read_room: notes %v", n)
	}
	if n := hostNotes(t, "lead", await(t, "lead wait", lead.call("wait_for_message", map[string]any{"timeout_seconds": 50}))); len(n) != 1 || n[0] != "Quote the benchmark numbers" {
		t.Fatalf("lead's next wait_for_message: notes %v", n)
	}
	// Once each: the peer's answer reaches the lead without a note again.
	await(t, "peer post", peer.call("post", map[string]any{"text": "Write-through, then.", "kind": "concession"}))
	r := await(t, "lead wait", lead.call("wait_for_message", map[string]any{"timeout_seconds": 50}))
	if n := hostNotes(t, "lead", r); len(n) != 0 || r["round"] != float64(1) {
		t.Fatalf("lead's wait after the answer: %v", r)
	}
	s.SendKeys("q")
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d after q, want 0", code)
	}
}
