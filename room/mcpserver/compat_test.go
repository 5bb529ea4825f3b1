package mcpserver_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// TestUnknownToolIsAToolResult: a tool the seat does not have answers with
// a tool result flagged isError, as the original server did, not with a
// JSON-RPC error; the call is logged under the name it was called by, and
// the route that answers it is in no tool list.
func TestUnknownToolIsAToolResult(t *testing.T) {
	cwd := t.TempDir()
	c := startRaw(t, hosttest.Binary(), "--room", "unknown", "--seat", "peer", "--cwd", cwd)
	c.initialize(t)
	for _, name := range []string{"no_such_tool", "roundtable_unknown_tool", ""} {
		res := <-c.tool(name, map[string]any{"x": 1})
		if res["error"] != nil {
			t.Fatalf("%q: JSON-RPC error %v, want a tool result", name, res["error"])
		}
		result, _ := res["result"].(map[string]any)
		content, _ := result["content"].([]any)
		if result["isError"] != true || len(content) != 1 {
			t.Fatalf("%q: result %v", name, result)
		}
		text, _ := content[0].(map[string]any)["text"].(string)
		if !strings.Contains(text, "Unknown tool: "+name) || !strings.Contains(text, "wait_for_message") || strings.Contains(text, "close_room") {
			t.Fatalf("%q: refusal %q", name, text)
		}
	}
	list := <-c.send("tools/list", map[string]any{})
	tools, _ := list["result"].(map[string]any)["tools"].([]any)
	for _, tl := range tools {
		if tl.(map[string]any)["name"] == "roundtable_unknown_tool" {
			t.Fatal("the unknown-tool route is listed")
		}
	}
	log, err := os.ReadFile(filepath.Join(cwd, ".roundtable", "unknown", room.LogFile))
	if err != nil || !strings.Contains(string(log), "call seat=peer tool=no_such_tool") {
		t.Fatalf("server.log does not record the unknown call: %v\n%s", err, log)
	}
}

// TestWrongArgumentTypesAreNamed: an argument of the wrong type is refused
// by the input schema with a tool result naming the argument, instead of
// being read as empty and refused for the wrong reason; null counts as not
// given, as it did for the original.
func TestWrongArgumentTypesAreNamed(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "types", "lead", "--budget", "3")
	cases := []struct {
		tool string
		args map[string]any
		arg  string
	}{
		{"post", map[string]any{"text": 42}, "the argument text must be a string, not a number"},
		{"post", map[string]any{"text": "x", "kind": 7}, "the argument kind must be a string, not a number"},
		{"post", map[string]any{}, "the required argument text is missing"},
		{"read_room", map[string]any{"since": "3"}, "the argument since must be a number, not a string"},
		{"read_room", map[string]any{"limit": 0}, "the argument limit may not be 0: its bound is 1"},
		{"read_room", map[string]any{"limit": 2.5}, "the argument limit must be an integer, not a number"},
		{"wait_for_message", map[string]any{"timeout_seconds": "soon"}, "the argument timeout_seconds must be a number, not a string"},
		{"write_spec", map[string]any{"text": []any{"a"}}, "the argument text must be a string, not an array"},
		{"close_room", map[string]any{"reason": true}, "the argument reason must be a string, not a boolean"},
	}
	for _, c := range cases {
		_, text, refused := lead.Call(c.tool, c.args)
		if !refused || !strings.HasPrefix(text, c.tool+" was not run: "+c.arg+". ") || !strings.Contains(text, "call "+c.tool+" again") || strings.Contains(text, "&{") {
			t.Errorf("%s %v: refused=%v %q, want a refusal saying %q", c.tool, c.args, refused, text, c.arg)
		}
	}
	if st := lead.OK("room_status", nil); st["message_count"] != float64(0) {
		t.Fatalf("a refused call posted: %v", st)
	}
	lead.OK("post", map[string]any{"text": "brief", "kind": nil})
	got := lead.OK("read_room", map[string]any{"since": nil, "limit": nil})
	if msgs := hosttest.MessagesOf(t, got); len(msgs) != 0 {
		t.Fatalf("read_room with null since read from the start: %v", msgs)
	}
	if msgs := hosttest.MessagesOf(t, lead.OK("read_room", map[string]any{"since": 0})); len(msgs) != 1 || msgs[0]["kind"] != "brief" {
		t.Fatalf("read_room since 0: %v", msgs)
	}
}

// TestAnyShortKindIsPosted: the lead may concede and the peer may invent a
// label, as with the original; a kind that is not a short label is refused
// with a sentence saying why and what to do.
func TestAnyShortKindIsPosted(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "kinds", "lead", "--budget", "3")
	peer := hosttest.StartSeat(t, cwd, "kinds", "peer")
	lead.OK("post", map[string]any{"text": "You are right.", "kind": "concession"})
	peer.Refused("post", map[string]any{"text": "x", "kind": strings.Repeat("k", 33)}, "33 characters long, over 32")
	peer.Refused("post", map[string]any{"text": "x", "kind": "a\u202eb"}, "leave kind out")
	peer.OK("post", map[string]any{"text": "Then we agree.", "kind": "counter-proposal"})
	msgs := hosttest.MessagesOf(t, lead.OK("read_room", map[string]any{"since": 0}))
	if len(msgs) != 2 || msgs[0]["kind"] != "concession" || msgs[1]["kind"] != "counter-proposal" {
		t.Fatalf("kinds on read: %v", msgs)
	}
}

