package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// notesOf returns a reply's host notes, nil when it has none.
func notesOf(t *testing.T, reply map[string]any) []map[string]any {
	t.Helper()
	raw, ok := reply["notes"]
	if !ok {
		return nil
	}
	list, ok := raw.([]any)
	if !ok {
		t.Fatalf("notes is not a list: %v", raw)
	}
	var out []map[string]any
	for _, n := range list {
		out = append(out, n.(map[string]any))
	}
	return out
}

// sendNote writes a note the way a person does, with the real binary's
// roundtable note, a process of its own.
func sendNote(t *testing.T, cwd, name, text string) {
	t.Helper()
	out, err := exec.Command(hosttest.Binary(), "note", "--room", name, "--cwd", cwd, text).CombinedOutput()
	if err != nil {
		t.Fatalf("roundtable note: %v\n%s", err, out)
	}
}

// callUntilNotes calls tool until it has handed want notes: a seat server
// sees another process's write when its folder watch reports it, a moment
// after the write, so a call just after it may come too soon. It returns
// the notes and the messages the calls handed out.
func callUntilNotes(t *testing.T, s *hosttest.Seat, tool string, args map[string]any, want int) (notes, msgs []map[string]any) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(notes) < want {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s handed %d notes in 10 s, want %d", s.Name, tool, len(notes), want)
		}
		r := s.OK(tool, args)
		notes = append(notes, notesOf(t, r)...)
		if _, ok := r["messages"]; ok {
			msgs = append(msgs, hosttest.MessagesOf(t, r)...)
		}
		if len(notes) < want {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return notes, msgs
}

// TestHostNoteWakesParkedSeats: a note wakes both parked seats at once,
// whoever's turn it is; it comes marked from the host, once per seat,
// with messages empty, and it takes no turn and spends no round.
func TestHostNoteWakesParkedSeats(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "steer", "lead", "--budget", "2")
	peer := hosttest.StartSeat(t, cwd, "steer", "peer")
	lead.OK("post", map[string]any{"text": "## Brief\nWrite-through or write-back?", "kind": "brief"})
	peer.OK("wait_for_message", map[string]any{"timeout_seconds": 10})
	peer.OK("post", map[string]any{"text": "Write-back.", "kind": "proposal"})
	lead.OK("wait_for_message", map[string]any{"timeout_seconds": 10})
	lead.OK("post", map[string]any{"text": "Why?", "kind": "question"})
	before := peer.OK("wait_for_message", map[string]any{"timeout_seconds": 10})
	if m := hosttest.MessagesOf(t, before); len(m) != 1 || m[0]["text"] != "Why?" {
		t.Fatalf("peer's wait for the question: %v", before)
	}

	// Both park: the lead waits for the peer's answer, and the peer, which
	// has the lead's question, waits too (as an agent thinking it over
	// might).
	woke := map[string]chan map[string]any{"lead": make(chan map[string]any, 1), "peer": make(chan map[string]any, 1)}
	go func() { woke["lead"] <- lead.OK("wait_for_message", map[string]any{"timeout_seconds": 30}) }()
	go func() { woke["peer"] <- peer.OK("wait_for_message", map[string]any{"timeout_seconds": 30}) }()
	time.Sleep(300 * time.Millisecond) // let both park
	sendNote(t, cwd, "steer", "Drop write-back: the **audit log** needs every write on disk.")

	for _, seat := range []string{"lead", "peer"} {
		var got map[string]any
		select {
		case got = <-woke[seat]:
		case <-time.After(10 * time.Second):
			t.Fatalf("the %s's parked wait did not wake for the note", seat)
		}
		notes := notesOf(t, got)
		if len(notes) != 1 || notes[0]["from"] != "host" || notes[0]["seq"] != float64(1) || notes[0]["after_seq"] != float64(3) ||
			!strings.Contains(notes[0]["text"].(string), "audit log") {
			t.Fatalf("%s woke with notes %v", seat, got["notes"])
		}
		if msgs, ok := got["messages"].([]any); !ok || len(msgs) != 0 {
			t.Fatalf("%s woke with messages %v, want an empty list", seat, got["messages"])
		}
		note, _ := got["note"].(string)
		if !strings.Contains(note, "The host") || !strings.Contains(note, "outranks the course of the debate") {
			t.Fatalf("%s: note %q", seat, note)
		}
		// The turn stays where it was: the peer has it.
		if got["turn"] != "peer" || got["round"] != before["round"] || got["message_count"] != before["message_count"] {
			t.Fatalf("%s: a note moved the room: %v", seat, got)
		}
		if seat == "peer" && (!strings.Contains(note, "still your turn") || got["your_turn"] != true) {
			t.Fatalf("peer: note %q your_turn %v", note, got["your_turn"])
		}
		if seat == "lead" && (!strings.Contains(note, "the peer still has the turn") || got["your_turn"] != false) {
			t.Fatalf("lead: note %q your_turn %v", note, got["your_turn"])
		}
	}

	// Once: neither read_room nor the next wait hands it out again.
	if r := lead.OK("read_room", nil); notesOf(t, r) != nil {
		t.Fatalf("the note came twice: %v", r)
	}
	idle := lead.OK("wait_for_message", map[string]any{"timeout_seconds": 1})
	if idle["idle"] != true || notesOf(t, idle) != nil {
		t.Fatalf("wait after the note: %v", idle)
	}
	// It spends no round: the peer answers, the lead still has its last
	// round of the two.
	peer.OK("post", map[string]any{"text": "Then write-through.", "kind": "concession"})
	got := lead.OK("wait_for_message", map[string]any{"timeout_seconds": 5})
	if m := hosttest.MessagesOf(t, got); len(m) != 1 || notesOf(t, got) != nil || got["round"] != float64(2) {
		t.Fatalf("lead's next wait: %v", got)
	}
	log, err := os.ReadFile(filepath.Join(cwd, ".roundtable", "steer", room.LogFile))
	if err != nil || strings.Count(string(log), "reason="+room.WaitNote) != 2 {
		t.Fatalf("server.log does not record two waits returned for the note: %v\n%s", err, log)
	}
}

