package page

import (
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

func liveDebate(t *testing.T, texts ...string) *room.Room {
	t.Helper()
	personas := []string{"Skeptic", `"><b>Optimist</b>`, "Pragmatist"}
	r, _, err := room.Create(t.TempDir(), "tabs", room.CreateOptions{
		Topic: "Tabs or <i>spaces</i>?", Mode: room.ModeDebate, Agents: personas, Rounds: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if _, err := r.Record(room.Post{Seat: personas[i%3], Agent: "mock", Kind: "turn", Text: text, Round: 1 + i/3}); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// column returns the HTML of the column of seat (its data-seat, escaped
// as the page writes it).
func column(t *testing.T, page, seatAttr string) string {
	t.Helper()
	i := strings.Index(page, `data-seat="`+seatAttr+`"`)
	if i < 0 {
		t.Fatalf("no column for %s in:\n%s", seatAttr, page)
	}
	rest := page[i:]
	if j := strings.Index(rest, "</section>"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

func TestPageDrawsOneColumnPerSeatWithItsTurns(t *testing.T) {
	r := liveDebate(t, "Tabs **differ**.", "Editors solved it.", "Use the formatter.", "Still no.")
	rec := httptest.NewRecorder()
	if err := Page(rec, r, Options{Stream: "/api/sessions/tabs/stream", Parts: "/rooms/tabs/parts", After: "4.0", Markdown: "/m", HTML: "/h"}); err != nil {
		t.Fatal(err)
	}
	page := rec.Body.String()
	if n := strings.Count(page, `<section class="col `); n != 3 {
		t.Fatalf("%d columns, want 3 (one per persona, none for the moderator)", n)
	}
	sk := column(t, page, "Skeptic")
	if !strings.Contains(sk, "<strong>differ</strong>") || !strings.Contains(sk, "Still no.") || strings.Contains(sk, "Editors") {
		t.Errorf("the Skeptic's column does not hold exactly its turns, rendered:\n%s", sk)
	}
	if !strings.Contains(column(t, page, "&#34;&gt;&lt;b&gt;Optimist&lt;/b&gt;"), "Editors solved it.") {
		t.Errorf("a persona with markup in its name lost its column or its turn")
	}
	for _, want := range []string{`data-seq="4"`, `data-after="4.0"`, `data-rounds="2"`, `data-stream="/api/sessions/tabs/stream"`, "Tabs or &lt;i&gt;spaces&lt;/i&gt;?"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	csp := rec.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "style-src 'sha256-"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %s", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("CSP allows something unsafe: %q", csp)
	}
	// The CSP names the page's one style sheet: any other inline style
	// (an attribute) would not apply.
	if regexp.MustCompile(`\sstyle=`).MatchString(page) {
		t.Errorf("the page has a style attribute, which its CSP blocks")
	}
	if n := strings.Count(page, "<script"); n != 1 || !strings.Contains(page, `<script src="`+ScriptPath+`" defer></script>`) {
		t.Errorf("%d script elements; want only the page's own", n)
	}
}

func TestPartsAreWhatCameAfter(t *testing.T) {
	r := liveDebate(t, "one", "two", "three")
	if _, err := r.AddNote(room.NoteFromUser, "consider *cost*", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Record(room.Post{Seat: room.SeatModerator, Agent: "mock", Kind: room.KindSummary, Text: "## Verdict\n\nSpaces."}); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	if err := Parts(rec, r, 2, 0); err != nil {
		t.Fatal(err)
	}
	var got PartsReply
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, p := range got.Parts {
		switch {
		case p.Note:
			kinds = append(kinds, "note")
		case p.Verdict:
			kinds = append(kinds, "verdict")
		default:
			kinds = append(kinds, p.Seat)
		}
	}
	if strings.Join(kinds, ",") != "Pragmatist,note,verdict" {
		t.Fatalf("parts after seq 2: %v, want the third turn, the note and the verdict", kinds)
	}
	if !strings.Contains(got.Parts[1].HTML, "<em>cost</em>") || !strings.Contains(got.Parts[2].HTML, "Spaces.") {
		t.Errorf("the parts are not rendered as the export renders them: %+v", got.Parts)
	}
	if seq, note := PartsQuery(map[string][]string{"seq": {"7"}, "note": {"-3"}}); seq != 7 || note != 0 {
		t.Errorf("PartsQuery: %d %d", seq, note)
	}
}

// TestHostileRoomPageIsInert: every hostile text is drawn as the export
// draws it: no script but the page's own, no event handler, no URL that
// runs script.
func TestHostileRoomPageIsInert(t *testing.T) {
	texts := roomtest.HostileTexts("http://127.0.0.1:9/beacon")
	r := liveDebate(t, texts...)
	rec := httptest.NewRecorder()
	if err := Page(rec, r, Options{Stream: "/s", Parts: "/p"}); err != nil {
		t.Fatal(err)
	}
	body := rec.Body.String()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	scripts := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script":
				scripts++
			case "form":
				// The page's own sign-out button, in its header; no other.
				if attr(n, "class") != "signout" || attr(n, "action") != LogoutPath || attr(n, "method") != "post" || inside(n, "main") {
					t.Errorf("the hostile room's page has a <form> of its content: %v", n.Attr)
				}
			case "img", "iframe", "object", "embed", "svg", "math", "link", "base", "input":
				t.Errorf("the hostile room's page has a <%s> element", n.Data)
			}
			for _, a := range n.Attr {
				k := strings.ToLower(a.Key)
				if strings.HasPrefix(k, "on") || k == "src" && n.Data != "script" || k == "style" || k == "data-pwned" {
					t.Errorf("the hostile room's page has %s=%q on <%s>", a.Key, a.Val, n.Data)
				}
				if (k == "href" || k == "src") && strings.Contains(strings.ToLower(a.Val), "javascript:") {
					t.Errorf("the hostile room's page links to script: %q", a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if scripts != 1 {
		t.Errorf("%d script elements in a hostile room's page, want the page's own only", scripts)
	}
	// Drawn, as text: not dropped.
	if !strings.Contains(body, "&lt;script&gt;") {
		t.Errorf("the hostile texts' markup is not shown as text")
	}
}

// attr is n's attribute key, "" when it has none.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// inside reports whether n is within an element named tag.
func inside(n *html.Node, tag string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.Data == tag {
			return true
		}
	}
	return false
}
