package transcript

import (
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

// goldenBeacon is the address the hostile room of the golden files tries to
// reach; the browser test uses a live server's address instead.
const goldenBeacon = "http://127.0.0.1:9"

// hostilePayload is script that would leave marks if it ever ran: the page
// title, an attribute on the root element, and requests to the beacon.
func hostilePayload(beacon, tag string) string {
	return "document.title='PWNED';document.documentElement.setAttribute('data-pwned','" + tag +
		"');fetch('" + beacon + "/js-" + tag + "');new Image().src='" + beacon + "/img-" + tag + "'"
}

// hostileTexts are message texts that try every way we know to run script,
// load a resource, escape their message or drive a terminal.
func hostileTexts(beacon string) []string {
	p := func(tag string) string { return hostilePayload(beacon, tag) }
	return []string{
		"<script>" + p("script") + "</script>\n\nInline <script>" + p("inline-script") + "</script> too.",
		`<img src="` + beacon + `/img" onerror="` + p("onerror") + `">` + "\n\n" + `<body onload="` + p("onload") + `">`,
		"[js link](javascript:" + p("jslink") + ") [JS](JAVASCRIPT:alert(1)) [tab](java\tscript:alert(1)) " +
			"[entity](&#106;avascript:alert(1)) [vb](vbscript:msgbox(1))\n\n" +
			"[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) <javascript:alert(1)>\n\n" +
			`<a href="javascript:` + p("rawlink") + `">raw link</a> [ref][evil]` + "\n\n[evil]: javascript:alert(1)",
		`<iframe src="` + beacon + `/iframe" onload="` + p("iframe") + `"></iframe>` + "\n\n" +
			`<object data="` + beacon + `/object"></object><embed src="` + beacon + `/embed">`,
		`<svg onload="` + p("svg") + `"><script>` + p("svg-script") + `</script><animate onbegin="` + p("animate") + `" attributeName="x" dur="1s"/></svg>`,
		"<style>@import url(" + beacon + "/import); body{background:url(" + beacon + "/bg)}</style>\n\n" +
			`<link rel="stylesheet" href="` + beacon + `/link"><meta http-equiv="refresh" content="0;url=` + beacon + `/refresh">` +
			`<base href="` + beacon + `/base/">`,
		"<!-- close the page -->\n</div></article></section></main></footer></body></html>\n<script>" + p("breakout") + "</script>\n\n" +
			"--> <!-- unterminated comment swallowing the rest <p>",
		"</textarea></style></title></noscript><script>" + p("rawtext") + "</script>\n\n" +
			`<noscript><p title="</noscript><img src=x onerror=` + p("noscript") + `>"></noscript>`,
		"![pixel](" + beacon + "/md-image) ![js](javascript:alert(1)) ![data](data:image/png;base64,iVBORw0KGgo=)\n\n" +
			`<video src="` + beacon + `/video"></video><audio src="` + beacon + `/audio"></audio>`,
		`<form action="` + beacon + `/form"><input autofocus onfocus="` + p("onfocus") + `"><button>go</button></form>` + "\n\n" +
			`<details open ontoggle="` + p("ontoggle") + `">x</details>` +
			`<math><mtext><table><mglyph><style><img src=x onerror="` + p("mxss") + `">`,
		`[title](https://example.com "a\" onmouseover=\"` + p("title") + `")` + "\n\n```html\n</code></pre><script>" + p("fenced") + "</script>\n```\n\n" +
			"| a | b |\n|---|---|\n| <script>" + p("cell") + "</script> | <img src=x onerror=alert(1)> |",
		"ANSI: \x1b[31mred\x1b[0m, OSC 52 clipboard \x1b]52;c;cm0gLXJmIH4=\x07, title \x1b]0;owned\x1b\\, " +
			"C1 CSI \u009b2J, bell \a, backspace \b\b, NUL \x00, DEL \x7f, bidi \u202eevil\u202c, raw C1 byte \x9b.",
	}
}

// hostileRoom is a room whose every field is an attack: the topic, agent
// labels, kinds, seats, server.log labels, file names, the close reason and
// the spec path.
func hostileRoom(t *testing.T, beacon string) *room.Room {
	t.Helper()
	p := func(tag string) string { return hostilePayload(beacon, tag) }
	cfg := room.Config{
		Room:      "../../../escape",
		Topic:     "</title><script>" + p("topic") + "</script>\x1b]0;pwned\x07",
		Budget:    99,
		Spec:      "SPEC-hostile.md",
		CreatedAt: at(0),
	}
	var msgs []fileMsg
	for i, text := range hostileTexts(beacon) {
		seat, kind := room.SeatLead, "brief"
		if i%2 == 1 {
			seat, kind = room.SeatPeer, "objection"
		}
		msgs = append(msgs, fileMsg{Seq: i + 1, At: at(float64(i)), Seat: seat, Agent: "codex", Kind: kind, Text: text})
	}
	n := len(msgs)
	msgs = append(msgs,
		fileMsg{
			Seq: n + 1, At: at(float64(n)), Seat: `"><script>` + p("seat") + `</script>`, Agent: `<img src=x onerror="` + p("agent") + `">`,
			Kind: `" onmouseover="` + p("kind"), Text: "seat, agent and kind are attacks",
		},
		fileMsg{
			Seq: n + 2, At: `"><script>` + p("at") + `</script>`, Seat: room.SeatLead, Agent: "\x1b[2J\x1b[Hclear", Kind: "brief\nsecond line",
			Text: "my time is an attack",
		},
	)
	extra := map[string]string{
		"server.log": "2026-11-30T09:00:00.000Z connect seat=lead agent=\"<svg onload=alert(1)>\\u001b[31m\" pid=1\n" +
			"2026-11-30T09:00:00.100Z connect seat=peer agent=codex pid=2\n",
		"messages/9999-1-<svg onload=alert(1)>.json": "not json <script>alert(1)</script>",
		"closed.json": "{\"reason\": \"<script>" + p("reason") + "</script>\\u001b]52;c;eA==\\u0007\", " +
			"\"specPath\": \"javascript:alert(1)\", \"at\": \"" + at(60) + "\"}\n",
	}
	return writeRoom(t, "hostile", cfg, msgs, extra)
}

// hostileMessageCount is how many messages hostileRoom holds.
func hostileMessageCount() int { return len(hostileTexts(goldenBeacon)) + 2 }

func TestHostileRoomHasEveryAttack(t *testing.T) {
	// The corpus itself is what the other tests trust; check it carries
	// what the issue lists, so that nobody trims it by accident.
	all := strings.Join(hostileTexts(goldenBeacon), "\n")
	for _, want := range []string{"<script>", "onerror=", "onload=", "javascript:", "data:", "<iframe", "<svg onload", "<style>", "<link ", "<!--", "</body></html>", "\x1b[", "\x1b]52;"} {
		if !strings.Contains(all, want) {
			t.Errorf("the hostile corpus lacks %q", want)
		}
	}
}
