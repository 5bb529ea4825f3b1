// Package webauth is what a host's door tells the web handler behind it
// about a request: who it is (GrantOf: the grant of the token or browser
// session it came with, checked by the host), where a browser signs in
// and out, and the stream budget the request may draw on (BeginStream).
//
// It is a leaf: the host (room/host) writes a request's Door into
// its context, and the web face (room/host/web) reads it, so the face
// never imports the host, nor through it the seat server.
package webauth

import (
	"context"

	"github.com/roundtable-dev/roundtable/room"
)

// GrantStarter is the grant of a host's starter token: it may start
// debates through the web face and watch every room the host serves, and
// holds no seat (/mcp refuses it). A host has at most one, made fresh at
// each start, of which only the hash is kept.
const GrantStarter = "starter"

// LoginPath is where a browser posts a token (a form body, field "token")
// to open a browser session; a DELETE there ends it, as a POST to
// LogoutPath does.
const LoginPath = "/api/login"

// LogoutPath is where a browser posts to sign out (a form or a fetch,
// from the host's own pages): its session is revoked and its cookie
// cleared.
const LogoutPath = "/api/logout"

// Door is what the host verified of a web request.
type Door struct {
	// Grant is the request's grant; OK is false when the request came
	// with no token and no browser session.
	Grant room.Grant
	OK    bool
	// Streams counts a long-lived response against the host's caps; nil:
	// no caps (a handler tested outside a host).
	Streams func(g room.Grant) (end func(), why string)
}

type doorKey struct{}

// With is ctx carrying d, as the host hands a request to its web face.
func With(ctx context.Context, d Door) context.Context {
	return context.WithValue(ctx, doorKey{}, d)
}

// WithGrant is ctx carrying g as GrantOf's answer, for tests of a web
// handler outside a host.
func WithGrant(ctx context.Context, g room.Grant) context.Context {
	return With(ctx, Door{Grant: g, OK: true})
}

// GrantOf is the verified grant of a request the host handed to its web
// handler; ok is false when the request carried no token.
func GrantOf(ctx context.Context) (g room.Grant, ok bool) {
	d, _ := ctx.Value(doorKey{}).(Door)
	return d.Grant, d.OK
}

// BeginStream counts a long-lived response (an event stream) of the web
// request ctx belongs to against the host's caps; it returns the func
// that ends it, or why not (the handler answers 429 with it).
func BeginStream(ctx context.Context) (end func(), why string) {
	d, _ := ctx.Value(doorKey{}).(Door)
	if d.Streams == nil {
		return func() {}, ""
	}
	return d.Streams(d.Grant)
}