// TestTimeoutZeroWaitsOneSecond: timeout_seconds 0 (or less) parks for the
// original's minimum of one second rather than returning at once, which
// would spin an agent's wait loop.
func TestTimeoutZeroWaitsOneSecond(t *testing.T) {
	cwd := t.TempDir()
	peer := hosttest.StartSeat(t, cwd, "zero", "peer")
	for _, timeout := range []float64{0, -5, 0.2} {
		start := time.Now()
		idle := peer.OK("wait_for_message", map[string]any{"timeout_seconds": timeout})
		if el := time.Since(start); idle["idle"] != true || el < time.Second {
			t.Fatalf("timeout %v: %v after %v, want idle after at least 1 s", timeout, idle, el)
		}
	}
}

// TestWriteSpecAnswersTheAbsolutePath: written is the absolute path of the
// spec, as the original answers, with the original's keys and no others.
func TestWriteSpecAnswersTheAbsolutePath(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "abs", "lead", "--spec", "docs/plan.md")
	got := lead.OK("write_spec", map[string]any{"text": "# Plan\n"})
	want := filepath.Join(cwd, "docs", "plan.md")
	if got["written"] != want || !filepath.IsAbs(got["written"].(string)) || got["note"] != "Now call close_room." || len(got) != 2 {
		t.Fatalf("write_spec reply %v, want written %s", got, want)
	}
	if data, err := os.ReadFile(want); err != nil || string(data) != "# Plan\n" {
		t.Fatalf("spec on disk: %q %v", data, err)
	}
}

// TestReplyKeysInTheOriginalsOrder: a reply lists its own keys first, then
// the status in the original's order, so a reader skimming the text sees
// what the call did before the room's state.
func TestReplyKeysInTheOriginalsOrder(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "order", "lead")
	_, text, _ := lead.Call("post", map[string]any{"text": "brief"})
	want := []string{`"posted"`, `"room"`, `"topic"`, `"you_are"`, `"your_agent"`, `"round"`, `"budget"`, `"turn"`, `"your_turn"`, `"message_count"`, `"closed"`, `"spec"`, `"transcript_dir"`}
	var at []int
	for _, k := range want {
		at = append(at, strings.Index(text, k))
	}
	if !slices.IsSorted(at) || at[0] < 0 {
		t.Fatalf("keys out of order (%v):\n%s", at, text)
	}
	if !strings.HasPrefix(text, "{\n  \"posted\": 1,\n  \"room\": \"order\",") {
		t.Fatalf("reply not indented like the original's:\n%s", text)
	}
}

// TestWaitSkipsWhatOwnPostAnswered: as in the original, a seat's own post
// answers the other seat's earlier messages, so wait_for_message does not
// hand them out again as new; read_room still shows them, unread as they
// are.
func TestWaitSkipsWhatOwnPostAnswered(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "answered", "lead", "--budget", "3")
	peer := hosttest.StartSeat(t, cwd, "answered", "peer")
	lead.OK("post", map[string]any{"text": "brief"})
	peer.OK("post", map[string]any{"text": "blind reply"})
	if got := peer.OK("wait_for_message", map[string]any{"timeout_seconds": 1}); got["idle"] != true {
		t.Fatalf("wait after answering: %v", got)
	}
	if msgs := hosttest.MessagesOf(t, peer.OK("read_room", nil)); len(msgs) != 1 || msgs[0]["text"] != "brief" {
		t.Fatalf("read_room: %v", msgs)
	}
	lead.OK("post", map[string]any{"text": "second"})
	if msgs := hosttest.MessagesOf(t, peer.OK("wait_for_message", map[string]any{"timeout_seconds": 5})); len(msgs) != 1 || msgs[0]["text"] != "second" {
		t.Fatalf("wait after the lead's next post: %v", msgs)
	}
}

// TestOversizedTopicFlag: a --topic over the store's limit is a usage
// error that says what to do, and creates nothing.
func TestOversizedTopicFlag(t *testing.T) {
	cwd := t.TempDir()
	topic := strings.Repeat("x", room.MaxTopicBytes+1)
	for _, args := range [][]string{
		{"seed", "--room", "big", "--topic", topic, "--cwd", cwd},
		{"--room", "big", "--seat", "lead", "--topic", topic, "--cwd", cwd},
	} {
		out, errOut, code := hosttest.Run(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "--topic is 65 KiB, over the 64 KiB limit") || !strings.Contains(errOut, "put the details in the brief") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", args[0], code, out, errOut)
		}
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
		t.Fatalf("a refused topic created %v", entries)
	}
}
