package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/page"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// A host may serve a web face beside /mcp (Options.Web): every path
// but /mcp goes to it, behind the checks /mcp passes, in the same order:
// the host stopping (503), the Host and Origin rules (403, httpguard.go;
// a page the host serves may call it from its own origin, and a link to
// a page clicked on another site opens it, webRefusal), the address's
// failed tokens and the token (401, authguard.go), the rate (429). The
// token comes in an Authorization: Bearer header; a browser instead signs
// in at LoginPath (a token posted in a form body, never in a URL) and
// gets a session id in a cookie, never the token (browsersessions.go),
// and signs out at LogoutPath. A request with neither reaches the web
// handler without a grant (webauth.GrantOf says so): it decides what it shows
// such a request (a health check, a page that asks for a token) and
// refuses the rest. The host does the bearer parsing, the token checks
// and the sessions; the web handler only reads the verdict.

// GrantStarter is the grant of a host's starter token
// (webauth.GrantStarter); NewStarterToken draws one.
const GrantStarter = webauth.GrantStarter

// LoginPath is where a browser signs in (webauth.LoginPath;
// browsersessions.go).
const LoginPath = webauth.LoginPath

// maxLoginBody bounds a login request's body.
const maxLoginBody = 4 << 10

// NewStarterToken draws a starter token and returns it with its SHA-256,
// which is all a host keeps (Options.StarterSHA256).
func NewStarterToken() (token string, sum [sha256.Size]byte, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", sum, fmt.Errorf("draw a random starter token: %w", err)
	}
	token = room.TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, sha256.Sum256([]byte(token)), nil
}

// isStarter reports whether token is the host's starter token, comparing
// hashes in constant time.
func (h *Host) isStarter(token string) bool {
	if h.opt.StarterSHA256 == ([sha256.Size]byte{}) {
		return false
	}
	sum := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(sum[:], h.opt.StarterSHA256[:]) == 1
}

