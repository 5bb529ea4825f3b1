package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A large reply (read_room {since: 0} in a room of 10,000 messages is 6 MB)
// spent most of its time in mcp-go, not in the room: the stdio transport
// marshals the result, escaping the text into a JSON string, and
// encoding/json then re-validates that output byte by byte as it nests it
// in the JSON-RPC response. Both passes are as long as the reply.
//
// So a large text reply leaves the handler as a short placeholder, and the
// writer under the transport puts the text, escaped once, in its place as
// the response line goes out. The placeholder carries 128 random bits drawn
// when the seat starts, so no text an agent or a room file holds can name
// one. Only Serve installs the writer; a seat served any other way
// (Seat.MCPServer in a test) sends its replies whole.

// spliceMin is the reply size from which a reply is spliced: below it
// mcp-go's marshaling costs less than a millisecond.
const spliceMin = 64 << 10

// spliceTTL bounds how long an unclaimed text is kept: a reply whose call
// was cancelled is never written.
const spliceTTL = time.Minute

type splicer struct {
	prefix string // `"roundtable-reply-<32 hex>-`, with the opening quote

	mu      sync.Mutex
	n       uint64
	pending map[string]splice // by placeholder, with its quotes
}

type splice struct {
	quoted []byte // the text as a JSON string, with its quotes
	at     time.Time
}

func newSplicer() *splicer {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return &splicer{prefix: `"roundtable-reply-` + hex.EncodeToString(b[:]) + "-", pending: map[string]splice{}}
}

// hold keeps text for the writer and returns its placeholder (no quotes).
func (sp *splicer) hold(text string) string {
	return sp.holdQuoted(appendString(make([]byte, 0, len(text)+len(text)/8+2), text))
}

// holdQuoted is hold for a text already written as a JSON string.
func (sp *splicer) holdQuoted(quoted []byte) string {
	now := time.Now()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for k, v := range sp.pending {
		if now.Sub(v.at) > spliceTTL {
			delete(sp.pending, k)
		}
	}
	sp.n++
	key := sp.prefix + strconv.FormatUint(sp.n, 10) + `"`
	sp.pending[key] = splice{quoted: quoted, at: now}
	return key[1 : len(key)-1]
}

// take returns and forgets the text held under a quoted placeholder.
func (sp *splicer) take(key []byte) ([]byte, bool) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	s, ok := sp.pending[string(key)]
	if ok {
		delete(sp.pending, string(key))
	}
	return s.quoted, ok
}

func (sp *splicer) idle() bool {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return len(sp.pending) == 0
}

// middleware swaps a large text reply for its placeholder.
func (sp *splicer) middleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := next(ctx, req)
		if err != nil || res == nil || len(res.Content) != 1 {
			return res, err
		}
		if tc, ok := res.Content[0].(mcp.TextContent); ok && len(tc.Text) >= spliceMin {
			tc.Text = sp.hold(tc.Text)
			res.Content[0] = tc
		}
		return res, err
	}
}

// replyLarge is reply for a reply that may be large (read_room's). Under
// Serve, one that may pass spliceMin is written once, straight into its
// escaped form, and held for the writer: no intermediate text, no second
// pass. Otherwise it is an ordinary reply (which the middleware may still
// splice).
func (s *Seat) replyLarge(o object) (*mcp.CallToolResult, error) {
	if s.splice == nil || o.sizeHint() < spliceMin {
		return reply(o)
	}
	quoted, err := o.encodeQuoted()
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(s.splice.holdQuoted(quoted)), nil
}

// writer wraps the transport's output. mcp-go writes each message with one
// Write while holding its write lock, so a placeholder never straddles two
// writes and the pieces of a spliced line go out together.
func (sp *splicer) writer(w io.Writer) io.Writer { return &spliceWriter{sp: sp, w: w} }

type spliceWriter struct {
	sp *splicer
	mu sync.Mutex // the pieces of one line go out together whoever writes
	w  io.Writer
}

func (s *spliceWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sp.idle() {
		return s.w.Write(p)
	}
	i := bytes.Index(p, []byte(s.sp.prefix))
	if i < 0 {
		return s.w.Write(p)
	}
	end := bytes.IndexByte(p[i+len(s.sp.prefix):], '"')
	if end < 0 {
		return s.w.Write(p)
	}
	end += i + len(s.sp.prefix) + 1
	quoted, ok := s.sp.take(p[i:end])
	if !ok {
		return s.w.Write(p)
	}
	for _, part := range [][]byte{p[:i], quoted, p[end:]} {
		if _, err := s.w.Write(part); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
