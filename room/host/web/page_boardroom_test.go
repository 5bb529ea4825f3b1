package web_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// The boardroom: the live page and the index as seed 002's "AI
// boardroom" has them, in headless Chromium.

// colStyle is what a column looks like, as the browser computed it.
type colStyle struct {
	Key, Shadow, Background, Border, Top string
	Lit                                  bool
}

const colStyles = `[...document.querySelectorAll('.col')].map(c => { const s = getComputedStyle(c); return {key: c.dataset.key, shadow: s.boxShadow, background: s.backgroundColor, border: s.borderLeftColor, top: s.borderTopColor, lit: c.classList.contains('lit')}; })`

// settledColumns are the columns' computed styles at a moment when one
// column is lit and no column's transition runs.
func settledColumns(ctx context.Context, b *browser) []colStyle {
	b.t.Helper()
	for {
		var cols []colStyle
		b.eval(`(() => { const cs = [...document.querySelectorAll('.col')]; if (cs.some(c => c.getAnimations().length) || cs.filter(c => c.classList.contains('lit')).length !== 1) return null; return `+colStyles+`; })()`, &cols)
		if cols != nil {
			return cols
		}
		select {
		case <-ctx.Done():
			b.t.Fatalf("no moment with one column lit and no transition running: %v", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// darkMode makes the page prefer a dark color scheme (true) or a light one.
func (b *browser) darkMode(dark bool) {
	b.t.Helper()
	v := "light"
	if dark {
		v = "dark"
	}
	b.do("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "prefers-color-scheme", "value": v}}}, nil)
}

// agentsJSON is an agents list of the API with these names.
func agentsJSON(names ...string) string {
	type agent struct {
		Name    string `json:"name"`
		Persona string `json:"persona"`
	}
	as := make([]agent, len(names))
	for i, n := range names {
		as[i] = agent{n, "a reviewer who weighs the decision from the angle of " + n}
	}
	data, err := json.Marshal(as)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// TestBoardroomSpeakerIsLit: while a persona speaks, its column looks
// apart from the others as the browser computes it (ring, tint, border in
// its color), in light and in dark; the persona is matched by the seat's
// own name, so one whose name holds a right-to-left override (U+202E) is
// lit too, its name isolated on the page.
func TestBoardroomSpeakerIsLit(t *testing.T) {
	h := startHost(t, t.TempDir())
	defer h.stop()
	rtl := "\u202eRTL Reviewer"
	id := h.create(`{"topic":"Should we adopt GraphQL?","rounds":2,"agents":` + agentsJSON(rtl, "Product Manager", "Security Reviewer") + `}`)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 800)
	b.navigate(h.base + "/rooms/" + id)
	b.signIn(ctx, h.starter)
	shots := artifacts(t)
	for i, dark := range []bool{false, true} {
		b.darkMode(dark)
		if i == 0 {
			// Lit in round 2, when every column has a turn to compare.
			b.waitFor(ctx, "the right-to-left persona lit, speaking in round 2", `(() => { const c = document.querySelector('.col.lit'); return document.querySelectorAll('.col .turns article.msg').length >= 3 && c && c.dataset.key === `+jsString(rtl)+` && c.querySelector('.stream').textContent.length > 300 && document.querySelector('#state bdi')?.textContent === '<U+202E>RTL Reviewer'; })()`)
		}
		// Looked at once the columns' transitions have run, with one lit
		// (the turn may have passed on since: any speaker will do here;
		// the wait above saw the right-to-left one lit).
		cols := settledColumns(ctx, b)
		var lit *colStyle
		for i := range cols {
			if cols[i].Lit {
				lit = &cols[i]
			}
		}
		if lit.Shadow == "none" || lit.Shadow == "" {
			t.Errorf("dark %v: the speaker's column has no ring (box-shadow %q)", dark, lit.Shadow)
		}
		for _, c := range cols {
			if c.Lit {
				continue
			}
			if c.Shadow == lit.Shadow || c.Background == lit.Background || c.Border == lit.Border {
				t.Errorf("dark %v: the speaker's column looks like %q's: lit %+v, other %+v", dark, c.Key, *lit, c)
			}
		}
		mode := map[bool]string{false: "light", true: "dark"}[dark]
		b.screenshot(filepath.Join(shots, "boardroom-live-"+mode+".png"))
	}
	// The name shows isolated (the state said who speaks with it, in a
	// <bdi>, in the wait above).
	var bidi string
	b.eval(`getComputedStyle([...document.querySelectorAll('.col')].find(c => c.dataset.key === `+jsString(rtl)+`).querySelector('.who')).unicodeBidi`, &bidi)
	if bidi != "isolate" {
		t.Errorf("the right-to-left name is not isolated: column header unicode-bidi %q", bidi)
	}
	if errs, outside := b.problems(h.base); len(errs)+len(outside) > 0 {
		t.Errorf("errors %v, requests elsewhere %v", errs, outside)
	}
}

// TestBoardroomTwelvePersonas: a debate of 12 personas at 1280 px keeps
// each column readable (at least 250 px wide), the columns scroll sideways
// within their own box (the page itself is no wider than the screen), and
// the speaker's column is brought into view as the turn passes.
func TestBoardroomTwelvePersonas(t *testing.T) {
	h := startHost(t, t.TempDir())
	defer h.stop()
	names := []string{
		"Product Manager", "Software Architect", "Security Reviewer", "Cost Optimizer", "SRE", "Data Engineer",
		"Designer", "Legal", "Support Lead", "QA Lead", "Finance", "CTO",
	}
	id := h.create(`{"topic":"Should we move the monolith to services?","rounds":1,"agents":` + agentsJSON(names...) + `}`)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 800)
	b.navigate(h.base + "/rooms/" + id)
	b.signIn(ctx, h.starter)
	var widths []float64
	b.eval(`[...document.querySelectorAll('.col')].map(c => c.getBoundingClientRect().width)`, &widths)
	if len(widths) != 12 {
		t.Fatalf("%d columns for 12 personas", len(widths))
	}
	for i, w := range widths {
		if w < 250 {
			t.Errorf("at 1280 px the column of %s is %.0f px wide, want at least 250", names[i], w)
		}
	}
	var chips int
	b.eval(`document.querySelectorAll('.strip .chip').length`, &chips)
	if chips != 12 {
		t.Errorf("the seat strip has %d chips, want 12", chips)
	}
	// The fifth persona speaks: its column, past the screen's first four,
	// is scrolled into view; then the eighth's.
	b.waitFor(ctx, "the fifth persona lit", `document.querySelector('.col.lit')?.dataset.key === 'SRE'`)
	b.waitFor(ctx, "its column scrolled into view", `(() => { const c = document.querySelector('.col.lit').getBoundingClientRect(), v = document.querySelector('.columns').getBoundingClientRect(); return c.left >= v.left - 1 && c.right <= v.right + 1; })()`)
	// And again as the turn passes further along.
	b.waitFor(ctx, "the eighth persona lit, in the strip too", `document.querySelector('.col.lit')?.dataset.key === 'Legal' && document.querySelector('.strip .chip.lit')?.textContent === 'Legal'`)
	b.waitFor(ctx, "its column scrolled into view", `(() => { const c = document.querySelector('.col.lit').getBoundingClientRect(), v = document.querySelector('.columns').getBoundingClientRect(); return c.left >= v.left - 1 && c.right <= v.right + 1; })()`)
	var wide bool
	b.eval("document.documentElement.scrollWidth > window.innerWidth + 1", &wide)
	if wide {
		t.Errorf("at 1280 px the page itself is wider than the screen")
	}
	shots := artifacts(t)
	b.waitFor(ctx, "the columns' transitions to end", `[...document.querySelectorAll('.col')].every(c => c.getAnimations().length === 0)`)
	b.screenshot(filepath.Join(shots, "boardroom-12-light.png"))
	b.darkMode(true)
	b.waitFor(ctx, "the columns' transitions to end", `[...document.querySelectorAll('.col')].every(c => c.getAnimations().length === 0)`)
	b.screenshot(filepath.Join(shots, "boardroom-12-dark.png"))
	if errs, outside := b.problems(h.base); len(errs)+len(outside) > 0 {
		t.Errorf("errors %v, requests elsewhere %v", errs, outside)
	}
}

// TestBoardroomStartsADebate: signed in with the starter token, the index
// has the start form and a sign-out button; a refused start shows the
// API's reason in the form; a good one opens the new room's page, which
// streams to the verdict. Back on the index, the room list puts the
// latest room first, with its time, and takes a room the API adds without
// reloading.
func TestBoardroomStartsADebate(t *testing.T) {
	h := startHost(t, t.TempDir())
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 900)
	b.navigate(h.base + "/rooms/none")
	b.waitFor(ctx, "the sign-in form", "document.getElementById('token')")
	b.eval("document.getElementById('token').value = "+jsString(h.starter)+"; document.forms[0].submit(); true", nil)
	b.waitFor(ctx, "a page after signing in", "document.readyState === 'complete' && !document.getElementById('token')")
	b.navigate(h.base + "/")
	b.waitFor(ctx, "the start form, ready", "document.getElementById('start') && !document.getElementById('start-debate').disabled")
	checkSignOut(ctx, t, b, "the index")

	// Refused by the API: the reason shows in the form.
	b.eval(`document.getElementById('topic').value = 'Should we adopt Rust?'; document.getElementById('rounds').value = '99'; document.getElementById('start-debate').click(); true`, nil)
	b.waitFor(ctx, "the API's refusal in the form", `!document.getElementById('start-error').hidden && document.getElementById('start-error').textContent.includes('rounds is 99')`)

	shots := artifacts(t)
	b.screenshot(filepath.Join(shots, "boardroom-index-refused.png"))

	// Started: two of the default panel and one persona of our own, with
	// stances and peer ranking.
	b.eval(`(() => {
		document.getElementById('rounds').value = '1';
		document.getElementById('stances').click();
		document.getElementById('rank').click();
		document.querySelectorAll('input[name=persona]')[2].click();
		document.getElementById('add-persona').click();
		const row = document.querySelector('#custom .custom-persona');
		row.querySelector('.pname').value = 'Cost Optimizer';
		row.querySelector('.pdesc').value = 'a finance-minded reviewer who scrutinizes spend';
		document.getElementById('start-debate').click();
		return true; })()`, nil)
	b.waitFor(ctx, "the new room's page", `location.pathname.startsWith('/rooms/') && document.getElementById('room')`)
	var keys []string
	b.eval(`[...document.querySelectorAll('.col')].map(c => c.dataset.key)`, &keys)
	if strings.Join(keys, ",") != "Product Manager,Software Architect,Cost Optimizer" {
		t.Errorf("the started debate's columns: %v, want the two checked personas and the one added", keys)
	}
	var stances []string
	b.eval(`[...document.querySelectorAll('.col')].map(c => c.querySelector('.colhead .stance')?.textContent || '')`, &stances)
	if strings.Join(stances, ",") != "· for,· against,· neutral" {
		t.Errorf("the columns' stances: %q, want for, against and neutral in turn", stances)
	}
	checkSignOut(ctx, t, b, "the room's page")
	b.waitFor(ctx, "the verdict", "document.querySelector('#verdict:not([hidden]) article.msg')")
	b.waitFor(ctx, "the page to say the debate finished", "document.getElementById('state').textContent === 'finished'")
	b.waitFor(ctx, "the peer rankings in the verdict's place", "document.getElementById('verdict').textContent.includes('FINAL RANKING')")
	b.screenshot(filepath.Join(shots, "boardroom-room-stances.png"))
	var id string
	b.eval(`decodeURIComponent(location.pathname.slice('/rooms/'.length))`, &id)
	started, err := room.Open(h.cwd, id)
	if err != nil {
		t.Fatal(err)
	}
	if cfg := started.Config(); !cfg.Rank || len(cfg.Personas) != 3 || cfg.Personas[0].Stance != "for" {
		t.Errorf("the started room: rank %v, personas %+v; want peer ranking and stances, as checked in the form", cfg.Rank, cfg.Personas)
	}

	// Back to the index: the form ready for another start; the room, with
	// its time; then a room added by the API shows first, without a reload.
	b.eval(`history.back(); true`, nil)
	b.waitFor(ctx, "the index, its form ready again", `location.pathname === '/' && document.getElementById('rooms') && !document.getElementById('start-debate').disabled && document.getElementById('start-debate').textContent === 'Start Debate'`)
	var first struct{ Name, Time string }
	b.eval(`(() => { const li = document.querySelector('#rooms li'); return {name: li.dataset.name, time: li.querySelector('time').getAttribute('datetime')}; })()`, &first)
	if first.Name != id || first.Time == "" {
		t.Errorf("the index's first room: %+v, want %s with its time", first, id)
	}
	b.eval(`window.notReloaded = true`, nil)
	later := h.create(`{"topic":"Second thoughts","rounds":1}`)
	b.waitFor(ctx, "the new room first in the list, without a reload", `window.notReloaded && document.querySelector('#rooms li')?.dataset.name === `+jsString(later))
	b.screenshot(filepath.Join(shots, "boardroom-index-light.png"))
	b.darkMode(true)
	b.screenshot(filepath.Join(shots, "boardroom-index-dark.png"))
	if errs, outside := b.problems(h.base); len(errs)+len(outside) > 0 {
		t.Errorf("errors %v, requests elsewhere %v", errs, outside)
	}
}

// checkSignOut fails t unless the page has the sign-out button: a form
// that posts to /api/logout.
func checkSignOut(ctx context.Context, t *testing.T, b *browser, where string) {
	t.Helper()
	var f struct {
		Action, Method, Button string
	}
	b.waitFor(ctx, "the sign-out form on "+where, "document.querySelector('form.signout')")
	b.eval(`(() => { const f = document.querySelector('form.signout'); return {action: new URL(f.action).pathname, method: f.method, button: f.querySelector('button[type=submit]')?.textContent || ''}; })()`, &f)
	if f.Action != "/api/logout" || f.Method != "post" || f.Button != "Sign out" {
		t.Errorf("the sign-out button on %s: %+v, want a form posting to /api/logout", where, f)
	}
}

// TestBoardroomLongWordWraps: a 50,000-character word, in a finished
// message and in text streaming, wraps within its column: no element is
// wider than the screen.
func TestBoardroomLongWordWraps(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "long", room.CreateOptions{Topic: "Long words", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Text: "Before **it**: " + longWord(50000)}); err != nil {
		t.Fatal(err)
	}
	h := startHost(t, cwd)
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 800)
	b.navigate(h.base + "/rooms/long")
	b.signIn(ctx, h.starter)
	b.waitFor(ctx, "the message and the page's script", "document.querySelector('.col .turns article .body') && window.roundtableLive")
	// The same word as text in progress, in the peer's column.
	var thrown string
	b.eval(`(() => { try { const lt = window.roundtableLive.live(document.querySelector('.col[data-key="peer"] .live-turn')); lt.show(); lt.append('Streaming *now*:\n\n' + `+jsLongWord+`(50000)); lt.flush(); return ''; } catch (e) { return String(e && e.stack || e); } })()`, &thrown)
	if thrown != "" {
		t.Fatalf("drawing the streamed word threw: %s", thrown)
	}
	var got struct {
		Viewport, Doc float64
		Widths        []float64
		Over          []bool
	}
	b.eval(`(() => { const els = [document.querySelector('.col .turns article .body'), document.querySelector('.col[data-key="peer"] .stream')]; return {viewport: window.innerWidth, doc: document.documentElement.scrollWidth, widths: els.map(e => e.getBoundingClientRect().width), over: els.map(e => e.scrollWidth > e.clientWidth + 1)}; })()`, &got)
	for i, w := range got.Widths {
		if w <= 0 || w > got.Viewport || got.Over[i] {
			t.Errorf("element %d holding the long word: %.0f px wide (screen %.0f), overflowing %v", i, w, got.Viewport, got.Over[i])
		}
	}
	if got.Doc > got.Viewport+1 {
		t.Errorf("the page is %.0f px wide on a %.0f px screen", got.Doc, got.Viewport)
	}
	var em string
	b.eval(`document.querySelector('.col[data-key="peer"] .stream em')?.textContent || ''`, &em)
	if em != "now" {
		t.Errorf("the streaming text's Markdown is not drawn: <em> holds %q", em)
	}
}

// TestBoardroomLiveMarkdown: text in progress is drawn as Markdown as it
// streams: finished blocks once, the tail again at each frame; markup in
// it is text, never elements.
func TestBoardroomLiveMarkdown(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "md", room.CreateOptions{Topic: "Markdown", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	h := startHost(t, cwd)
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 800)
	b.navigate(h.base + "/rooms/md")
	b.signIn(ctx, h.starter)
	b.waitFor(ctx, "the page's script", "window.roundtableLive")
	text := "## Plan\n\nWe **ship** in `v2`, see [the doc](https://example.com).\n\n- one\n- two\n\n```go\nx := 1\n\ny := 2\n```\n\n> a quote \u202eevil\u202c\x1b[31m\n\n<img src=x onerror=\"document.title='PWNED'\"> and **still open"
	// Token by token, as the stream brings it.
	var blocks []string
	b.eval(`(() => { const lt = window.roundtableLive.live(document.querySelector('.col[data-key="lead"] .live-turn')); lt.show(); const text = `+jsString(text)+`; let firstH2 = null;
		for (let i = 0; i < text.length; i += 3) { lt.append(text.slice(i, i + 3)); lt.flush(); if (!firstH2) firstH2 = lt.done.querySelector('h2'); }
		window.firstH2Kept = firstH2 === lt.done.querySelector('h2');
		return [...lt.done.children, ...lt.tail.children].map(e => e.tagName.toLowerCase()); })()`, &blocks)
	if got := strings.Join(blocks, ","); got != "h2,p,ul,pre,blockquote,p" {
		t.Errorf("the streamed text's blocks: %s, want h2,p,ul,pre,blockquote,p", got)
	}
	var facts struct {
		Kept                 bool
		Strong, Code, Link   string
		Img, Anchors         int
		Title, Pre, LastText string
	}
	b.eval(`(() => { const s = document.querySelector('.col[data-key="lead"] .stream'); return {kept: window.firstH2Kept, strong: s.querySelector('p strong')?.textContent, code: s.querySelector('p code')?.textContent, link: s.querySelector('.link')?.textContent, img: s.querySelectorAll('img').length, anchors: s.querySelectorAll('a').length, title: document.title, pre: s.querySelector('pre code')?.textContent, lastText: s.querySelector('.tail p:last-child')?.textContent}; })()`, &facts)
	if !facts.Kept {
		t.Errorf("a finished block was drawn again: the heading is not the first one drawn")
	}
	if facts.Strong != "ship" || facts.Code != "v2" || facts.Link != "the doc" || facts.Pre != "x := 1\n\ny := 2" {
		t.Errorf("inline Markdown drawn wrong: %+v", facts)
	}
	if facts.Img != 0 || facts.Anchors != 0 || strings.HasPrefix(facts.Title, "PWNED") {
		t.Errorf("markup in streamed text became elements: %d img, %d a, title %q", facts.Img, facts.Anchors, facts.Title)
	}
	var quote string
	b.eval(`document.querySelector('.col[data-key="lead"] .stream blockquote').textContent`, &quote)
	if quote != "a quote <U+202E>evil<U+202C>\u241b[31m" {
		t.Errorf("the streamed text is not sanitized as the host sanitizes messages: %q", quote)
	}
	if !strings.HasPrefix(facts.LastText, "<img src=x") {
		t.Errorf("the markup is not shown as text: %q", facts.LastText)
	}
	if errs, _ := b.problems(h.base); len(errs) > 0 {
		t.Errorf("errors %v", errs)
	}
}

// jsLongWord is longWord as a script's function (the same letters).
const jsLongWord = `((n) => { let w = '', x = 1; while (w.length < n) { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; w += String.fromCharCode(97 + (x >>> 24) % 26); } return w; })`

// longWord is n letters without a space, varied as a real word is.
func longWord(n int) string {
	var b strings.Builder
	x := uint32(1)
	for b.Len() < n {
		x = x*1664525 + 1013904223
		b.WriteByte(byte('a' + (x>>24)%26))
	}
	return b.String()
}
