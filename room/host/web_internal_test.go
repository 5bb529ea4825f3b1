package host

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// whoWeb is a web face that answers who the host says the request is.
var whoWeb = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	g, ok := webauth.GrantOf(r.Context())
	if !ok {
		_, _ = io.WriteString(w, "anonymous")
		return
	}
	_, _ = io.WriteString(w, g.Room+"/"+g.Grant)
})

func webGet(t *testing.T, base, path string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestHostWebFace: the web face gets every path but /mcp, with the grant
// of a Bearer token or of the cookie a login set (never without checking
// it), the starter token's grant, no grant when there is no token; pages
// of the host's own origin pass the Origin rule, others' do not; the
// starter token holds no MCP seat.
func TestHostWebFace(t *testing.T) {
	starter, sum, err := NewStarterToken()
	if err != nil {
		t.Fatal(err)
	}
	h, srv, toks, _ := testHost(t, Options{Web: whoWeb, StarterSHA256: sum, PublicURL: "https://rooms.example/mcp"})
	h.gate.listening(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	bearer := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
	su, _ := url.Parse(srv.URL)
	port := su.Port()

	for _, c := range []struct {
		name string
		hdr  map[string]string
		code int
		want string
	}{
		{"no token", nil, 200, "anonymous"},
		{"observer", bearer(toks[room.GrantObserver]), 200, "inproc/observer"},
		{"starter", bearer(starter), 200, "/" + GrantStarter},
		{"wrong token", bearer("rt_" + strings.Repeat("x", 43)), 401, "not valid"},
		{"a token as the session cookie", map[string]string{"Cookie": "roundtable_" + port + "=" + toks[room.GrantObserver]}, 200, "anonymous"},
		{"the starter token as the session cookie", map[string]string{"Cookie": "roundtable_" + port + "=" + starter}, 200, "anonymous"},
		{"a token in the older hosts' cookie", map[string]string{"Cookie": "roundtable_token=" + starter}, 200, "anonymous"},
		{"own origin", map[string]string{"Origin": srv.URL}, 200, "anonymous"},
		{"other origin", map[string]string{"Origin": "http://evil.example"}, 403, "Origin"},
		{"public origin, behind a proxy", map[string]string{"Origin": "https://rooms.example", "Host": "rooms.example"}, 200, "anonymous"},
		{"public name, other scheme", map[string]string{"Origin": "http://rooms.example:8080", "Host": "rooms.example"}, 403, "Origin"},
		{"other site", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "another site"},
		{"rebinding", map[string]string{"Origin": "http://evil.example:1", "Host": "evil.example:1"}, 403, "Host header"},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/anything", nil)
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
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(b), c.want) {
			t.Fatalf("%s: %d %q, want %d %q", c.name, resp.StatusCode, b, c.code, c.want)
		}
	}

	// A login trades a good token for a session id, kept in an HttpOnly,
	// SameSite=Lax cookie named after the host's port; the id is no token.
	resp, err := http.PostForm(srv.URL+LoginPath, url.Values{"token": {toks[room.GrantObserver]}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "roundtable_"+port {
			cookie = c
		}
	}
	if resp.StatusCode != 200 || cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/" || cookie.MaxAge != int(SessionTTL.Seconds()) {
		t.Fatalf("login: %d, cookie %+v", resp.StatusCode, cookie)
	}
	if cookie.Value == toks[room.GrantObserver] || strings.HasPrefix(cookie.Value, room.TokenPrefix) || len(cookie.Value) < 43 {
		t.Fatalf("the session cookie's value %q is a token or too short to be a random id", cookie.Value)
	}
	if _, err := h.opt.Tokens.Authorize(cookie.Value); err == nil {
		t.Fatalf("the session id %q is a token", cookie.Value)
	}
	if code, who := webGet(t, srv.URL, "/x", map[string]string{"Cookie": cookie.String()}); code != 200 || who != "inproc/observer" {
		t.Fatalf("with the cookie: %d %q", code, who)
	}
	// Under another port's name it is nothing.
	if code, who := webGet(t, srv.URL, "/x", map[string]string{"Cookie": "roundtable_1=" + cookie.Value}); code != 200 || who != "anonymous" {
		t.Fatalf("the id under another port's cookie name: %d %q, want anonymous", code, who)
	}
	// Sign-out ends the session: 303 to the sign-in page, the cookie
	// cleared, and the old cookie grants nothing since.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+LogoutPath, nil)
	req.AddCookie(cookie)
	req.Header.Set("Origin", srv.URL)
	out, err := noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out.Body.Close()
	cleared := false
	for _, c := range out.Cookies() {
		cleared = cleared || (c.Name == cookie.Name && c.MaxAge < 0)
	}
	if out.StatusCode != http.StatusSeeOther || out.Header.Get("Location") != "/" || !cleared {
		t.Fatalf("sign-out: %d to %q, cookies %v; want 303 to / clearing %s", out.StatusCode, out.Header.Get("Location"), out.Cookies(), cookie.Name)
	}
	if code, who := webGet(t, srv.URL, "/x", map[string]string{"Cookie": cookie.String()}); code != 200 || who != "anonymous" {
		t.Fatalf("the cookie after sign-out: %d %q, want anonymous", code, who)
	}
	if h.browser.Len() != 0 {
		t.Fatalf("%d sessions kept after the only one signed out", h.browser.Len())
	}
	// Sign-out from another site's page is refused, and ends nothing.
	req, _ = http.NewRequest(http.MethodPost, srv.URL+LogoutPath, nil)
	req.Header.Set("Origin", "http://evil.example")
	if out, err := noFollow.Do(req); err != nil || out.StatusCode != http.StatusForbidden {
		t.Fatalf("a cross-site sign-out: %v %v, want 403", out, err)
	}
	// A wrong token sets nothing.
	resp, err = http.PostForm(srv.URL+LoginPath, url.Values{"token": {"rt_" + strings.Repeat("z", 43)}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 || len(resp.Cookies()) > 0 {
		t.Fatalf("a wrong login: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	// A login by URL (a GET with the token in the query) is refused.
	if code, _ := webGet(t, srv.URL, LoginPath+"?token="+toks[room.GrantObserver], nil); code != http.StatusMethodNotAllowed {
		t.Fatalf("a GET login: %d, want 405", code)
	}
	if r := post(t, srv.URL, starter, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`); r.StatusCode != http.StatusForbidden {
		t.Fatalf("the starter token on /mcp: %d, want 403", r.StatusCode)
	}
}
