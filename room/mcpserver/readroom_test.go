package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
	"github.com/roundtable-dev/roundtable/room/mcpserver"
)

func seqsOf(t *testing.T, reply map[string]any) []int {
	t.Helper()
	var out []int
	for _, m := range hosttest.MessagesOf(t, reply) {
		out = append(out, int(m["seq"].(float64)))
	}
	return out
}

func seqRange(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

var callRE = regexp.MustCompile(`call read_room with since=(\d+), before=(\d+) and limit=(\d+)`)

// TestReadRoomLimitPagesBack: limit returns the newest messages and a note
// whose call reads the ones before them; following the notes reads the
// whole room, newest page first, each message once.
func TestReadRoomLimitPagesBack(t *testing.T) {
	cwd := t.TempDir()
	prefill(t, cwd, "paged", 23, 100)
	lead := hosttest.StartSeat(t, cwd, "paged", "lead")

	got := lead.OK("read_room", map[string]any{"since": 0, "limit": 10})
	if s := seqsOf(t, got); fmt.Sprint(s) != fmt.Sprint(seqRange(14, 23)) {
		t.Fatalf("newest 10: %v", s)
	}
	var seen []int
	seen = append(seqsOf(t, got), seen...)
	for pages := 0; ; pages++ {
		note, _ := got["note"].(string)
		m := callRE.FindStringSubmatch(note)
		if m == nil {
			if len(seen) != 23 {
				t.Fatalf("no way on after %v (note %q)", seen, note)
			}
			break
		}
		if pages > 5 {
			t.Fatal("the notes do not end")
		}
		args := map[string]any{}
		for i, k := range []string{"since", "before", "limit"} {
			n, _ := strconv.Atoi(m[i+1])
			args[k] = n
		}
		got = lead.OK("read_room", args)
		seen = append(seqsOf(t, got), seen...)
	}
	if fmt.Sprint(seen) != fmt.Sprint(seqRange(1, 23)) {
		t.Fatalf("pages read %v", seen)
	}
	// No cut, no note.
	all := lead.OK("read_room", map[string]any{"since": 20, "limit": 10})
	if _, ok := all["note"]; ok || fmt.Sprint(seqsOf(t, all)) != "[21 22 23]" {
		t.Fatalf("uncut read: %v", all)
	}
}

// TestReadRoomLimitOnUnread: without since, limit cuts the unread messages
// of the other seat and the note says how to read the rest; the next
// read_room has nothing new.
func TestReadRoomLimitOnUnread(t *testing.T) {
	cwd := t.TempDir()
	prefill(t, cwd, "unread", 20, 100) // the peer wrote the even ones
	lead := hosttest.StartSeat(t, cwd, "unread", "lead")
	got := lead.OK("read_room", map[string]any{"limit": 3})
	if s := fmt.Sprint(seqsOf(t, got)); s != "[16 18 20]" {
		t.Fatalf("newest 3 unread: %s", s)
	}
	note, _ := got["note"].(string)
	if m := callRE.FindStringSubmatch(note); m == nil || m[1] != "1" || m[2] != "16" {
		t.Fatalf("note %q", note)
	}
	if msgs := hosttest.MessagesOf(t, lead.OK("read_room", nil)); len(msgs) != 0 {
		t.Fatalf("unread after a limited read: %v", msgs)
	}
}

// TestLargeReadRoomIsWhole: a reply over the splicing threshold reaches an
// independent client whole and equal to what the same server answers
// without the stdio transport.
func TestLargeReadRoomIsWhole(t *testing.T) {
	cwd := t.TempDir()
	prefillText(t, cwd, "large", 599, 500) // the lead posted last
	// Hostile text in one message: quotes, escapes, control characters,
	// invalid UTF-8, U+2028, and something that looks like a placeholder.
	r, err := room.Open(cwd, "large")
	if err != nil {
		t.Fatal(err)
	}
	hostile := "\"quoted\" \\back\\ \x01\x1f\t\n\u2028 bad:\xff\xfe <&> \"roundtable-reply-00000000000000000000000000000000-1\""
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatPeer, Agent: "x", Kind: "answer", Text: hostile}); err != nil {
		t.Fatal(err)
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}

	lead := startSDKSeat(t, cwd, "large", "lead", "lead-agent", 12)
	res := lead.Call("read_room", map[string]any{"since": 0})
	if res.IsError || len(res.Text) < 64<<10 {
		t.Fatalf("read_room: error %v, %d bytes", res.IsError, len(res.Text))
	}
	msgs, _ := res.JSON["messages"].([]any)
	if len(msgs) != len(st.Messages) {
		t.Fatalf("%d messages read, %d on disk", len(msgs), len(st.Messages))
	}
	for i, raw := range msgs {
		m := raw.(map[string]any)
		want := st.Messages[i]
		if m["text"] != want.Text || int(m["seq"].(float64)) != want.Seq || m["kind"] != want.Kind {
			t.Fatalf("message %d read as %q, on disk %q", i, m["text"], want.Text)
		}
	}

	// The same call handled in process, with no transport underneath.
	seat, err := mcpserver.NewSeat(t.Context(), mcpserver.Options{Room: "large", Seat: room.SeatLead, Agent: "lead-agent", Topic: "bench", Budget: 12, Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	defer seat.Close()
	srv := seat.MCPServer()
	resp := srv.HandleMessage(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_room","arguments":{"since":0}}}`))
	data, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var direct struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal(data, &direct); err != nil || len(direct.Result.Content) != 1 {
		t.Fatalf("in-process reply: %v %.200s", err, data)
	}
	if direct.Result.Content[0].Text != res.Text {
		t.Fatal("the spliced reply differs from the one mcp-go marshals")
	}
}
