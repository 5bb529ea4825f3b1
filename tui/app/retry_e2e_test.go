package app

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// cutStreamServer speaks OpenAI's streaming chat format: reply n
// (counting chat requests from 1) is "Reply n." with its usage; request
// cutAt sends "CUT partial" and then loses the connection mid-stream.
func cutStreamServer(t *testing.T, cutAt int64) *httptest.Server {
	t.Helper()
	var n atomic.Int64
	chunk := func(content, finish string) string {
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		c, _ := json.Marshal(content)
		return fmt.Sprintf(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%s},"finish_reason":%s}]}`+"\n\n", c, f)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		k := n.Add(1)
		if k == cutAt {
			conn, bw, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			data := chunk("CUT partial", "")
			fmt.Fprintf(bw, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(data), data)
			fmt.Fprint(bw, "40\r\ndata: {")
			_ = bw.Flush()
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, chunk(fmt.Sprintf("Reply %d", k), ""))
		fmt.Fprint(w, chunk(" said once.", "stop"))
		fmt.Fprint(w, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1200,"completion_tokens":3}}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestE2ERetryAfterACut: in a real terminal, a two-round debate over a
// server that cuts the stream in the second persona's first turn fails
// there, the screen offering R; R continues it in the same room; it ends
// with its verdict, the room complete with every turn exactly once (the
// cut one kept as incomplete), and the column headers and status line
// count the tokens: seven replies of 1,200 prompt tokens and 3 completion
// tokens each, and the one token streamed of the cut turn.
func TestE2ERetryAfterACut(t *testing.T) {
	srv := cutStreamServer(t, 2)
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	env := append(e2eEnv(t), "ROUNDTABLE_PROVIDER=")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 200, Height: 50, Dir: cwd, Env: env},
		bin, "tui", "--topic", "Should we adopt GraphQL", "--rounds", "2", "--room", "cut",
		"--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m")
	screen := s.WaitUntil("the failure and R", func(sc string) bool {
		return strings.Contains(sc, "✗ failed") && strings.Contains(sc, "R retry failed turn")
	}, 30*time.Second)
	if !strings.Contains(screen, "CUT partial") || !strings.Contains(screen, "cut off") {
		t.Errorf("the cut turn is not on screen:\n%s", screen)
	}
	s.SendKeys("R")
	screen = s.WaitFor("✓ verdict in", 30*time.Second)
	for _, want := range []string{"Product Manager · 2.4k in · 6 out", "Software Architect · 2.4k in · 7 out", "8.4k tokens (8.4k in, 22 out)"} {
		if !strings.Contains(s.WaitUntil(want, func(sc string) bool { return strings.Contains(sc, want) }, 10*time.Second), want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	s.SendKeys("q") // back to the home screen
	s.WaitFor("new MCP room", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}

	r, err := room.Open(cwd, "cut")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != debate.ReasonComplete {
		t.Fatalf("closed %+v", st.Closed)
	}
	seen := map[string]int{}
	incomplete := 0
	var texts []string
	for _, m := range st.Messages {
		if m.Kind == debate.KindIncomplete {
			incomplete++
			continue
		}
		seen[fmt.Sprintf("%s/%d", m.Seat, m.Round)]++
		texts = append(texts, m.Text)
	}
	for _, p := range []string{"Product Manager", "Software Architect", "Security Reviewer"} {
		for round := 1; round <= 2; round++ {
			if n := seen[fmt.Sprintf("%s/%d", p, round)]; n != 1 {
				t.Errorf("%s's turn of round %d is in the room %d times", p, round, n)
			}
		}
	}
	if incomplete != 1 || seen["moderator/2"] != 1 || len(st.Messages) != 8 {
		t.Errorf("%d incomplete, verdicts %d, %d messages", incomplete, seen["moderator/2"], len(st.Messages))
	}
	// Each reply of the server is saved once: nothing said was lost or said twice.
	all := strings.Join(texts, "\n")
	for k := 1; k <= 8; k++ {
		if k == 2 {
			continue // the cut request
		}
		if c := strings.Count(all, fmt.Sprintf("Reply %d said once.", k)); c != 1 {
			t.Errorf("reply %d is saved %d times", k, c)
		}
	}
	if _, err := os.Stat(filepath.Join(r.Dir(), "closed-1.json")); err != nil {
		t.Errorf("the failed ending was not kept aside: %v", err)
	}
}
