package host

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// A host's first checks of a request, before its token: where it says it
// was sent to (Host) and which web page sent it (Origin). Both answer 403
// without counting against the address (authguard.go): a web page in the
// user's browser can make requests from the user's address, and must not
// be able to spend the failures that the user's own agents are allowed.
//
// Origin: browsers add it to every cross-site request and to every
// non-GET one; agents' CLIs send none. The MCP transport (2025-06-18 and
// 2025-11-25) says a server must validate it. A host serves no web page of
// its own, so no origin is allowed unless named with --allow-origin. A
// browser request without Origin (an image or a link, a GET) still says
// where it came from in Sec-Fetch-Site, and one from another site is
// refused the same way. net/http's CrossOriginProtection is not used: it
// lets every GET through and trusts an Origin equal to the Host header,
// which a DNS-rebinding page on a non-loopback listen would match.
//
// Host: on a loopback listen, a Host header that is not a loopback name is
// a page that had its own name resolve to 127.0.0.1 (DNS rebinding), and
// is refused. The host name of --url is allowed too, for a host behind a
// proxy or tunnel that keeps the client's Host.

// ParseOrigin checks an --allow-origin value, scheme://host[:port], and
// returns it as browsers send it in an Origin header: lowercase, without
// a default port. Fuzzed.
func ParseOrigin(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	bad := func(why string) error {
		return fmt.Errorf("origin %q %s; give scheme://host[:port], for example https://app.example.com", s, why)
	}
	switch {
	case err != nil:
		return "", bad("is not a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", bad("needs the scheme http or https")
	case u.Host == "" || u.Hostname() == "":
		return "", bad("has no host")
	case u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return "", bad("has more than scheme, host and port")
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		return u.Scheme + "://" + host + ":" + port, nil
	}
	return u.Scheme + "://" + host, nil
}

// originRefusal is why a request's Origin or Sec-Fetch-Site header is
// refused, or "" when it passes. allowed holds ParseOrigin forms. Fuzzed.
func originRefusal(origin, fetchSite string, allowed map[string]bool) string {
	if origin != "" {
		if o, err := ParseOrigin(origin); err == nil && allowed[o] {
			return ""
		}
		return fmt.Sprintf("requests from web pages are refused: the Origin %q is not allowed to use this host's rooms; if that page is yours, restart the host with --allow-origin and its origin (scheme://host[:port])", clip(origin))
	}
	switch strings.ToLower(strings.TrimSpace(fetchSite)) {
	case "", "none", "same-origin":
		return ""
	}
	return "requests from web pages are refused: the browser says this one came from another site (Sec-Fetch-Site); agents connect without a browser"
}

// clip is a header's value short enough to quote in a refusal.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}

// loopbackHost reports whether a Host header names this machine: localhost
// or a loopback address, with or without a port. Fuzzed.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	host = strings.TrimSuffix(host, ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.Unmap().IsLoopback()
}

// hostName is a Host header's name without port or brackets, lowercase.
func hostName(hostport string) string {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	return strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
}

// gate is the Origin and Host rules of a host.
type gate struct {
	allowed  map[string]bool // --allow-origin, ParseOrigin forms
	loopback atomic.Bool     // the host listens on loopback only (Serve)
	public   string          // hostName of --url, allowed as a Host
	// publicOrigin is --url's origin (ParseOrigin form): the host's own
	// pages, behind a proxy too, call its web face from there (web.go).
	publicOrigin string
}

func newGate(origins []string, publicURL string) (*gate, error) {
	g := &gate{allowed: map[string]bool{}}
	for _, o := range origins {
		p, err := ParseOrigin(o)
		if err != nil {
			return nil, fmt.Errorf("--allow-origin: %w", err)
		}
		g.allowed[p] = true
	}
	if u, err := url.Parse(publicURL); err == nil && u.Host != "" {
		g.public = hostName(u.Host)
		if o, err := ParseOrigin(u.Scheme + "://" + u.Host); err == nil {
			g.publicOrigin = o
		}
	}
	return g, nil
}

// listening notes the address the host listens on.
func (g *gate) listening(addr net.Addr) {
	if ta, ok := addr.(*net.TCPAddr); ok {
		g.loopback.Store(ta.IP.IsLoopback())
	}
}

// refusal is why r is refused (403), or "".
func (g *gate) refusal(r *http.Request) string {
	if g.loopback.Load() && !loopbackHost(r.Host) && (g.public == "" || hostName(r.Host) != g.public) {
		return fmt.Sprintf("the Host header %q is not this machine's name, and this host listens on loopback only (a web page may be trying DNS rebinding); connect to localhost or 127.0.0.1, or restart the host with --url naming the address your clients use", clip(r.Host))
	}
	return originRefusal(r.Header.Get("Origin"), r.Header.Get("Sec-Fetch-Site"), g.allowed)
}

// refuseHTTP answers a refusal. A body left unread is not waited for:
// net/http closes the connection after the answer when over 256 KiB of it
// remain, and otherwise reads what remains to keep the connection, which
// the read deadline set here cuts to a second, so a client that holds
// back its body holds nothing of the host's for long.
func refuseHTTP(w http.ResponseWriter, r *http.Request, code int, msg string) {
	if r.ContentLength != 0 {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(unreadGrace))
	}
	if strings.HasPrefix(r.URL.Path, webAPIPrefix) {
		jsonError(w, code, msg)
		return
	}
	httpError(w, code, msg)
}

// unreadGrace is how long a refused request's unread body may take to
// arrive before its connection is closed.
const unreadGrace = time.Second
