// Package debatetest holds test doubles for packages that run debates: a
// server speaking OpenAI's streaming chat format that loses its connection
// on one chosen request.
package debatetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// CutOptions shape a CutServer's replies.
type CutOptions struct {
	// Tail ends every reply after "Reply n"; default ".".
	Tail string
	// Prompt and Completion are the usage each reply reports; default 100
	// and 2.
	Prompt, Completion int
}

// CutServer speaks OpenAI's streaming chat format at /v1/chat/completions:
// reply n (counting chat requests from 1) is "Reply n" and the tail, with
// its usage; request CutAt streams "CUT partial" and then loses the
// connection in the middle of a chunk, as a dropped network does.
type CutServer struct {
	*httptest.Server
	CutAt int
	opt   CutOptions

	mu     sync.Mutex
	bodies []string
}

// NewCutServer starts a CutServer, closed when the test ends.
func NewCutServer(t testing.TB, cutAt int, opt CutOptions) *CutServer {
	t.Helper()
	if opt.Tail == "" {
		opt.Tail = "."
	}
	if opt.Prompt == 0 && opt.Completion == 0 {
		opt.Prompt, opt.Completion = 100, 2
	}
	cs := &CutServer{CutAt: cutAt, opt: opt}
	cs.Server = httptest.NewServer(http.HandlerFunc(cs.serve))
	t.Cleanup(cs.Close)
	return cs
}

// Requests are the bodies of the chat requests so far, in order.
func (cs *CutServer) Requests() []string {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return append([]string(nil), cs.bodies...)
}

func chunk(content, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	c, _ := json.Marshal(content)
	return fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%s},"finish_reason":%s}]}`+"\n\n", c, f)
}

func (cs *CutServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	var body strings.Builder
	_, _ = io.Copy(&body, r.Body)
	cs.mu.Lock()
	cs.bodies = append(cs.bodies, body.String())
	n := len(cs.bodies)
	cs.mu.Unlock()
	if n == cs.CutAt {
		conn, bw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		fmt.Fprint(bw, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		for _, c := range []string{"CUT", " partial"} {
			data := chunk(c, "")
			fmt.Fprintf(bw, "%x\r\n%s\r\n", len(data), data)
		}
		fmt.Fprint(bw, "40\r\ndata: {\"id\":") // a chunk that never ends
		_ = bw.Flush()
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset, not a clean close
		}
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, chunk(fmt.Sprintf("Reply %d", n), ""))
	fmt.Fprint(w, chunk(cs.opt.Tail, "stop"))
	fmt.Fprintf(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d}}`+"\n\n", cs.opt.Prompt, cs.opt.Completion)
	fmt.Fprint(w, "data: [DONE]\n\n")
}
