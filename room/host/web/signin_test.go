package web_test

import (
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"
)

// TestSignInForm: the pages' sign-in form. Without a token a page is the
// form (401); a good token posted with the page to go back to sets the
// cookie and sends the browser there (303); a wrong one gets the form
// again saying why; a next that leaves the host is refused; a room's
// token on another room's page gets the form saying which room it opens.
func TestSignInForm(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd)
	defer h.stop()
	id := h.create(`{"topic":"Sign in","rounds":1}`)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(token, next string) (*http.Response, string) {
		t.Helper()
		form := url.Values{"token": {token}, "next": {next}}
		req, err := http.NewRequest(http.MethodPost, h.base+"/api/login", strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", h.base)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	page := "/rooms/" + id
	if code, body := h.do(http.MethodGet, page, "", "", nil); code != http.StatusUnauthorized || !strings.Contains(body, `<form method="post" action="/api/login">`) || !strings.Contains(body, `value="`+page+`"`) {
		t.Fatalf("a page without a token: %d, want 401 and the sign-in form going back to %s:\n%s", code, page, body)
	}
	resp, _ := post(h.starter, page)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != page {
		t.Fatalf("signing in: %d to %q, want 303 to %s", resp.StatusCode, resp.Header.Get("Location"), page)
	}
	cookie := sessionCookie(t, h, resp)
	req, _ := http.NewRequest(http.MethodGet, h.base+page, nil)
	req.AddCookie(cookie)
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r2.Body)
	r2.Body.Close()
	if r2.StatusCode != http.StatusOK || !strings.Contains(string(body), `id="room"`) {
		t.Fatalf("the page with the cookie: %d, want 200 and the room", r2.StatusCode)
	}

	resp, body2 := post("rt_wrongwrongwrongwrongwrongwrongwrongwrongwro", page)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body2, `class="error"`) || !strings.Contains(body2, "not valid") {
		t.Fatalf("a wrong token: %d, want 401 and the form saying why:\n%s", resp.StatusCode, body2)
	}
	if resp, _ := post(h.starter, "https://elsewhere.example/"); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a next on another site: %d, want 400", resp.StatusCode)
	}
	if code, body := h.do(http.MethodGet, "/rooms/other-room", h.observerToken(), "", nil); code != http.StatusForbidden || !strings.Contains(body, "opens room") {
		t.Fatalf("a room's token on another room's page: %d, want 403 and the form naming its room:\n%s", code, body)
	}
}

// sessionCookie is the session cookie a sign-in set: named after the
// host's port, HttpOnly, SameSite=Lax, for the whole host, and holding a
// random id, not the token.
func sessionCookie(t *testing.T, h *host, resp *http.Response) *http.Cookie {
	t.Helper()
	u, _ := url.Parse(h.base)
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "roundtable_"+u.Port() {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/" || cookie.MaxAge <= 0 || cookie.MaxAge > 12*3600 {
		t.Fatalf("the sign-in's cookies %v: want roundtable_%s, HttpOnly, SameSite=Lax, Path=/, for at most 12 hours", resp.Cookies(), u.Port())
	}
	if strings.HasPrefix(cookie.Value, "rt_") || strings.Contains(cookie.Value, h.starter) || len(cookie.Value) < 40 {
		t.Fatalf("the session cookie's value %q is a token, or too short to be a random id", cookie.Value)
	}
	return cookie
}

// signIn posts token to the sign-in form as the page does and returns the
// session cookie.
func signIn(t *testing.T, h *host, token string) *http.Cookie {
	t.Helper()
	form := url.Values{"token": {token}, "next": {"/"}}
	req, _ := http.NewRequest(http.MethodPost, h.base+"/api/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", h.base)
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in: %d, want 303", resp.StatusCode)
	}
	return sessionCookie(t, h, resp)
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// get fetches path with the given headers (a Cookie among them).
func (h *host) get(path string, hdr map[string]string) (int, string) {
	h.t.Helper()
	return h.do(http.MethodGet, path, "", "", hdr)
}

// TestCookieIsNoToken: what a browser keeps is a session id, and a token
// put where a session id goes opens nothing: the raw token as the
// session cookie's value, or in the cookie older hosts set, gets the
// sign-in form on a page and a 401 from the API.
func TestCookieIsNoToken(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd)
	defer h.stop()
	u, _ := url.Parse(h.base)
	name := "roundtable_" + u.Port()
	c := signIn(t, h, h.starter)
	if code, body := h.get("/api/sessions", map[string]string{"Cookie": c.String()}); code != http.StatusOK || !strings.Contains(body, `"sessions"`) {
		t.Fatalf("the API with the session cookie: %d %s", code, body)
	}
	for _, cookie := range []string{name + "=" + h.starter, "roundtable_token=" + h.starter} {
		if code, body := h.get("/api/sessions", map[string]string{"Cookie": cookie}); code != http.StatusUnauthorized {
			t.Fatalf("the API with the cookie %s: %d %s, want 401", cookie, code, body)
		}
		if code, body := h.get("/", map[string]string{"Cookie": cookie}); code != http.StatusUnauthorized || !strings.Contains(body, `<form method="post" action="/api/login">`) {
			t.Fatalf("the index with the cookie %s: %d, want 401 and the sign-in form", cookie, code)
		}
		if code, _ := h.do(http.MethodPost, "/api/sessions", "", contractBody, map[string]string{"Cookie": cookie, "Origin": h.base}); code != http.StatusUnauthorized {
			t.Fatalf("a start with the cookie %s: %d, want 401", cookie, code)
		}
	}
	if got := roomFolders(t, cwd); len(got) > 0 {
		t.Fatalf("room folders %v after starts with a token as cookie", got)
	}
}