// TestNotesReachEachSeatOnce: a note written while a seat is busy comes
// with its next read_room (not again with the wait after it); a new
// session of the seat is handed every note once more; a history read with
// since shows the notes among the messages it returns; a closed room still
// hands out the notes not yet seen.
func TestNotesReachEachSeatOnce(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "once", "lead", "--budget", "3")
	peer := hosttest.StartSeat(t, cwd, "once", "peer")
	sendNote(t, cwd, "once", "Keep it to one page.")
	lead.OK("post", map[string]any{"text": "brief", "kind": "brief"})
	sendNote(t, cwd, "once", "Quote the benchmark.")

	notes, msgs := callUntilNotes(t, peer, "read_room", nil, 2)
	if len(notes) != 2 || notes[0]["after_seq"] != float64(0) || notes[1]["after_seq"] != float64(1) || len(msgs) != 1 {
		t.Fatalf("peer's reads: notes %v, messages %v", notes, msgs)
	}
	// The peer's next wait has the lead's message already read and no
	// note left: it parks and goes idle.
	if w := peer.OK("wait_for_message", map[string]any{"timeout_seconds": 1}); w["idle"] != true || notesOf(t, w) != nil {
		t.Fatalf("peer's wait after reading: %v", w)
	}
	// The lead gets both notes with its next wait, at once, though it is
	// the peer's turn and the peer said nothing.
	start := time.Now()
	if n, m := callUntilNotes(t, lead, "wait_for_message", map[string]any{"timeout_seconds": 20}, 2); len(n) != 2 || len(m) != 0 || time.Since(start) > 10*time.Second {
		t.Fatalf("lead's waits: notes %v messages %v after %v", n, m, time.Since(start))
	}
	// A history read shows a note where it sits, even when handed before.
	h := lead.OK("read_room", map[string]any{"since": 0})
	if n := notesOf(t, h); len(n) != 2 || n[1]["text"] != "Quote the benchmark." {
		t.Fatalf("history read: %v", h)
	}
	h = lead.OK("read_room", map[string]any{"since": 1})
	if n := notesOf(t, h); len(n) != 1 || n[0]["seq"] != float64(2) {
		t.Fatalf("history read since 1: notes %v", h["notes"])
	}
	// A new session of the peer (its agent restarted) is told again.
	peer2 := hosttest.StartSeat(t, cwd, "once", "peer")
	if n := notesOf(t, peer2.OK("read_room", nil)); len(n) != 2 {
		t.Fatalf("new session: notes %v", n)
	}
	// Closed: the notes not yet handed come with the close.
	sendNote(t, cwd, "once", "Last word: ship it.")
	peer.OK("post", map[string]any{"text": "ok", "kind": "concession"})
	lead.OK("write_spec", map[string]any{"text": "# Spec"})
	lead.OK("close_room", map[string]any{"reason": "agreement reached"})
	c := peer.OK("wait_for_message", map[string]any{"timeout_seconds": 5})
	if n := notesOf(t, c); c["closed"] != true || len(n) != 1 || n[0]["text"] != "Last word: ship it." {
		t.Fatalf("closed wait: %v", c)
	}
}
