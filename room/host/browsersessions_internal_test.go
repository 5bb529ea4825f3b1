package host

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// signIn posts token to the host's LoginPath and returns the session
// cookie it set.
func signIn(t *testing.T, base, token string) *http.Cookie {
	t.Helper()
	resp, err := http.PostForm(base+LoginPath, url.Values{"token": {token}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(base)
	for _, c := range resp.Cookies() {
		if c.Name == "roundtable_"+u.Port() && c.MaxAge > 0 {
			return c
		}
	}
	t.Fatalf("sign-in: %d, no session cookie in %v", resp.StatusCode, resp.Cookies())
	return nil
}

// TestRotatingATokenEndsItsSessions: a browser signed in with a room's
// token is signed out once the token is rotated (room.RotateToken, what
// host --rotate does), at its next request.
func TestRotatingATokenEndsItsSessions(t *testing.T) {
	h, srv, toks, r := testHost(t, Options{Web: whoWeb})
	h.gate.listening(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	c := signIn(t, srv.URL, toks[room.GrantObserver])
	if code, who := webGet(t, srv.URL, "/x", map[string]string{"Cookie": c.String()}); code != 200 || who != "inproc/observer" {
		t.Fatalf("signed in: %d %q", code, who)
	}
	if _, err := r.RotateToken(room.GrantObserver); err != nil {
		t.Fatal(err)
	}
	if code, who := webGet(t, srv.URL, "/x", map[string]string{"Cookie": c.String()}); code != 200 || who != "anonymous" {
		t.Fatalf("after the token's rotation: %d %q, want anonymous", code, who)
	}
	if h.browser.Len() != 0 {
		t.Fatalf("%d sessions kept after their token was rotated", h.browser.Len())
	}
}

// TestBrowserSessionsBounded: a token keeps at most maxSessionsPerToken
// sessions (its oldest ends), the host at most maxBrowserSessions (a
// sign-in past it is refused, saying what to do), and an expired session
// is gone.
func TestBrowserSessionsBounded(t *testing.T) {
	var b browserSessions
	now := time.Now()
	g := room.Grant{Room: "r", Grant: room.GrantObserver}
	var first string
	for i := range maxSessionsPerToken + 3 {
		id, err := b.add("rt_one", g, now.Add(time.Duration(i)*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = id
		}
	}
	if b.Len() != maxSessionsPerToken {
		t.Fatalf("one token holds %d sessions, want %d", b.Len(), maxSessionsPerToken)
	}
	if _, ok := b.get(first, now); ok {
		t.Fatal("the token's oldest session outlived its newer ones past the cap")
	}
	for i := b.Len(); i < maxBrowserSessions; i++ {
		if _, err := b.add("rt_tok"+strconv.Itoa(i), g, now); err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
	}
	if _, err := b.add("rt_another", g, now); err == nil || !strings.Contains(err.Error(), "sign out") {
		t.Fatalf("a sign-in past the host's bound: %v, want a refusal saying what to do", err)
	}
	later := now.Add(SessionTTL + time.Second)
	if _, err := b.add("rt_another", g, later); err != nil {
		t.Fatalf("a sign-in once the others expired: %v", err)
	}
	if b.Len() != 1 {
		t.Fatalf("%d sessions after every other expired, want 1", b.Len())
	}
}

// TestCrossSiteNavigation: a link to a page clicked on another site
// reaches the web face (which shows the sign-in form or the page); a
// cross-site request of any other kind (a fetch, an image, a frame, a
// POST, another path) is still refused, and so is a navigation carrying a
// foreign Host (DNS rebinding).
func TestCrossSiteNavigation(t *testing.T) {
	h, srv, _, _ := testHost(t, Options{Web: whoWeb})
	h.gate.listening(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	nav := map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range nav {
			m[a] = b
		}
		m[k] = v
		return m
	}
	for _, c := range []struct {
		name, method, path string
		hdr                map[string]string
		code               int
	}{
		{"a room's link", "GET", "/rooms/inproc", nav, 200},
		{"the index's link", "GET", "/", nav, 200},
		{"from another port (same-site)", "GET", "/rooms/inproc", with("Sec-Fetch-Site", "same-site"), 200},
		{"a fetch", "GET", "/rooms/inproc", with("Sec-Fetch-Mode", "cors"), 403},
		{"a frame", "GET", "/rooms/inproc", with("Sec-Fetch-Dest", "iframe"), 403},
		{"an image", "GET", "/rooms/inproc", with("Sec-Fetch-Dest", "image"), 403},
		{"the API", "GET", "/api/sessions", nav, 403},
		{"a room's stream", "GET", "/rooms/inproc/parts", nav, 403},
		{"a form post", "POST", "/rooms/inproc", nav, 403},
		{"rebinding", "GET", "/rooms/inproc", with("Host", "evil.example"), 403},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, nil)
		for k, v := range c.hdr {
			req.Header.Set(k, v)
		}
		if hv, ok := c.hdr["Host"]; ok {
			req.Host = hv
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Fatalf("%s: %d, want %d", c.name, resp.StatusCode, c.code)
		}
	}
}
