package host

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

func TestParseOrigin(t *testing.T) {
	good := map[string]string{
		"https://App.Example.com":      "https://app.example.com",
		"https://app.example.com:443/": "https://app.example.com",
		"http://localhost:3000":        "http://localhost:3000",
		"http://[::1]:80":              "http://[::1]",
		" http://10.0.0.5:8080 ":       "http://10.0.0.5:8080",
	}
	for in, want := range good {
		if got, err := ParseOrigin(in); err != nil || got != want {
			t.Errorf("ParseOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "null", "app.example.com", "ftp://x", "https://", "https://u@x", "https://x/path", "https://x?q", "https://x#f", "https://:80"} {
		if got, err := ParseOrigin(in); err == nil || !strings.Contains(err.Error(), "scheme://host[:port]") {
			t.Errorf("ParseOrigin(%q) = %q, %v; want an error saying the form", in, got, err)
		}
	}
}

func TestLoopbackHost(t *testing.T) {
	for _, h := range []string{"localhost", "LocalHost:8765", "localhost.", "127.0.0.1", "127.9.8.7:1", "[::1]", "[::1]:8765", "::1", "[::ffff:127.0.0.1]:80"} {
		if !loopbackHost(h) {
			t.Errorf("loopbackHost(%q) = false", h)
		}
	}
	for _, h := range []string{"", "evil.example", "localhost.evil.example", "127.0.0.1.evil.example:80", "10.0.0.1", "[::2]:80", "[fe80::1%lo]:80", "0.0.0.0", "localhost:80:80"} {
		if loopbackHost(h) {
			t.Errorf("loopbackHost(%q) = true", h)
		}
	}
}

// FuzzRequestGate: any Origin, Sec-Fetch-Site, Host and Authorization
// headers are judged without a panic; an allowed origin passes in the
// form ParseOrigin gives it, which it gives back unchanged; any other
// Origin is refused with a sentence; a Host passes as loopback only when
// it names localhost or a loopback address.
func FuzzRequestGate(f *testing.F) {
	f.Add("https://app.example.com", "cross-site", "127.0.0.1:8765", "Bearer rt_x", "https://App.example.com:443")
	f.Add("null", "", "[::1]:80", "", "http://localhost:3000")
	f.Add("", "same-site", "evil.example", "Basic Zm9v", "ftp://x")
	f.Add("http://[::1", "none", "[::ffff:127.0.0.1]", "Bearer", "https://x/%zz")
	f.Fuzz(func(t *testing.T, origin, fetchSite, host, authz, allow string) {
		allowed := map[string]bool{}
		if p, err := ParseOrigin(allow); err == nil {
			allowed[p] = true
			if again, err := ParseOrigin(p); err != nil || again != p {
				t.Fatalf("ParseOrigin(%q) = %q, then %q, %v", allow, p, again, err)
			}
			if why := originRefusal(p, fetchSite, allowed); why != "" {
				t.Fatalf("allowed origin %q refused: %s", p, why)
			}
		}
		why := originRefusal(origin, fetchSite, allowed)
		if origin != "" && len(allowed) == 0 && why == "" {
			t.Fatalf("Origin %q passed with no origin allowed", origin)
		}
		if len(why) > 500 || strings.Contains(why, "\n") {
			t.Fatalf("refusal is not one short sentence: %q", why)
		}
		if loopbackHost(host) {
			name := hostName(host)
			ip, err := netip.ParseAddr(name)
			if name != "localhost" && (err != nil || !ip.Unmap().IsLoopback()) {
				t.Fatalf("Host %q (%q) taken for loopback", host, name)
			}
		}
		if tok, err := parseBearer(authz); err == nil && tok == "" {
			t.Fatalf("parseBearer(%q) gave an empty token", authz)
		}
	})
}

// TestHostStreamEndsWithSession: a session's event stream, kept open by
// heartbeats, is closed once the session idles out.
func TestHostStreamEndsWithSession(t *testing.T) {
	_, srv, toks, _ := testHost(t, Options{IdleTTL: 300 * time.Millisecond})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+EndpointPath, strings.NewReader(initReq))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+toks[room.GrantPeer])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	id := res.Header.Get("Mcp-Session-Id")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+EndpointPath, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Authorization", "Bearer "+toks[room.GrantPeer])
	get.Header.Set("Mcp-Session-Id", id)
	get.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	stream, err := http.DefaultClient.Do(get)
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("GET the session's stream: %v %v", err, stream)
	}
	defer stream.Body.Close()
	_, _ = io.Copy(io.Discard, stream.Body)
	if ctx.Err() != nil {
		t.Fatal("the stream of a session idle past its TTL was still open 20 s on")
	}
}

// TestHostSessionCapPerHost: with MaxSessions sessions held across
// tokens, a new session of any token is refused saying the host is full;
// once one ends, there is room again. A token's own cap comes first.
func TestHostSessionCapPerHost(t *testing.T) {
	h, _, _, _ := testHost(t, Options{})
	issue := func(i int, grant string) string {
		id := h.Generate()
		h.caps.sessions[id] = sessionRec{grant: fmt.Sprintf("room%d/%s", i, grant)}
		return id
	}
	var first string
	for i := range MaxSessions {
		id := issue(i/MaxSessionsPerToken, room.GrantPeer)
		if i == 0 {
			first = id
		}
	}
	fresh := room.Grant{Room: "other", Grant: room.GrantLead}
	if _, why := h.beginSession(fresh, "rt_x"); !strings.Contains(why, fmt.Sprintf("the host holds %d sessions", MaxSessions)) {
		t.Fatalf("a new session of a host at its cap: %q", why)
	}
	full := room.Grant{Room: "room0", Grant: room.GrantPeer}
	if _, why := h.beginSession(full, "rt_x"); !strings.Contains(why, fmt.Sprintf("this token already holds %d sessions", MaxSessionsPerToken)) || !strings.Contains(why, "10 minutes") {
		t.Fatalf("a new session of a token at its cap: %q", why)
	}
	if _, err := h.Terminate(first); err != nil {
		t.Fatal(err)
	}
	done, why := h.beginSession(fresh, "rt_x")
	if why != "" {
		t.Fatalf("after a session ended: %q", why)
	}
	done("")
}
