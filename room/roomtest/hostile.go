package roomtest

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// The hostile room: agent text that tries every way we know to run script
// in a browser, load a resource, escape its message or drive a terminal.
// The transcript tests check that none of it acts in a page; the screens'
// tests check that all of it is shown as text.

// HostilePayload is script that would leave marks if it ever ran: the page
// title, an attribute on the root element, and requests to the beacon.
func HostilePayload(beacon, tag string) string {
	return "document.title='PWNED';document.documentElement.setAttribute('data-pwned','" + tag +
		"');fetch('" + beacon + "/js-" + tag + "');new Image().src='" + beacon + "/img-" + tag + "'"
}

// HostileTexts are message texts that try every way we know to run script,
// load a resource, escape their message or drive a terminal.
func HostileTexts(beacon string) []string {
	p := func(tag string) string { return HostilePayload(beacon, tag) }
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

// HostileRoom writes under cwd the room name, a room whose every field is
// an attack (the topic, agent labels, kinds, seats, server.log labels, a
// file name), its messages the HostileTexts in order
// (message i+1 holds text i), and returns its folder. Script in it reaches
// for beacon.
func HostileRoom(t testing.TB, cwd, name, beacon string) string {
	t.Helper()
	p := func(tag string) string { return HostilePayload(beacon, tag) }
	t0 := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	at := func(s int) string { return t0.Add(time.Duration(s) * time.Second).Format("2006-01-02T15:04:05.000Z") }
	dir := filepath.Join(cwd, ".roundtable", name)
	WriteFile(t, filepath.Join(dir, "room.json"), Encode(t, map[string]any{
		"room": name, "topic": "</title><script>" + p("topic") + "</script>\x1b]0;pwned\x07",
		"budget": 99, "spec": "SPEC-hostile.md", "createdAt": at(0),
	}))
	type msg struct {
		Seq   int    `json:"seq"`
		At    string `json:"at"`
		Seat  string `json:"seat"`
		Agent string `json:"agent"`
		Kind  string `json:"kind"`
		Text  string `json:"text"`
	}
	var msgs []msg
	for i, text := range HostileTexts(beacon) {
		seat, kind := "lead", "brief"
		if i%2 == 1 {
			seat, kind = "peer", "objection"
		}
		msgs = append(msgs, msg{i + 1, at(i + 1), seat, "codex", kind, text})
	}
	n := len(msgs)
	msgs = append(msgs,
		msg{n + 1, at(n + 1), `"><script>` + p("seat") + `</script>`, `<img src=x onerror="` + p("agent") + `">`, `" onmouseover="` + p("kind"), "seat, agent and kind are attacks"},
		msg{n + 2, at(n + 2), "lead", "\x1b[2J\x1b[Hclear", "brief\nsecond line", "my agent label is an attack"},
	)
	for i, m := range msgs {
		WriteFile(t, filepath.Join(dir, "messages", fmt.Sprintf("%04d-%d-%06x.json", m.Seq, t0.Add(time.Duration(m.Seq)*time.Second).UnixMilli(), i)), Encode(t, m))
	}
	WriteFile(t, filepath.Join(dir, "server.log"), []byte("2026-11-30T09:00:00.000Z connect seat=lead agent=\"<svg onload=alert(1)>\\u001b[31m\" pid=1\n"+
		"2026-11-30T09:00:00.100Z connect seat=peer agent=codex pid=2\n"))
	WriteFile(t, filepath.Join(dir, "messages", "9999-1-<svg onload=alert(1)>.json"), []byte("not json <script>alert(1)</script>"))
	return dir
}
