package host_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// BenchmarkHostTokenCheck measures what the bearer tokens cost a request
// in a `roundtable host` process, over loopback HTTP, with 1 room and with
// 100 (300 token hashes, each request compared with all of them):
//
//   - valid: an MCP ping on an open session (the token is verified on
//     every request; its room's tokens.json is stat'ed);
//   - wrong: an initialize with a wrong token, refused 401 (every room's
//     tokens.json is stat'ed, in case one was just rotated), from a new
//     loopback address every 10 requests, under the limit of failures;
//   - refused: the same from an address whose failures are used up,
//     refused 429 before the token is read (authguard.go).
//
// rooms=1/valid is the floor: compare rooms=100 with it.
func BenchmarkHostTokenCheck(b *testing.B) {
	next := 0 // the next loopback address (fromLoopback) of wrong tokens
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
		h := hosttest.StartBin(b, hosttest.PlainBinary(b), "--rate-limit", "1000000", "--all", "--cwd", cwd)
		cs := benchSession(b, h.URL, peer, hosttest.ProtoLegacy)
		b.Run(fmt.Sprintf("rooms=%d/valid", n), func(b *testing.B) {
			for b.Loop() {
				if err := cs.Ping(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		wrong := "Bearer " + room.TokenPrefix + strings.Repeat("A", len(peer)-len(room.TokenPrefix))
		b.Run(fmt.Sprintf("rooms=%d/wrong", n), func(b *testing.B) {
			var client *http.Client
			for i := 0; b.Loop(); i++ {
				// A new address every 10 wrong tokens, under the host's
				// limit of 20 failures per address.
				if i%10 == 0 {
					if client != nil {
						client.CloseIdleConnections()
					}
					client = fromLoopback(next)
					next++
				}
				if code := postInit(b, client, h.URL, wrong); code != http.StatusUnauthorized {
					b.Fatalf("a wrong token got HTTP %d, want 401", code)
				}
			}
			client.CloseIdleConnections()
		})
		b.Run(fmt.Sprintf("rooms=%d/refused", n), func(b *testing.B) { benchRefused(b, h.URL, wrong, &next) })
		_ = cs.Close()
		if err := h.Stop(); err != nil {
			b.Fatal(err)
		}
	}
}
