package transcript

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// roomCase is a room the golden tests render.
type roomCase struct {
	name string
	open func(t *testing.T) *room.Room
}

func roomCases() []roomCase {
	return []roomCase{
		{"closed-mcp", closedMCPRoom},
		{"open-mcp", openMCPRoom},
		{"debate", debateRoom},
		{"debate-notes", debateNotesRoom},
		{"mcp-notes", mcpNotesRoom},
		{"reference-cache-design", func(t *testing.T) *room.Room { return referenceRoom(t, "cache-design") }},
		{"reference-open-room", func(t *testing.T) *room.Room { return referenceRoom(t, "open-room") }},
		{"hostile", func(t *testing.T) *room.Room { return hostileRoom(t, goldenBeacon) }},
		{"empty", func(t *testing.T) *room.Room {
			return writeRoom(t, "empty", room.Config{Room: "empty", Topic: "Nothing said yet", Budget: 4, Spec: "SPEC-empty.md", CreatedAt: at(0)}, nil, nil)
		}},
	}
}

func renderMD(t *testing.T, r *room.Room) string {
	t.Helper()
	var b bytes.Buffer
	if err := Markdown(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func renderPage(t *testing.T, r *room.Room) string {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestMarkdown(t *testing.T) {
	for _, c := range roomCases() {
		t.Run(c.name, func(t *testing.T) {
			out := renderMD(t, c.open(t))
			assertTerminalSafe(t, out)
			golden(t, c.name, []byte(out))
		})
	}
}

func TestHTML(t *testing.T) {
	for _, c := range roomCases() {
		t.Run(c.name, func(t *testing.T) {
			out := renderPage(t, c.open(t))
			assertSafePage(t, out)
			golden(t, c.name, []byte(out))
		})
	}
}

// assertTerminalSafe fails when s holds a control character other than a
// newline or a tab, or a C1 control.
func assertTerminalSafe(t *testing.T, s string) {
	t.Helper()
	for i, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			t.Fatalf("control character %U at byte %d: %q", r, i, s[max(0, i-40):min(len(s), i+40)])
		}
	}
}

func TestMarkdownContent(t *testing.T) {
	tests := []struct {
		name    string
		open    func(t *testing.T) *room.Room
		want    []string // in this order
		notWant []string
	}{
		{
			name: "closed MCP room",
			open: closedMCPRoom,
			want: []string{
				"# Retry failed webhooks with backoff?", "- **Mode:** MCP room", "- **Messages:** 5", "- **Rounds:** 3 of 3",
				"  - lead: opus-5", "  - peer: codex", "- **Duration:** 2026-11-30 09:00:00 → 09:03:08 UTC (3m8s)",
				"## Round 1", "### lead · opus-5 · brief · 09:00:00 UTC · #1", "#### Brief",
				"### peer · codex · objection · 09:00:47 UTC · #2", "## Round 2", "## Round 3",
				"## End", "Closed at 2026-11-30 09:04:08 UTC: agreement reached. Spec: SPEC-retry-policy.md.",
			},
			notWant: []string{"Still open", "Note:", "(not found)"},
		},
		{
			name: "open MCP room",
			open: openMCPRoom,
			want: []string{
				"- **Rounds:** 2 of 2", "  - lead: opus-5", "  - peer: codex, codex-2",
				"- **Duration:** 2026-11-30 09:00:00 → 2026-12-01 00:00:00 UTC (15h0m0s)",
				"> **Note:** 2 message files could not be read and are not shown:",
				"`0004-1796050000000-aaaaaa.json`: not a message:", "`0005-1796050000000-bbbbbb.json`: not a message: no seat",
				"## Before the first lead post", "### peer · codex · answer · 2026-11-30 09:00:00 UTC · #1",
				"## Round 1", "### lead · opus-5 · 2026-11-30 09:01:00 UTC · #2", "Brief without a kind.\nSecond line.",
				"### peer · codex-2 · objection · time unknown (yesterday-ish) · #3",
				"## Round 2", "```sh\nmake all\n```\n\n## End",
				"Still open: no closed.json yet. It is the peer's turn. Every round of the budget is used",
			},
			notWant: []string{"Closed at", ".tmp-12345", "\r"},
		},
		{
			name: "debate",
			open: debateRoom,
			want: []string{
				"# Tabs or spaces?", "- **Mode:** persona debate", "- **Messages:** 7", "- **Rounds:** 2 of 2",
				"- **Personas:**", "  - Skeptic: mock/llama-3", "  - Optimist: mock/llama-3", "  - Pragmatist: mock/llama-3", "  - moderator: mock/llama-3",
				"## Round 1", "### Skeptic · mock/llama-3 · turn", "### Optimist", "### Pragmatist",
				"## Round 2", "### Skeptic", "### Optimist", "### Pragmatist",
				"## Verdict", "### moderator · mock/llama-3 · summary", "#### Verdict\n\nUse the formatter.",
				"## End", "Closed at 2026-11-30 09:05:42 UTC: complete.",
			},
			notWant: []string{"Spec:", "Still open", "Before the first lead post"},
		},
		{
			name: "reference closed room",
			open: func(t *testing.T) *room.Room { return referenceRoom(t, "cache-design") },
			want: []string{
				"# Should the cache be write-through", "- **Messages:** 8", "- **Rounds:** 4 of 4",
				"  - lead: opus-5", "  - peer: codex", "- **Duration:** 2026-11-30 14:51:16 → 14:51:22 UTC (6s)",
				"## Round 1", "### lead · opus-5 · brief · 14:51:16 UTC · #1", "##### Brief: should the cache be write-through?",
				"## Round 4", "### peer · codex · answer · 14:51:22 UTC · #8",
				"Closed at 2026-11-30 14:51:23 UTC: agreement reached. Spec: SPEC-cache-design.md.",
			},
		},
		{
			name: "reference open room",
			open: func(t *testing.T) *room.Room { return referenceRoom(t, "open-room") },
			want: []string{
				"- **Messages:** 3", "- **Rounds:** 2 of 6", "### peer · codex · objection", "## Round 2",
				"### lead · opus-5 · challenge", "Still open: no closed.json yet. It is the peer's turn.",
			},
			notWant: []string{"Closed at", "Every round"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := renderMD(t, tt.open(t))
			rest := out
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("missing (or out of order) %q in:\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
			for _, nw := range tt.notWant {
				if strings.Contains(out, nw) {
					t.Errorf("unexpected %q in:\n%s", nw, out)
				}
			}
		})
	}
}

func TestHTMLContent(t *testing.T) {
	out := renderPage(t, openMCPRoom(t))
	for _, want := range []string{
		`<h1>Split the monolith?</h1>`,
		`<aside class="note" role="note">`,
		`<li><code>0004-1796050000000-aaaaaa.json</code>: not a message:`,
		`<h2 class="round">Before the first lead post</h2>`,
		`<time datetime="2026-11-30T09:00:00.000Z">2026-11-30 09:00:00 UTC</time>`,
		`<span>time unknown (yesterday-ish)</span>`,
		`<pre><code class="language-sh">make all`,
		`<footer class="end open">`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	if n := strings.Count(out, `<article class="msg `); n != 4 {
		t.Errorf("%d messages rendered, want 4", n)
	}
}

// TestHTMLStyleHash checks that the Content-Security-Policy names the hash
// of the page's one style sheet exactly; a mismatch would leave the page
// unstyled in every browser.
func TestHTMLStyleHash(t *testing.T) {
	out := renderPage(t, debateRoom(t))
	m := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindAllStringSubmatch(out, -1)
	if len(m) != 1 {
		t.Fatalf("%d style elements, want 1", len(m))
	}
	csp := contentSecurityPolicy(m[0][1])
	// The attribute is escaped as html/template does it ("'" and "+", which
	// a base64 hash may hold, too).
	if !strings.Contains(out, `content="`+htmlText.Replace(csp)+`"`) {
		t.Errorf("the page's CSP does not carry the hash of its style sheet %q", csp)
	}
	for _, class := range []string{".s0{--l:", ".s3{--l:#475569;--d:#cbd5e1}"} {
		if !strings.Contains(m[0][1], class) {
			t.Errorf("style sheet lacks %q", class)
		}
	}
}

func TestUnreadableRoom(t *testing.T) {
	r := openMCPRoom(t)
	if err := os.RemoveAll(r.MessagesDir()); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err := Markdown(&b, r)
	if !errors.Is(err, room.ErrNoRoom) {
		t.Fatalf("Markdown on a room without messages folder: %v, want ErrNoRoom", err)
	}
	if err := HTML(&b, r); !errors.Is(err, room.ErrNoRoom) {
		t.Fatalf("HTML on a room without messages folder: %v, want ErrNoRoom", err)
	}
	if b.Len() != 0 {
		t.Errorf("wrote %d bytes for a room that cannot be read", b.Len())
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	r := referenceRoom(t, "open-room")
	if err := Markdown(failWriter{}, r); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Markdown: %v, want the writer's error", err)
	}
	if err := HTML(failWriter{}, r); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("HTML: %v, want the writer's error", err)
	}
}

func TestReferenceRoomsUntouched(t *testing.T) {
	// Rendering only reads: no file appears in the fixtures.
	before := listTree(t, roomtest.ReferenceRooms())
	renderMD(t, referenceRoom(t, "cache-design"))
	renderPage(t, referenceRoom(t, "open-room"))
	after := listTree(t, roomtest.ReferenceRooms())
	if strings.Join(before, "\n") != strings.Join(after, "\n") {
		t.Errorf("rendering changed the fixtures:\nbefore %v\nafter  %v", before, after)
	}
}

func listTree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, p+" "+fi.ModTime().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
