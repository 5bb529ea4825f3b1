package host

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkWebAuth: what the host's door costs a web request signed in
// by a browser session (a cookie, its token re-verified each time)
// beside one carrying the token (Authorization: Bearer), and one with
// none; the handler answers who the host says it is.
func BenchmarkWebAuth(b *testing.B) {
	r, _, err := room.Create(b.TempDir(), "inproc", room.CreateOptions{Topic: "t", Budget: 3})
	if err != nil {
		b.Fatal(err)
	}
	toks, err := r.IssueTokens()
	if err != nil {
		b.Fatal(err)
	}
	ts, err := room.NewTokenSet([]*room.Room{r})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h, err := NewHost(ctx, Options{Rooms: []*room.Room{r}, Tokens: ts, Web: whoWeb, Rate: 1e9, Burst: 1e9})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = h.Shutdown(context.Background()) }()
	h.gate.listening(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	handler := h.Handler()
	tok := toks[room.GrantObserver]
	g, err := ts.Authorize(tok)
	if err != nil {
		b.Fatal(err)
	}
	id, err := h.browser.add(tok, g, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		header string
		value  string
		want   string
	}{
		{"bearer", "Authorization", "Bearer " + tok, "inproc/observer"},
		{"session", "Cookie", "roundtable_80=" + id, "inproc/observer"},
		{"none", "", "", "anonymous"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/x", nil)
			req.Host = "127.0.0.1"
			req.RemoteAddr = "127.0.0.1:1234"
			if c.header != "" {
				req.Header.Set(c.header, c.value)
			}
			for b.Loop() {
				w := httptest.NewRecorder()
				handler.ServeHTTP(w, req)
				if w.Body.String() != c.want {
					b.Fatalf("%d %q, want %q", w.Code, w.Body.String(), c.want)
				}
			}
		})
	}
}
