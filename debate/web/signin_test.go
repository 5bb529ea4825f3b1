package web_test

import (
	"io"
	"net/http"
	"net/url"
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
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "roundtable_token" {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("the sign-in's cookie: %+v, want roundtable_token, HttpOnly, SameSite=Strict", cookie)
	}
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
