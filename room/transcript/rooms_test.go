package transcript

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// t0 is the fixed clock of every built room.
var t0 = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

// fileMsg is a message as written on disk, with every field under the
// test's control (the store would stamp the time itself).
type fileMsg struct {
	Seq   int    `json:"seq"`
	At    string `json:"at"`
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	Round int    `json:"round,omitempty"`
}

// writeRoom writes room name in the on-disk format under a new temporary
// cwd and opens it; cfg is written as room.json as is. extra maps file names under the room folder to raw content
// (server.log, broken message files, closed.json).
func writeRoom(t testing.TB, name string, cfg room.Config, msgs []fileMsg, extra map[string]string) *room.Room {
	t.Helper()
	cwd := t.TempDir()
	dir := room.Dir(cwd, name)
	writeFile(t, filepath.Join(dir, "room.json"), encode(t, cfg))
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, m := range msgs {
		ms := t0.UnixMilli()
		if at, err := time.Parse(time.RFC3339Nano, m.At); err == nil {
			ms = at.UnixMilli()
		}
		name := fmt.Sprintf("%04d-%d-%06x.json", m.Seq, ms, i)
		writeFile(t, filepath.Join(dir, "messages", name), encode(t, m))
	}
	for name, content := range extra {
		writeFile(t, filepath.Join(dir, name), []byte(content))
	}
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// at is the fixed clock plus s seconds, formatted as the format wants.
func at(s float64) string {
	return t0.Add(time.Duration(s * float64(time.Second))).Format(room.TimeLayout)
}

// pinTimes rewrites the times the store stamped on a room's messages and
// closed.json with fixed ones (message i at t0 + 47 s * i, the close a
// minute after the last), then reopens the room, so a room built through
// the store renders the same on every run.
func pinTimes(t *testing.T, r *room.Room) *room.Room {
	t.Helper()
	entries, err := os.ReadDir(r.MessagesDir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if _, ok := room.ParseMessageFileName(e.Name()); ok {
			names = append(names, e.Name())
		}
	}
	sort.Slice(names, func(i, j int) bool {
		a, _ := room.ParseMessageFileName(names[i])
		b, _ := room.ParseMessageFileName(names[j])
		return a < b
	})
	last := t0
	for i, name := range names {
		path := filepath.Join(r.MessagesDir(), name)
		var m map[string]any
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		last = t0.Add(time.Duration(i) * 47 * time.Second)
		m["at"] = last.Format(room.TimeLayout)
		writeFile(t, path, encode(t, m))
	}
	closed := filepath.Join(r.Dir(), "closed.json")
	if data, err := os.ReadFile(closed); err == nil {
		var c map[string]any
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		c["at"] = last.Add(time.Minute).Format(room.TimeLayout)
		writeFile(t, closed, encode(t, c))
	}
	again, err := room.Open(r.Cwd(), filepath.Base(r.Dir()))
	if err != nil {
		t.Fatal(err)
	}
	return again
}

// closedMCPRoom is a finished MCP room written through the store: posts,
// spec, close, and a server.log.
func closedMCPRoom(t *testing.T) *room.Room {
	t.Helper()
	r, _, err := room.Create(t.TempDir(), "retry-policy", room.CreateOptions{Topic: "Retry failed webhooks with backoff?", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	posts := []room.Post{
		{Seat: room.SeatLead, Agent: "opus-5", Kind: "brief", Text: "# Brief\n\nWebhooks that fail are dropped today. Should we retry with **exponential backoff**?\n\n1. at most 5 tries\n2. jitter ±20%"},
		{Seat: room.SeatPeer, Agent: "codex", Kind: "objection", Text: "Retries without an idempotency key double-charge. See <https://example.com/idempotency> and `deliver.go:42`.\n\n| tries | worst delay |\n|:--|--:|\n| 3 | 7 s |\n| 5 | 31 s |"},
		{Seat: room.SeatLead, Agent: "opus-5", Kind: "question", Text: "Would a key per event id do?\n\n```go\nkey := fmt.Sprintf(\"evt-%s\", e.ID)\n```"},
		{Seat: room.SeatPeer, Agent: "codex", Kind: "concession", Text: "Yes. ~~Per delivery~~ per event is right."},
		{Seat: room.SeatLead, Agent: "opus-5", Kind: "decision", Text: "Retry 5 times with jitter, keyed by event id."},
	}
	for _, p := range posts {
		if _, _, err := r.PostMessage(p); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []struct{ seat, agent string }{{"lead", "opus-5"}, {"peer", "codex"}} {
		if err := r.Log("connect", room.F("seat", l.seat), room.F("agent", l.agent), room.F("pid", 7)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.WriteSpec("# Retry policy\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: "agreement reached", RequireSpec: true}); err != nil {
		t.Fatal(err)
	}
	return pinTimes(t, r)
}

// openMCPRoom is an open room with the awkward parts of real rooms: a peer
// message before any lead post, a missing kind, a message with a broken
// time, a changed agent label, two unreadable message files, temporary
// files, and a room that spans midnight.
func openMCPRoom(t *testing.T) *room.Room {
	t.Helper()
	cfg := room.Config{Room: "open-mcp", Topic: "Split the monolith?", Budget: 2, Spec: "SPEC-open-mcp.md", CreatedAt: at(0)}
	msgs := []fileMsg{
		{Seq: 1, At: at(0), Seat: "peer", Agent: "codex", Kind: "answer", Text: "I arrived first; here is context before the brief."},
		{Seq: 2, At: at(60), Seat: "lead", Agent: "opus-5", Text: "Brief without a kind.\r\nSecond line."},
		{Seq: 3, At: "yesterday-ish", Seat: "peer", Agent: "codex-2", Kind: "objection", Text: "My clock is broken."},
		{Seq: 6, At: at(15 * 3600), Seat: "lead", Agent: "opus-5", Kind: "challenge", Text: "Next day. An unclosed fence:\n\n```sh\nmake all"},
	}
	extra := map[string]string{
		"messages/0004-1796050000000-aaaaaa.json": "{ not json",
		"messages/0005-1796050000000-bbbbbb.json": "{\"seq\": 5, \"text\": \"no seat\"}\n",
		"messages/.tmp-12345":                     "{\"seq\": 99, \"seat\": \"lead\"}",
		"server.log": "2026-11-30T09:00:00.000Z connect seat=lead agent=opus-5 pid=1\n" +
			"2026-11-30T08:59:59.000Z connect seat=peer agent=codex pid=2\n" +
			"garbage line\n" +
			"2026-11-30T09:00:01.000Z call seat=peer tool=wait_for_message\n",
	}
	return writeRoom(t, cfg.Room, cfg, msgs, extra)
}

// debateRoom is a persona debate saved through the store, the way the
// debate recorder does: room.json with mode, agents and rounds, one message
// per turn with its round, the moderator's verdict, closed.json.
func debateRoom(t *testing.T) *room.Room {
	t.Helper()
	personas := []string{"Skeptic", "Optimist", "Pragmatist"}
	r, _, err := room.Create(t.TempDir(), "debate-tabs", room.CreateOptions{
		Topic: "Tabs or spaces?", Mode: room.ModeDebate, Agents: personas, Rounds: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 2; round++ {
		for _, p := range personas {
			text := fmt.Sprintf("**%s**, round %d: %s", p, round, map[string]string{
				"Skeptic":    "Tabs render differently everywhere.",
				"Optimist":   "Editors solved this years ago.\n\n- gofmt uses tabs\n- nobody complains",
				"Pragmatist": "Follow the language's formatter.",
			}[p])
			if _, err := r.Record(room.Post{Seat: p, Agent: "mock/llama-3", Kind: "turn", Text: text, Round: round}); err != nil {
				t.Fatal(err)
			}
		}
	}
	verdict := "## Verdict\n\nUse the formatter. **Consensus:** partial.\n\n> Skeptic still dissents."
	if _, err := r.Record(room.Post{Seat: room.SeatModerator, Agent: "mock/llama-3", Kind: room.KindSummary, Text: verdict}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: "complete"}); err != nil {
		t.Fatal(err)
	}
	return pinTimes(t, r)
}

// referenceRoom opens a room written by the original TypeScript server. The
// fixtures are only read.
func referenceRoom(t *testing.T, name string) *room.Room {
	t.Helper()
	r, err := room.Open(filepath.Join(roomtest.ReferenceRooms(), name), name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// golden compares got with testdata/<test>/<name>.golden, rewriting it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", strings.Split(t.Name(), "/")[0], name+".golden")
	if *update {
		writeFile(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v (run go test -update to create it)", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update after checking the change):\n%s", path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant: %q\ngot:  %q", i+1, w, g)
		}
	}
	return "(same lines, different bytes)"
}

// The format's JSON and file writing come from roomtest.
var (
	encode    = roomtest.Encode
	writeFile = roomtest.WriteFile
)
