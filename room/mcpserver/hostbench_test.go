package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkHostTokenCheck measures what the bearer tokens cost a request
// in a `roundtable host` process, over loopback HTTP, with 1 room and with
// 100 (300 token hashes, each request compared with all of them):
//
//   - valid: an MCP ping on an open session (the token is verified on
//     every request; its room's tokens.json is stat'ed);
//   - wrong: an initialize with a wrong token, refused 401 (every room's
//     tokens.json is stat'ed, in case one was just rotated).
//
// rooms=1/valid is the floor: compare rooms=100 with it.
func BenchmarkHostTokenCheck(b *testing.B) {
	for _, n := range []int{1, 100} {
		cwd := b.TempDir()
		var peer string
		old := time.Now().Add(-time.Hour)
		for i := range n {
			name := fmt.Sprintf("room-%03d", i)
			toks := issueTokens(b, cwd, name, 12)
			// Settled files, as in a host that runs for a while.
			if err := os.Chtimes(room.Dir(cwd, name)+"/"+room.TokensFile, old, old); err != nil {
				b.Fatal(err)
			}
			peer = toks[room.GrantPeer]
		}
		h := startHostBin(b, plainBin(b), "--rate-limit", "1000000", "--all", "--cwd", cwd)
		cs := benchSession(b, h.url, peer, protoLegacy)
		b.Run(fmt.Sprintf("rooms=%d/valid", n), func(b *testing.B) {
			for b.Loop() {
				if err := cs.Ping(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		wrong := "Bearer " + room.TokenPrefix + strings.Repeat("A", len(peer)-len(room.TokenPrefix))
		client := &http.Client{Timeout: 10 * time.Second}
		b.Run(fmt.Sprintf("rooms=%d/wrong", n), func(b *testing.B) {
			for b.Loop() {
				req, err := http.NewRequest(http.MethodPost, h.url, strings.NewReader(initBody))
				if err != nil {
					b.Fatal(err)
				}
				req.Header.Set("Authorization", wrong)
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusUnauthorized {
					b.Fatalf("a wrong token got HTTP %d, want 401", resp.StatusCode)
				}
			}
		})
		_ = cs.Close()
		if err := h.stop(); err != nil {
			b.Fatal(err)
		}
	}
}
