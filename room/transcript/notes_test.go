package transcript

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// pinNoteTimes gives every note of r a fixed time, like pinTimes does for
// messages, and opens the room again.
func pinNoteTimes(t *testing.T, r *room.Room) *room.Room {
	t.Helper()
	dir := room.NotesDir(r.Dir())
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		seq, ok := room.ParseMessageFileName(e.Name())
		if !ok {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		m["at"] = t0.Add(time.Duration(seq)*61*time.Second + 30*time.Second).Format(room.TimeLayout)
		writeFile(t, path, encode(t, m))
	}
	again, err := room.Open(r.Cwd(), filepath.Base(r.Dir()))
	if err != nil {
		t.Fatal(err)
	}
	return again
}

// debateNotesRoom is a persona debate in which the user spoke twice: after
// round 1 (a note with Markdown and a hostile line), and after the last
// turn, before the verdict.
func debateNotesRoom(t *testing.T) *room.Room {
	t.Helper()
	personas := []string{"Skeptic", "Optimist"}
	r, _, err := room.Create(t.TempDir(), "debate-notes", room.CreateOptions{
		Topic: "Tabs or spaces?", Mode: room.ModeDebate, Agents: personas, Rounds: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	note := func(text string, round int) {
		if _, err := r.AddNote(room.NoteFromUser, text, round); err != nil {
			t.Fatal(err)
		}
	}
	for round := 1; round <= 2; round++ {
		for _, p := range personas {
			if _, err := r.Record(room.Post{Seat: p, Agent: "mock", Kind: "turn", Text: p + " speaks in round " + string(rune('0'+round)) + ".", Round: round}); err != nil {
				t.Fatal(err)
			}
		}
		if round == 1 {
			note("What about **Makefiles**? They need tabs.\n\n<script>alert(1)</script>\x1b[2J", 1)
		}
	}
	note("Decide for the Go code only.", 2)
	if _, err := r.Record(room.Post{Seat: room.SeatModerator, Agent: "mock", Kind: room.KindSummary, Text: "**Decision:** tabs in Go."}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: "complete"}); err != nil {
		t.Fatal(err)
	}
	return pinNoteTimes(t, pinTimes(t, r))
}

// mcpNotesRoom is an MCP room with host notes: one before any post, one
// after the peer's first reply.
func mcpNotesRoom(t *testing.T) *room.Room {
	t.Helper()
	r, _, err := room.Create(t.TempDir(), "steered", room.CreateOptions{Topic: "Retry webhooks?", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	note := func(text string) {
		if _, err := r.AddNote(room.NoteFromHost, text, 0); err != nil {
			t.Fatal(err)
		}
	}
	note("Keep it under a page.")
	for i, p := range []room.Post{
		{Seat: room.SeatLead, Agent: "opus", Kind: "brief", Text: "Retry with backoff?"},
		{Seat: room.SeatPeer, Agent: "codex", Kind: "objection", Text: "Idempotency first."},
		{Seat: room.SeatLead, Agent: "opus", Kind: "decision", Text: "Key by event id."},
	} {
		if _, _, err := r.PostMessage(p); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			note("Ask the payments team before deciding.")
		}
	}
	return pinNoteTimes(t, pinTimes(t, r))
}

// TestNotesInExports: notes show in both exports as bands where they were
// given (after the message numbered AfterSeq), named as the user's or the
// host's, sanitized, and are not counted as messages.
func TestNotesInExports(t *testing.T) {
	t.Run("debate", func(t *testing.T) {
		r := debateNotesRoom(t)
		md := renderMD(t, r)
		assertTerminalSafe(t, md)
		inOrder(t, md,
			"- **Messages:** 5", "- **Notes:** 2",
			"## Round 1", "### Skeptic", "### Optimist",
			"> **The user's note** · 09:01:31 UTC · note 1\n>\n> What about **Makefiles**? They need tabs.\n>\n> ",
			"## Round 2", "### Skeptic", "### Optimist",
			"> **The user's note** · 09:02:32 UTC · note 2\n>\n> Decide for the Go code only.",
			"## Verdict", "**Decision:** tabs in Go.")
		if strings.Contains(md, "\x1b") {
			t.Fatal("a note's escape sequence reached the Markdown")
		}
		page := renderPage(t, r)
		assertSafePage(t, page)
		inOrder(t, page,
			"<dt>Notes</dt><dd>2</dd>", `id="m2"`,
			`<article class="band" role="note" id="n1">`, "✎ The user&#39;s note", `<time datetime="2026-11-30T09:01:31`, "<strong>Makefiles</strong>",
			`id="m3"`, `id="m4"`, `<article class="band" role="note" id="n2">`, "Decide for the Go code only.", `class="verdict"`)
		if strings.Contains(page, "<script>alert") {
			t.Fatal("a note's raw HTML reached the page")
		}
	})
	t.Run("mcp", func(t *testing.T) {
		r := mcpNotesRoom(t)
		md := renderMD(t, r)
		inOrder(t, md,
			"- **Messages:** 3", "- **Notes:** 2",
			"## Round 1", "> **The host's steering note** · 09:01:31 UTC · note 1\n>\n> Keep it under a page.",
			"### lead · opus · brief", "### peer · codex · objection",
			"> **The host's steering note** · 09:02:32 UTC · note 2\n>\n> Ask the payments team before deciding.",
			"## Round 2", "### lead · opus · decision")
		page := renderPage(t, r)
		inOrder(t, page, `id="n1"`, "Keep it under a page.", `id="m1"`, `id="m2"`, `id="n2"`, `id="m3"`)
	})
}

// TestMergeNotesPlacement: notes after a missing message go after the
// nearest one before it; several notes after one message keep their
// order; a room with notes and no message still shows them.
func TestMergeNotesPlacement(t *testing.T) {
	d := &doc{Groups: []group{
		{Title: "Round 1", Entries: []entry{{Seq: 1}, {Seq: 2}}},
		{Title: "Round 2", Entries: []entry{{Seq: 4}}},
	}, Verdicts: []entry{{Seq: 5}}}
	mergeNotes(d, []room.Note{
		{Seq: 1, AfterSeq: 2, Text: "a"},
		{Seq: 2, AfterSeq: 2, Text: "b"},
		{Seq: 3, AfterSeq: 3, Text: "c"},
		{Seq: 4, AfterSeq: 0, Text: "d"},
		{Seq: 5, AfterSeq: 5, Text: "e"},
	}, time.TimeOnly)
	var got []string
	for _, g := range d.Groups {
		for _, e := range g.Entries {
			got = append(got, label(e))
		}
		got = append(got, "|")
	}
	for _, e := range d.Verdicts {
		got = append(got, label(e))
	}
	if want := "n:d m1 m2 n:a n:b n:c | m4 | m5 n:e"; strings.Join(got, " ") != want {
		t.Fatalf("placed as %q, want %q", strings.Join(got, " "), want)
	}
	empty := &doc{}
	mergeNotes(empty, []room.Note{{Seq: 1, Text: "x"}}, time.TimeOnly)
	if len(empty.Groups) != 1 || len(empty.Groups[0].Entries) != 1 || !empty.Groups[0].Entries[0].Note {
		t.Fatalf("a note in a room without messages: %+v", empty.Groups)
	}
}

func label(e entry) string {
	if e.Note {
		return "n:" + e.Text
	}
	return "m" + string(rune('0'+e.Seq))
}

// inOrder fails unless every want is in s, each after the one before.
func inOrder(t *testing.T, s string, wants ...string) {
	t.Helper()
	at := 0
	for _, w := range wants {
		i := strings.Index(s[at:], w)
		if i < 0 {
			t.Fatalf("%q is missing after byte %d of\n%s", w, at, s)
		}
		at += i + len(w)
	}
}
