package host

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/webauth"
)

// Browser sessions: what a sign-in (LoginPath) trades a token for. The
// browser keeps a random session id in a cookie, never the token: a
// browser sends a cookie of 127.0.0.1 to every port of 127.0.0.1, so a
// server on another port may receive the cookie, and what it gets is an
// id that opens this host's pages for at most SessionTTL and until
// sign-out, that holds no MCP seat (/mcp reads only the Authorization
// header) and that it cannot turn into a token. The ids live in the
// host's memory only (a restart signs every browser out), in a bounded
// map swept as it grows.
//
// The cookie is named after the port the browser reached the host at
// (SessionCookie), so two hosts on one machine neither overwrite nor read
// each other's. It is HttpOnly (no script reads it) and SameSite=Lax: a
// link to a room pasted in a chat and clicked there is a cross-site
// top-level navigation, which carries a Lax cookie, so a browser signed in
// sees the room at once rather than pasting its token again; a Strict
// cookie would send it back to the form, and every extra paste is one
// more chance for the token to leak. Lax keeps the cookie off every
// cross-site request but those navigations (GETs, which only read; a page
// of another site cannot read what they answer), off every cross-site
// POST, and out of other sites' frames; every request that changes
// something is a POST, which the Origin rule checks besides.
//
// Each use re-verifies the token the session was opened with: a token
// rotated (room.RotateToken, `host --rotate`) or a room deleted ends its
// sessions at their next request. Sign-out (LogoutPath) revokes the id.

// SessionTTL is how long a browser session lasts from its sign-in: fixed,
// not sliding, so an id that leaked is worth a working day at most.
const SessionTTL = 12 * time.Hour

// LogoutPath is where a browser signs out (webauth.LogoutPath).
const LogoutPath = webauth.LogoutPath

// The bounds of the sessions a host keeps: a token's sign-ins past
// maxSessionsPerToken end its oldest; past maxBrowserSessions a sign-in
// is refused until sessions end.
const (
	maxBrowserSessions  = 4096
	maxSessionsPerToken = 16
	sessionSweepEvery   = time.Minute
)

// legacyCookie is the cookie older hosts kept the raw token in; a sign-in
// or sign-out clears it, and no request is granted anything for it.
const legacyCookie = "roundtable_token"

// errSessionsFull refuses a sign-in when the host keeps all the sessions
// it may.
var errSessionsFull = fmt.Errorf("the host keeps %d browser sessions, the most it keeps; sign out in another browser or wait for one to expire, then sign in again", maxBrowserSessions)

// SessionCookie is the name of the session cookie for r: roundtable_ and
// the port the browser reached the host at (its Host header), so hosts on
// other ports of the same machine use other names.
func SessionCookie(r *http.Request) string {
	port := ""
	if _, p, err := net.SplitHostPort(r.Host); err == nil {
		port = p
	}
	if port == "" || strings.Trim(port, "0123456789") != "" || len(port) > 5 {
		port = "80"
		if r.TLS != nil {
			port = "443"
		}
	}
	return "roundtable_" + port
}

type browserSession struct {
	token   string // re-verified at each use; kept in the host's memory only
	grant   room.Grant
	expires time.Time
}

// browserSessions are a host's signed-in browsers, by session id.
type browserSessions struct {
	mu    sync.Mutex
	m     map[string]*browserSession
	swept time.Time
}

// newSessionID draws a session id: 32 random bytes, base64url.
func newSessionID() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("draw a random session id: %w; try signing in again", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// add opens a session for token (verified, of grant g) and returns its id.
func (b *browserSessions) add(token string, g room.Grant, now time.Time) (string, error) {
	id, err := newSessionID()
	if err != nil {
		return "", err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]*browserSession{}
	}
	if now.Sub(b.swept) >= sessionSweepEvery || len(b.m) >= maxBrowserSessions {
		b.sweepLocked(now)
	}
	// A token's own sessions are bounded: the oldest of them ends.
	var mine int
	var oldest string
	for k, s := range b.m {
		if s.token != token {
			continue
		}
		mine++
		if oldest == "" || s.expires.Before(b.m[oldest].expires) {
			oldest = k
		}
	}
	if mine >= maxSessionsPerToken {
		delete(b.m, oldest)
	}
	if len(b.m) >= maxBrowserSessions {
		return "", errSessionsFull
	}
	b.m[id] = &browserSession{token: token, grant: g, expires: now.Add(SessionTTL)}
	return id, nil
}

// sweepLocked drops the expired sessions.
func (b *browserSessions) sweepLocked(now time.Time) {
	for k, s := range b.m {
		if !now.Before(s.expires) {
			delete(b.m, k)
		}
	}
	b.swept = now
}

// get is the session id names, unless it is unknown or expired (an
// expired one is dropped).
func (b *browserSessions) get(id string, now time.Time) (browserSession, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.m[id]
	if !ok {
		return browserSession{}, false
	}
	if !now.Before(s.expires) {
		delete(b.m, id)
		return browserSession{}, false
	}
	return *s, true
}

// revoke ends session id (nothing when it is unknown).
func (b *browserSessions) revoke(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, id)
}

// Len is how many sessions the host keeps.
func (b *browserSessions) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.m)
}

// sessionGrant is the grant of the browser session id, its token checked
// again: a token rotated or of a room gone since ends the session.
func (h *Host) sessionGrant(id string, now time.Time) (room.Grant, bool) {
	if len(id) > 64 {
		return room.Grant{}, false
	}
	s, ok := h.browser.get(id, now)
	if !ok {
		return room.Grant{}, false
	}
	if h.isStarter(s.token) {
		return room.Grant{Grant: GrantStarter}, true
	}
	if h.opt.Tokens != nil {
		if g, err := h.opt.Tokens.Authorize(s.token); err == nil {
			return g, true
		}
	}
	h.browser.revoke(id)
	return room.Grant{}, false
}

// setSession sets the session cookie for id, and clears the cookie older
// hosts kept the token in.
func setSession(w http.ResponseWriter, r *http.Request, id string) {
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookie(r), Value: id, Path: "/", MaxAge: int(SessionTTL / time.Second),
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
	clearCookie(w, r, legacyCookie)
}

// clearSession clears the session cookie (and the older token cookie).
func clearSession(w http.ResponseWriter, r *http.Request) {
	clearCookie(w, r, SessionCookie(r))
	clearCookie(w, r, legacyCookie)
}

func clearCookie(w http.ResponseWriter, r *http.Request, name string) {
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
}

// serveLogout ends the browser's session: POST LogoutPath, from a form or
// a fetch of the host's own pages (the Origin rule has passed it). The
// cookie is cleared, and the answer sends the browser to the sign-in page.
func (h *Host) serveLogout(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		refuseHTTP(w, r, http.StatusMethodNotAllowed, "sign out with a POST to "+LogoutPath+" (the page's Sign out button)")
		return
	}
	h.endSession(w, r)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// endSession revokes the request's session, if any, and clears its cookie.
func (h *Host) endSession(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(SessionCookie(r)); err == nil {
		h.browser.revoke(c.Value)
	}
	clearSession(w, r)
}
