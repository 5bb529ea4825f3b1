package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/room"
)

// An observer is the MCP client of a remote watch: it speaks MCP's
// streamable HTTP to a `roundtable host`, with the observer token as its
// bearer, and calls room.ObserveTool.

// ErrBadURL is a --url that is not an http:// or https:// address.
var ErrBadURL = errors.New("bad --url")

// ErrUnauthorized is a host's 401: the token does not verify.
var ErrUnauthorized = errors.New("the host refused the token: it is wrong or has been revoked; ask whoever runs roundtable host for the current observer token")

// maxReplyBytes bounds one HTTP reply from a host: a snapshot is at most a
// few MiB (room.SnapshotMaxText, a spec of room.MaxSpecBytes), which JSON
// escapes can grow.
var maxReplyBytes int64 = 64 << 20

// observeWait is how long each observe_room call asks the host to park
// while nothing is new: under room.MaxObserveWait, so a host's own limit
// never cuts it.
const observeWait = 50

// observeURL checks a host's URL and returns the endpoint (/mcp when the
// URL has no path) and the host:port the screen names.
func observeURL(raw string) (endpoint, label string, err error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("%w %q: pass the http:// or https:// URL roundtable host printed, like https://host:8765", ErrBadURL, raw)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/mcp"
	}
	label = u.Host
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		label = net.JoinHostPort(u.Hostname(), port)
	}
	return u.String(), label, nil
}

// bearerTransport adds the token to every request (the session's DELETE
// at the end too) and bounds every reply body to maxReplyBytes. It sends
// the token to the host's origin only (its scheme, host and port): a
// request anywhere else is refused before it leaves.
type bearerTransport struct {
	base   http.RoundTripper
	token  string
	origin *url.URL
}

func (t bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, t.origin) {
		return nil, &RedirectError{From: t.origin, To: req.URL}
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+t.token)
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{r: resp.Body, left: maxReplyBytes}
	return resp, nil
}

type limitedBody struct {
	r    io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("the host's reply is over %d MiB; it is not a roundtable host", maxReplyBytes>>20)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.r.Close() }

type observer struct {
	endpoint, token string
	http            *http.Client
	c               *client.Client
}

func newObserver(endpoint, token string) *observer {
	origin, _ := url.Parse(endpoint) // checked by observeURL
	return &observer{
		endpoint: endpoint, token: token,
		http: &http.Client{
			Transport: bearerTransport{base: http.DefaultTransport, token: token, origin: origin},
			// A redirect within the host's origin is followed; one to
			// another scheme, host or port is an error (the token would
			// go there).
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if !sameOrigin(req.URL, origin) {
					return &RedirectError{From: via[0].URL, To: req.URL}
				}
				if len(via) >= 10 {
					return fmt.Errorf("the host at %s redirected 10 times; check the URL", origin.Host)
				}
				return nil
			},
		},
	}
}

// RedirectError is a host redirecting a remote watch to another origin
// (scheme, host or port), where the token is not sent.
type RedirectError struct{ From, To *url.URL }

func (e *RedirectError) Error() string {
	return fmt.Sprintf("the host at %s redirected to %s, another origin, and the observer token is not sent there; if the room is really served at %s, pass that as --url",
		originOf(e.From), originOf(e.To), originOf(e.To))
}

// sameOrigin reports whether a and b have one scheme, host and port (the
// scheme's default port when none is given).
func sameOrigin(a, b *url.URL) bool {
	return originOf(a) == originOf(b)
}

// originOf is scheme://host:port, lowercased, with the default port
// written out.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = "80"
		if scheme == "https" {
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// connect opens an MCP session with the host.
func (o *observer) connect(ctx context.Context) error {
	o.close()
	c, err := client.NewStreamableHttpClient(o.endpoint,
		transport.WithHTTPBasicClient(o.http),
		// The screen owns the terminal: the transport's own log lines
		// would tear it. Its errors reach the status line.
		transport.WithHTTPLogger(slog.New(slog.DiscardHandler)),
	)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		_ = c.Close()
		return err
	}
	req := mcp.InitializeRequest{}
	// The session handshake every MCP client of a host uses.
	req.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "roundtable-watch", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		_ = c.Close()
		return err
	}
	o.c = c
	return nil
}

func (o *observer) close() {
	if o.c != nil {
		_ = o.c.Close()
		o.c = nil
	}
}

// observe calls observe_room once. hasNext is false for a reply without a
// cursor (a host shutting down answers {"idle": true}): the caller keeps
// its own.
func (o *observer) observe(ctx context.Context, c room.Cursor, wait int) (s room.Snapshot, hasNext bool, err error) {
	if o.c == nil {
		if err := o.connect(ctx); err != nil {
			return s, false, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(wait+30)*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = room.ObserveTool
	req.Params.Arguments = map[string]any{"cursor": c, "wait_seconds": wait}
	res, err := o.c.CallTool(ctx, req)
	if err != nil {
		o.close() // a session the host forgot, or a dead connection: start again
		return s, false, err
	}
	text := ""
	for _, content := range res.Content {
		if tc, ok := content.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		return s, false, &toolError{text: text}
	}
	var reply struct {
		room.Snapshot
		Next *room.Cursor `json:"next"`
	}
	if err := json.Unmarshal([]byte(text), &reply); err != nil {
		return s, false, fmt.Errorf("the host's %s reply is not a snapshot (%v); is it a roundtable host of the same version?", room.ObserveTool, err)
	}
	s = reply.Snapshot
	if reply.Next != nil {
		s.Next = *reply.Next
		hasNext = true
	}
	return s, hasNext, nil
}

// certCause is the last words of a certificate error.
func certCause(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "x509: "); i >= 0 {
		return msg[i+len("x509: "):]
	}
	return msg
}

// toolError is observe_room answering with isError: the host refused the
// call (a token that is not an observer's, say).
type toolError struct{ text string }

func (e *toolError) Error() string {
	return "the host refused to show the room: " + strings.TrimSuffix(strings.TrimSpace(e.text), ".")
}

// seatToken reports the host refusing observe_room because the token is
// a seat's.
func seatToken(err error) bool {
	var te *toolError
	return errors.As(err, &te) && strings.HasPrefix(strings.TrimSpace(te.text), room.ObserveSeatRefusal)
}

// isToolError reports the host refusing the call (the URL and host work).
func isToolError(err error) bool {
	var te *toolError
	return errors.As(err, &te)
}

// unauthorized reports a 401 from the host.
func unauthorized(err error) bool {
	return errors.Is(err, transport.ErrAuthorizationRequired) || errors.Is(err, transport.ErrUnauthorized)
}

// describeLinkError words a failed call for the status line.
func describeLinkError(err error) string {
	var te *toolError
	var re *RedirectError
	switch {
	case unauthorized(err):
		return ErrUnauthorized.Error()
	case errors.As(err, &te):
		return te.Error()
	case errors.As(err, &re):
		return re.Error()
	case isCertError(err):
		return "the host's TLS certificate is not trusted here (" + certCause(err) + "); if the host uses its own CA, point SSL_CERT_FILE at it"
	}
	var msg string
	var op *net.OpError
	if errors.As(err, &op) {
		msg = op.Err.Error()
	} else {
		// The transport wraps its cause in layers of "failed to send
		// request": the cause says it.
		inner := err
		for u := errors.Unwrap(inner); u != nil; u = errors.Unwrap(inner) {
			inner = u
		}
		msg = inner.Error()
		if errors.Is(inner, io.EOF) || errors.Is(inner, io.ErrUnexpectedEOF) {
			msg = "the host closed the connection"
		}
	}
	if len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}