// serveWeb checks a request for the web face and hands it on.
func (h *Host) serveWeb(w http.ResponseWriter, r *http.Request) {
	if h.refuseStopping(w, r) {
		return
	}
	if why := h.gate.webRefusal(r); why != "" {
		refuseHTTP(w, r, http.StatusForbidden, why)
		return
	}
	switch r.URL.Path {
	case LoginPath:
		h.serveLogin(w, r)
		return
	case LogoutPath:
		h.serveLogout(w, r)
		return
	}
	var a webauth.Door
	if hdr := r.Header.Get("Authorization"); hdr != "" {
		token, perr := parseBearer(hdr)
		g, _, ok := h.check(w, r, token, perr)
		if !ok {
			return
		}
		a = webauth.Door{Grant: g, OK: true}
	} else if c, err := r.Cookie(SessionCookie(r)); err == nil && c.Value != "" {
		// A session id, never a token: a cookie that names no live
		// session (a token pasted into it, an id signed out, expired or
		// of a token rotated since) grants nothing, and is cleared.
		if g, ok := h.sessionGrant(c.Value, time.Now()); ok {
			a = webauth.Door{Grant: g, OK: true}
		} else {
			clearSession(w, r)
		}
	}
	limits, key, whose := h.addrLimits, clientKey(r.RemoteAddr), "from your address without a token"
	if a.OK {
		limits, key, whose = h.limits, grantKey(a.Grant), "with this token"
	}
	if wait, ok := limits.take(key, time.Now()); !ok {
		secs := max(1, int(math.Ceil(wait.Seconds())))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		refuseHTTP(w, r, http.StatusTooManyRequests, fmt.Sprintf("too many requests %s; wait %d s and retry", whose, secs))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	a.Streams = h.beginWebStream
	ctx, cancel := context.WithCancel(webauth.With(r.Context(), a))
	defer cancel()
	// A stream the web face holds open ends when the host stops.
	go func() {
		select {
		case <-h.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	h.opt.Web.ServeHTTP(w, r.WithContext(ctx))
}

// serveLogin opens a browser session for a posted token once it is
// verified (POST), or ends the request's session (DELETE).
func (h *Host) serveLogin(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodDelete:
		h.endSession(w, r)
		w.WriteHeader(http.StatusNoContent)
		return
	case http.MethodPost:
	default:
		w.Header().Set("Allow", "POST, DELETE")
		refuseHTTP(w, r, http.StatusMethodNotAllowed, "sign in with a POST of a form whose field token holds the token the host printed; sign out with a POST to "+LogoutPath)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxLoginBody))
	if err != nil {
		refuseHTTP(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the sign-in form is over %d bytes; post only the token field", maxLoginBody))
		return
	}
	form, err := url.ParseQuery(string(body))
	tok := strings.TrimSpace(form.Get("token"))
	if err != nil || tok == "" {
		refuseHTTP(w, r, http.StatusBadRequest, "post a form (application/x-www-form-urlencoded) whose field token holds the token the host printed")
		return
	}
	var perr error
	if i := badB64Token(tok); i >= 0 || len(tok) > maxBearer {
		perr = fmt.Errorf("%w: the posted token is not a token the host prints; copy it again from the host's output", errBearer)
	}
	// A page's sign-in form names the page to go back to: the answer is
	// that page, or the form again saying what went wrong.
	next := form.Get("next")
	if next != "" && !localPath(next) {
		refuseHTTP(w, r, http.StatusBadRequest, "the sign-in form's next field must be a path on this host, like /rooms/<name>")
		return
	}
	cw := w
	var held *heldReply
	if next != "" {
		held = &heldReply{header: http.Header{}}
		cw = held
	}
	g, _, ok := h.check(cw, r, tok, perr)
	if !ok {
		if held != nil {
			for k, v := range held.header {
				if k == "Retry-After" || k == "Www-Authenticate" {
					w.Header()[k] = v
				}
			}
			page.Login(w, held.code, LoginPath, next, held.problem())
		}
		return
	}
	id, err := h.browser.add(tok, g, time.Now())
	if err != nil {
		w.Header().Set("Retry-After", "60")
		if next != "" {
			page.Login(w, http.StatusServiceUnavailable, LoginPath, next, err.Error())
			return
		}
		refuseHTTP(w, r, http.StatusServiceUnavailable, err.Error())
		return
	}
	setSession(w, r, id)
	if next != "" {
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, next, http.StatusSeeOther)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]string{"room": g.Room, "grant": g.Grant, "expires": time.Now().Add(SessionTTL).UTC().Format(time.RFC3339)})
}

// Web streams: what one token, and the whole host, may hold open at once
// (a browser's EventSource is one each; a browser opens at most 6
// connections to a host over HTTP/1.1). The host's starter token, the
// user's own pages (the boardroom, every room), keeps
// MaxWebStreamsPerToken of the host's streams that no other token may
// take: the other tokens together hold at most MaxWebStreams less that
// reserve, so 63 room tokens at their cap are needed to fill it, and even
// then the starter's pages open.
const (
	MaxWebStreamsPerToken = 32
	MaxWebStreams         = 2048
	// starterStreamReserve is the streams only the starter token may use.
	starterStreamReserve = MaxWebStreamsPerToken
)

// webStreams counts the web face's open streams.
type webStreams struct {
	mu    sync.Mutex
	by    map[string]int
	total int
}

