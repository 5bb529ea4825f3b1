package web_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBrowserSessionInChromium: what headless Chromium does with the
// session cookie. Signed in to a host, it sends another port of
// 127.0.0.1 (a server of anyone's) its cookies, as browsers do: that
// server gets a session id, never the token. A room's link clicked on
// another site (localhost is another site than 127.0.0.1) opens the room
// (SameSite=Lax); after signing out (a form posted to /api/logout, as the
// page's button does) the browser is on the sign-in form, and the same
// link clicked again shows the sign-in form, never a 403.
func TestBrowserSessionInChromium(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--fast")
	defer h.stop()
	id := h.create(`{"topic":"Cookies","rounds":1}`)
	room := h.base + "/rooms/" + id

	// Another server on this machine, serving a page that links to the
	// room, and keeping every Cookie header it is sent.
	var mu sync.Mutex
	var got []string
	other := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Cookie"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><a id="go" href="%s">the room</a>`, room)
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	other.Listener = ln
	other.Start()
	defer other.Close()
	_, otherPort, _ := net.SplitHostPort(ln.Addr().String())

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := startBrowser(t, 1280, 800)
	b.navigate(room)
	b.signIn(ctx, h.starter)

	b.navigate("http://127.0.0.1:" + otherPort + "/")
	b.waitFor(ctx, "the other port's page", "document.getElementById('go')")
	mu.Lock()
	sent := strings.Join(got, "\n")
	mu.Unlock()
	u, _ := url.Parse(h.base)
	if strings.Contains(sent, h.starter) || strings.Contains(sent, "rt_") {
		t.Fatalf("the other port received a token: %q", sent)
	}
	if !strings.Contains(sent, "roundtable_"+u.Port()+"=") {
		t.Fatalf("Chromium sent the other port %q: the session cookie is not there, so this test shows nothing", sent)
	}

	// A link clicked on another site: the room, signed in.
	link := "http://localhost:" + otherPort + "/"
	b.navigate(link)
	b.waitFor(ctx, "the other site's page", "document.getElementById('go')")
	b.eval("document.getElementById('go').click(); true", nil)
	b.waitFor(ctx, "the room, opened from another site's link", "location.href === "+jsString(room)+" && document.getElementById('room')")

	// Sign out as the page's button does: a form posted to /api/logout.
	b.eval(`(() => { const f = document.createElement('form'); f.method = 'post'; f.action = '/api/logout'; document.body.appendChild(f); f.submit(); return true; })()`, nil)
	b.waitFor(ctx, "the sign-in form after signing out", "location.pathname === '/' && document.getElementById('token')")

	// The same link again: the sign-in form, going back to the room.
	b.navigate(link)
	b.waitFor(ctx, "the other site's page", "document.getElementById('go')")
	b.eval("document.getElementById('go').click(); true", nil)
	b.waitFor(ctx, "the sign-in form, opened from another site's link", "location.href === "+jsString(room)+" && document.getElementById('token')")
	var next string
	b.eval(`(document.querySelector('input[name=next]') || {}).value || ''`, &next)
	if next != "/rooms/"+id {
		t.Fatalf("the sign-in form goes back to %q, want /rooms/%s", next, id)
	}
}
