package watch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRemoteWatchKeepsTheTokenAtItsHost (issue 20, item 5): a host that
// answers 307 to another port gets an error naming both origins, and the
// server there never sees the token.
func TestRemoteWatchKeepsTheTokenAtItsHost(t *testing.T) {
	var mu sync.Mutex
	var seen []string // Authorization headers the other server received
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer other.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/mcp", code)
		}))
		token := "rt_" + strings.Repeat("s", 43)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		err := RunRemote(ctx, RemoteOptions{URL: fake.URL, Token: token})
		cancel()
		fake.Close()
		if err == nil {
			t.Fatalf("%d: RunRemote followed the redirect", code)
		}
		mu.Lock()
		got := append([]string(nil), seen...)
		mu.Unlock()
		for _, h := range got {
			if h != "" {
				t.Fatalf("%d: the other server received Authorization: %q", code, h)
			}
		}
		for _, want := range []string{strings.TrimPrefix(fake.URL, "http://"), strings.TrimPrefix(other.URL, "http://"), "another origin", "not sent"} {
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("%d: %v; want it to say %q", code, err, want)
			}
		}
	}
}

// TestBearerTransportSameOriginOnly: the token goes to the host's origin
// only, the default port written out or not; any other scheme, host or
// port is refused before a request leaves.
func TestBearerTransportSameOriginOnly(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Header.Get("Authorization") }))
	defer srv.Close()
	o := newObserver(srv.URL+"/mcp", "rt_tok")
	res, err := o.http.Get(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got != "Bearer rt_tok" {
		t.Fatalf("the host got Authorization %q", got)
	}
	for _, u := range []string{"https" + strings.TrimPrefix(srv.URL, "http") + "/mcp", "http://localhost.invalid/mcp", "http://127.0.0.1:1/mcp"} {
		_, err := o.http.Get(u)
		var re *RedirectError
		if !errors.As(err, &re) {
			t.Fatalf("GET %s: %v; want a RedirectError", u, err)
		}
	}
	for a, b := range map[string]string{"http://h/x": "http://H:80/y", "https://h:443/": "https://h/mcp"} {
		o := newObserver(a, "t")
		if !sameOrigin(o.http.Transport.(bearerTransport).origin, mustURL(t, b)) {
			t.Errorf("%s and %s are one origin", a, b)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
