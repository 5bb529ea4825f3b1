package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// artifacts is where the page tests keep their screenshots: the folder
// ROUNDTABLE_ARTIFACTS names (CI keeps it), else the test's own.
func artifacts(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("ROUNDTABLE_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// TestPageFollowsALiveDebate starts a mock debate through the API and
// watches its page in headless Chromium: the text of the speaking column
// grows between two screenshots, the speaker is lit, the verdict lands;
// the page reports no script error and asks nothing of any other site.
// The same host serves a hostile room, whose page runs none of its
// payloads. Screenshots at 390, 1280 and 1920 pixels wide are kept.
func TestPageFollowsALiveDebate(t *testing.T) {
	var beaconHits atomic.Int64
	beacon := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		beaconHits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer beacon.Close()
	cwd := t.TempDir()
	roomtest.HostileRoom(t, cwd, "hostile", beacon.URL)
	h := startHost(t, cwd)
	defer h.stop()
	id := h.create(`{"topic":"Should we adopt GraphQL?","rounds":2}`)
	// The host prints the new room's page beside its tokens, as it serves
	// it (just after answering the POST).
	for _, want := range []string{h.base + "/rooms/" + id, "Boardroom: " + h.base + "/"} {
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(h.output(), want); {
			if time.Now().After(deadline) {
				t.Errorf("the host did not print %s:\n%s", want, h.output())
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	shots := artifacts(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	b := startBrowser(t, 1280, 800)
	b.navigate(h.base + "/rooms/" + id)
	b.signIn(ctx, h.starter)

	// A column speaks: lit, its text growing.
	b.waitFor(ctx, "a lit column with text streaming", "document.querySelector('.col.lit .live-turn:not([hidden]) .stream')?.textContent.length > 20")
	var first, second struct {
		Seat string
		Len  int
		Done int
	}
	const look = `(() => { const c = document.querySelector('.col.lit'); return c ? {seat: c.dataset.seat, len: c.querySelector('.stream').textContent.length, done: c.querySelectorAll('.turns article').length} : {seat: '', len: 0, done: 0}; })()`
	b.eval(look, &first)
	b.screenshot(filepath.Join(shots, "page-live-1280-a.png"))
	b.waitFor(ctx, "the speaking column's text to grow", `(() => { const c = document.querySelector('.col.lit'); return !c || c.dataset.seat !== `+jsString(first.Seat)+` || c.querySelector('.stream').textContent.length > `+itoa(first.Len)+`; })()`)
	b.eval(look, &second)
	b.screenshot(filepath.Join(shots, "page-live-1280-b.png"))
	if second.Seat == first.Seat && second.Len <= first.Len && second.Done == first.Done {
		t.Fatalf("the speaking column did not grow between two looks: %+v then %+v", first, second)
	}
	var lit int
	b.eval("document.querySelectorAll('.col.lit').length", &lit)
	if lit != 1 {
		t.Errorf("%d columns lit while a persona speaks, want 1", lit)
	}

	// Round 2: every column has a turn, one speaks.
	b.waitFor(ctx, "round 2 under way", "document.querySelectorAll('.col .turns article.msg').length >= 4 && document.querySelector('.col.lit .live-turn:not([hidden]) .stream')?.textContent.length > 200")
	b.screenshot(filepath.Join(shots, "page-live-1280-round2.png"))

	// The verdict lands, rendered, and the room reads finished.
	b.waitFor(ctx, "the verdict", "document.querySelector('#verdict:not([hidden]) article.msg')")
	b.waitFor(ctx, "the page to say the debate finished", "document.getElementById('state').textContent === 'finished'")
	var turns, litAfter int
	b.eval("document.querySelectorAll('.col .turns article.msg').length", &turns)
	b.eval("document.querySelectorAll('.col.lit').length", &litAfter)
	if turns != 6 || litAfter != 0 {
		t.Errorf("after the debate: %d turns in the columns (want 6: 3 personas × 2 rounds), %d lit (want 0)", turns, litAfter)
	}
	var streams string
	b.eval("[...document.querySelectorAll('.live-turn:not([hidden])')].map(e => e.textContent).join('|')", &streams)
	if streams != "" {
		t.Errorf("text in progress still shown after the debate finished: %q", streams)
	}
	b.screenshot(filepath.Join(shots, "page-1280.png"))
	errs, outside := b.problems(h.base)
	if len(errs) > 0 {
		t.Errorf("the page reported %d errors: %v", len(errs), errs)
	}
	if len(outside) > 0 {
		t.Errorf("the page asked other sites for %v", outside)
	}

	// The finished debate at a phone's width and a wide screen's: one
	// column stacked, and one per persona.
	for _, w := range []int{390, 1920} {
		bw := startBrowser(t, w, map[int]int{390: 844, 1920: 1080}[w])
		bw.navigate(h.base + "/rooms/" + id)
		bw.signIn(ctx, h.starter)
		bw.waitFor(ctx, "the verdict", "document.querySelector('#verdict article.msg')")
		var cols int
		bw.eval("getComputedStyle(document.querySelector('.columns')).gridTemplateColumns.split(' ').length", &cols)
		if want := map[int]int{390: 1, 1920: 3}[w]; cols != want {
			t.Errorf("at %d px the page lays out %d columns, want %d", w, cols, want)
		}
		var overflow bool
		bw.eval("document.documentElement.scrollWidth > window.innerWidth + 1", &overflow)
		if overflow {
			t.Errorf("at %d px the page is wider than the screen", w)
		}
		bw.screenshot(filepath.Join(shots, "page-"+itoa(w)+".png"))
		if errs, outside := bw.problems(h.base); len(errs)+len(outside) > 0 {
			t.Errorf("at %d px: errors %v, requests elsewhere %v", w, errs, outside)
		}
	}

	// The hostile room: drawn, and inert.
	b.navigate(h.base + "/rooms/hostile")
	b.waitFor(ctx, "the hostile room's turns", "document.querySelectorAll('.col .turns article').length >= 4")
	time.Sleep(500 * time.Millisecond) // let anything that could run, run
	var pwned bool
	var title string
	b.eval("document.documentElement.hasAttribute('data-pwned') || !!document.querySelector('[data-pwned]')", &pwned)
	b.eval("document.title", &title)
	if pwned || strings.HasPrefix(title, "PWNED") {
		t.Errorf("a hostile payload ran: data-pwned %v, title %q", pwned, title)
	}
	if n := beaconHits.Load(); n > 0 {
		t.Errorf("the hostile room's page reached the beacon %d times", n)
	}
	if _, outside := b.problems(h.base); len(outside) > 0 {
		t.Errorf("the hostile room's page asked other sites for %v", outside)
	}
	t.Logf("screenshots in %s", shots)
}

func itoa(n int) string { return strconv.Itoa(n) }

// jsString quotes s for a script.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`, "<", `\x3c`)
	return "'" + r.Replace(s) + "'"
}

// TestPageFollowsAnMCPRoom: the page of an MCP room has the lead's and the
// peer's columns and says whose turn it is; a post by the lead, made while
// the page is open, lands in the lead's column and the turn passes.
func TestPageFollowsAnMCPRoom(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "cache-design", room.CreateOptions{Topic: "Cache design", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	h := startHost(t, cwd)
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 800)
	b.navigate(h.base + "/rooms/cache-design")
	b.signIn(ctx, h.starter)
	var seats []string
	b.eval("[...document.querySelectorAll('.col')].map(c => c.dataset.seat)", &seats)
	if strings.Join(seats, ",") != "lead,peer" {
		t.Fatalf("the MCP room's columns: %v, want lead and peer", seats)
	}
	var empty int
	b.eval("document.querySelectorAll('.col.empty-seat').length", &empty)
	if empty != 2 {
		t.Errorf("%d columns say their seat is empty, want 2: nobody holds either seat", empty)
	}
	b.waitFor(ctx, "the lead's turn", "document.getElementById('state').textContent.includes(\"lead's turn\")")
	b.waitFor(ctx, "the stream to open", "document.getElementById('state').classList.contains('running')")
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "claude-code", Text: "Proposal: **LRU** with a TTL."}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(ctx, "the lead's post in its column", "document.querySelector('.col[data-seat=\"lead\"] .turns article strong')?.textContent === 'LRU'")
	b.waitFor(ctx, "the peer's turn", "document.getElementById('state').textContent.includes(\"peer's turn\")")

	// The lead writes the spec and closes: the spec shows, rendered.
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatPeer, Agent: "codex", Text: "Agreed."}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.WriteSpec("# Cache\n\nUse an **LRU** with a 5 minute TTL.\n\n<script>document.title='PWNED'</script>"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Close(room.CloseOptions{Reason: "spec written"}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(ctx, "the spec", "!document.getElementById('spec').hidden && document.querySelector('#spec-body h1')?.textContent === 'Cache'")
	var title string
	b.eval("document.title", &title)
	if strings.HasPrefix(title, "PWNED") {
		t.Errorf("the spec's script ran")
	}
	if errs, outside := b.problems(h.base); len(errs)+len(outside) > 0 {
		t.Errorf("errors %v, requests elsewhere %v", errs, outside)
	}
}

// TestPageOfACouncil: a council's page has a column for each of its seats,
// in turn order, and says whose turn it is as the seats post.
func TestPageOfACouncil(t *testing.T) {
	cwd := t.TempDir()
	seats := []string{"lead", "critic", "security", "peer"}
	r, _, err := room.Create(cwd, "uploads", room.CreateOptions{Topic: "Uploads to S3?", Budget: 2, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	h := startHost(t, cwd)
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, 1920, 1080)
	b.navigate(h.base + "/rooms/uploads")
	b.signIn(ctx, h.starter)
	var got []string
	b.eval("[...document.querySelectorAll('.col')].map(c => c.dataset.seat)", &got)
	if strings.Join(got, ",") != strings.Join(seats, ",") {
		t.Fatalf("the council's columns: %v, want %v", got, seats)
	}
	b.waitFor(ctx, "the stream to open", "document.getElementById('state').classList.contains('running')")
	if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Text: "Brief: presigned uploads."}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: "critic", Text: "The **bucket policy** worries me."}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(ctx, "the critic's post in its column", "document.querySelector('.col[data-seat=\"critic\"] .turns article strong')?.textContent === 'bucket policy'")
	b.waitFor(ctx, "the security seat's turn", "document.getElementById('state').textContent.includes(\"security's turn\")")
	var cols int
	b.eval("getComputedStyle(document.querySelector('.columns')).gridTemplateColumns.split(' ').length", &cols)
	if cols != 4 {
		t.Errorf("at 1920 px the council lays out %d columns, want 4", cols)
	}
	if errs, outside := b.problems(h.base); len(errs)+len(outside) > 0 {
		t.Errorf("errors %v, requests elsewhere %v", errs, outside)
	}
}

// TestPageSaysPaused: the page of a debate that waits between two rounds
// (its run here holds the room; paused.json says it waits after round 1)
// says so, as the boardroom's list does; once it goes on, the list says
// live and the page who speaks.
func TestPageSaysPaused(t *testing.T) {
	cwd := t.TempDir()
	r := runningDebate(t, cwd, "waits", room.CreateOptions{Topic: "Adopt Rust", Budget: 2})
	if err := r.SetPaused(1); err != nil {
		t.Fatal(err)
	}
	h := startHost(t, cwd)
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 800)
	b.navigate(h.base + "/rooms/waits")
	b.signIn(ctx, h.starter)
	b.waitFor(ctx, "the page to say the debate is paused", "document.getElementById('state').textContent.startsWith('paused after round 1')")
	// The boardroom's list says so too, and follows it going on.
	b.navigate(h.base + "/")
	const row = "document.querySelector('#rooms li[data-name=\"waits\"]')?.textContent"
	b.waitFor(ctx, "the list to say the debate is paused", row+".includes(' · paused · ')")
	if err := r.ClearPaused(); err != nil {
		t.Fatal(err)
	}
	b.waitFor(ctx, "the list to say the debate is live again", row+".includes(' · live · ')")

	// It goes on: round 2's first turn begins.
	b.navigate(h.base + "/rooms/waits")
	if err := r.WriteDraft(room.Draft{Seat: "PM", Agent: "mock", Text: "Round two", StartedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(ctx, "the page to say who speaks", "document.getElementById('state').textContent === 'PM is speaking'")
	if errs, outside := b.problems(h.base); len(errs)+len(outside) > 0 {
		t.Errorf("errors %v, requests elsewhere %v", errs, outside)
	}
}

// TestPageShowsTheRankings: on a live debate that ranks (--rank), each
// persona's ranking appears as it is saved in the verdict's place, the
// state naming who ranked, and the verdict comes after them; the
// personas' columns hold their turns alone.
func TestPageShowsTheRankings(t *testing.T) {
	cwd := t.TempDir()
	r := runningDebate(t, cwd, "ranks", room.CreateOptions{Topic: "Adopt Rust", Budget: 1, Rounds: 1, Rank: true})
	h := startHost(t, cwd)
	defer h.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 800)
	b.navigate(h.base + "/rooms/ranks")
	b.signIn(ctx, h.starter)
	b.waitFor(ctx, "the stream to open", "document.getElementById('state').classList.contains('running')")
	if _, err := r.Record(room.Post{Seat: "PM", Agent: "mock", Kind: room.KindRanking, Text: "Architect argued best.\n\nFINAL RANKING: A", Round: 1, Ranking: []string{"Architect"}}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(ctx, "the state to say PM ranked", "document.getElementById('state').textContent === 'PM ranked the others'")
	b.waitFor(ctx, "the ranking in the verdict's place", "document.getElementById('verdict').textContent.includes('Architect argued best.') && !document.getElementById('verdict').hidden")
	if _, err := r.Record(room.Post{Seat: room.SeatModerator, Agent: "mock", Kind: room.KindSummary, Text: "**Decision:** adopt it.", Round: 1}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(ctx, "the verdict after the ranking", "(() => { const v = document.getElementById('verdict').textContent; const a = v.indexOf('Architect argued best.'), d = v.indexOf('adopt it.'); return a >= 0 && d > a; })()")
	var inColumns bool
	b.eval("[...document.querySelectorAll('.col')].some(c => c.textContent.includes('FINAL RANKING'))", &inColumns)
	if inColumns {
		t.Errorf("a ranking is shown in a persona's column")
	}
	if errs, outside := b.problems(h.base); len(errs)+len(outside) > 0 {
		t.Errorf("errors %v, requests elsewhere %v", errs, outside)
	}
}

// runningDebate is a debate room of PM and Architect made with opts in
// cwd, its run held (as a live debate's process holds it) until the test
// ends, and round 1 spoken.
func runningDebate(t *testing.T, cwd, name string, opts room.CreateOptions) *room.Room {
	t.Helper()
	opts.Mode = room.ModeDebate
	opts.Personas = []room.PersonaInfo{{Name: "PM", Persona: "x"}, {Name: "Architect", Persona: "y"}}
	r, _, err := room.Create(cwd, name, opts)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lock.Unlock() })
	for _, p := range opts.Personas {
		if _, err := r.Record(room.Post{Seat: p.Name, Agent: "mock", Kind: "turn", Text: p.Name + " spoke.", Round: 1}); err != nil {
			t.Fatal(err)
		}
	}
	return r
}