// TestSignOut: POST /api/logout from the page ends the session: 303 to
// the sign-in page with the cookie cleared, and the old cookie, replayed,
// gets the sign-in form. From another site's page it is refused.
func TestSignOut(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd)
	defer h.stop()
	c := signIn(t, h, h.starter)
	if code, body := h.get("/", map[string]string{"Cookie": c.String()}); code != http.StatusOK || strings.Contains(body, `action="/api/login"`) {
		t.Fatalf("the index signed in: %d", code)
	}
	post := func(origin string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, h.base+"/api/logout", strings.NewReader(""))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", origin)
		req.AddCookie(c)
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := post("https://evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a sign-out from another site: %d, want 403", resp.StatusCode)
	}
	if code, _ := h.get("/", map[string]string{"Cookie": c.String()}); code != http.StatusOK {
		t.Fatalf("the session after a refused cross-site sign-out: %d, want 200", code)
	}
	resp := post(h.base)
	cleared := false
	for _, rc := range resp.Cookies() {
		cleared = cleared || (rc.Name == c.Name && rc.MaxAge < 0)
	}
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || !cleared {
		t.Fatalf("sign-out: %d to %q, cookies %v; want 303 to / clearing %s", resp.StatusCode, resp.Header.Get("Location"), resp.Cookies(), c.Name)
	}
	if code, body := h.get("/", map[string]string{"Cookie": c.String()}); code != http.StatusUnauthorized || !strings.Contains(body, `<form method="post" action="/api/login">`) {
		t.Fatalf("the old cookie after sign-out: %d, want 401 and the sign-in form", code)
	}
	if code, _ := h.get("/api/sessions", map[string]string{"Cookie": c.String()}); code != http.StatusUnauthorized {
		t.Fatalf("the API with the old cookie: %d, want 401", code)
	}
}

// TestRotateSignsOut: rotating a room's token (host --rotate, another
// process) signs out the browsers signed in with it.
func TestRotateSignsOut(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--room", "plans", "--topic", "Plan the cache")
	defer h.stop()
	c := signIn(t, h, h.observerToken())
	if code, _ := h.get("/rooms/plans", map[string]string{"Cookie": c.String()}); code != http.StatusOK {
		t.Fatalf("the room signed in with its observer token: %d", code)
	}
	if out, err := exec.Command(binary, "host", "--room", "plans", "--cwd", cwd, "--rotate", "observer").CombinedOutput(); err != nil {
		t.Fatalf("host --rotate observer: %v\n%s", err, out)
	}
	if code, body := h.get("/rooms/plans", map[string]string{"Cookie": c.String()}); code != http.StatusUnauthorized || !strings.Contains(body, `action="/api/login"`) {
		t.Fatalf("the room after its observer token was rotated: %d, want 401 and the sign-in form", code)
	}
}

// TestCrossSiteLink: a room's link clicked on another site (a chat) is a
// cross-site top-level navigation: without a session it gets the sign-in
// form going back to the room, never a 403; with one (the cookie is
// SameSite=Lax) the room. Any other cross-site request is still refused.
func TestCrossSiteLink(t *testing.T) {
	cwd := t.TempDir()
	h := startHost(t, cwd, "--room", "plans", "--topic", "Plan the cache")
	defer h.stop()
	nav := map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"}
	code, body := h.get("/rooms/plans", nav)
	if code != http.StatusUnauthorized || !strings.Contains(body, `<form method="post" action="/api/login">`) || !strings.Contains(body, `value="/rooms/plans"`) {
		t.Fatalf("a room's link from another site: %d, want 401 and the sign-in form going back to the room:\n%s", code, body)
	}
	if code, _ := h.get("/", nav); code != http.StatusUnauthorized {
		t.Fatalf("the index's link from another site: %d, want 401 and the form", code)
	}
	c := signIn(t, h, h.starter)
	nav["Cookie"] = c.String()
	if code, body := h.get("/rooms/plans", nav); code != http.StatusOK || !strings.Contains(body, `id="room"`) {
		t.Fatalf("a room's link from another site, signed in: %d, want 200 and the room", code)
	}
	fetch := map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty", "Cookie": c.String()}
	if code, _ := h.get("/api/sessions", fetch); code != http.StatusForbidden {
		t.Fatalf("a fetch from another site: %d, want 403", code)
	}
	if code, _ := h.get("/rooms/plans/transcript.md", nav); code != http.StatusForbidden {
		t.Fatalf("a cross-site navigation to an export: %d, want 403", code)
	}
}