// beginWebStream counts a long-lived response (an event stream) of a web
// request with grant g against the caps (webauth.BeginStream asks it); it
// returns the func that ends it, or why not (the handler answers 429).
func (h *Host) beginWebStream(g room.Grant) (end func(), why string) {
	key := grantKey(g)
	s := &h.webStreams
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]int{}
	}
	if s.by[key] >= MaxWebStreamsPerToken {
		return nil, fmt.Sprintf("this token already has %d streams open, the most one token may; close some pages, then retry", MaxWebStreamsPerToken)
	}
	if g.Grant == GrantStarter && s.total >= MaxWebStreams {
		return nil, fmt.Sprintf("the host has %d streams open, the most it serves at once; retry in a while", MaxWebStreams)
	}
	if g.Grant != GrantStarter && s.total >= MaxWebStreams-starterStreamReserve {
		return nil, fmt.Sprintf("the host has %d streams open, the most it serves to room tokens; retry in a while, or sign in with the host's starter token, whose pages keep streams of their own", s.total)
	}
	s.by[key]++
	s.total++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.total--
		if s.by[key]--; s.by[key] <= 0 {
			delete(s.by, key)
		}
	}, ""
}

// webRefusal is the gate's refusal of a web request: refusal's, except
// that a page the host serves may call it from the host's own origin:
// --url's, or the scheme and Host of the request when that Host is one
// the gate accepts by name (a loopback name on a loopback listen, or
// --url's). The Host rule still applies.
//
// A link to a page clicked on another site (a room's link pasted in a
// chat) is a top-level navigation from that site: it passes the Origin
// rule too, when it is a GET of the index or of a room's page that opens
// a whole tab (Sec-Fetch-Mode navigate, Sec-Fetch-Dest document: never a
// frame, an image or a fetch). It reads the page only, which the other
// site cannot see: the page (or, without a session, the sign-in form).
func (g *gate) webRefusal(r *http.Request) string {
	origin := r.Header.Get("Origin")
	if origin != "" && g.ownOrigin(origin, r) {
		return g.refusal(withoutOrigin(r))
	}
	if origin == "" && pageNavigation(r) {
		return g.refusal(withoutOrigin(r))
	}
	return g.refusal(r)
}

// pageNavigation reports whether r is a browser's top-level navigation
// to the index or to a room's page.
func pageNavigation(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if !strings.EqualFold(r.Header.Get("Sec-Fetch-Mode"), "navigate") || !strings.EqualFold(r.Header.Get("Sec-Fetch-Dest"), "document") {
		return false
	}
	p := r.URL.Path
	if p == "/" {
		return true
	}
	name, ok := strings.CutPrefix(p, "/rooms/")
	return ok && name != "" && !strings.Contains(name, "/")
}

// ownOrigin reports whether origin is the host's own, as r reached it.
func (g *gate) ownOrigin(origin string, r *http.Request) bool {
	o, err := ParseOrigin(origin)
	if err != nil {
		return false
	}
	if g.publicOrigin != "" && o == g.publicOrigin {
		return true
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	self, err := ParseOrigin(scheme + "://" + r.Host)
	if err != nil || o != self {
		return false
	}
	name := hostName(r.Host)
	return (g.loopback.Load() && loopbackHost(r.Host)) || (g.public != "" && name == g.public)
}

// withoutOrigin is r without its Origin and Sec-Fetch-Site headers, for
// the Host rule alone.
func withoutOrigin(r *http.Request) *http.Request {
	c := *r
	c.Header = r.Header.Clone()
	c.Header.Del("Origin")
	c.Header.Del("Sec-Fetch-Site")
	return &c
}

// localPath reports whether p is a path on this host (not another site's
// URL, not a scheme-relative //host), for a redirect after sign-in.
func localPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.ContainsAny(p, "\\\r\n") && len(p) <= 512
}

// heldReply keeps a refusal instead of sending it, so a sign-in form's
// refusal is answered as a page.
type heldReply struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (h *heldReply) Header() http.Header { return h.header }

func (h *heldReply) WriteHeader(code int) {
	if h.code == 0 {
		h.code = code
	}
}

func (h *heldReply) Write(b []byte) (int, error) {
	if h.code == 0 {
		h.code = http.StatusOK
	}
	return h.body.Write(b)
}

// problem is the refusal's sentence.
func (h *heldReply) problem() string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(h.body.Bytes(), &e) == nil && e.Error != "" {
		return e.Error
	}
	return strings.TrimSpace(h.body.String())
}
