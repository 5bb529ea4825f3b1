package room

import (
	"crypto/sha256"
	"fmt"
	"os"
	"testing"
	"time"
)

// BenchmarkTokenVerify measures TokenSet.Verify over 1 and 100 rooms: a
// valid token (one stat of its room's tokens.json) and a wrong one (a stat
// of every room's). The floor is the SHA-256 of one token, which every
// Verify pays; compare the others with it.
func BenchmarkTokenVerify(b *testing.B) {
	b.Run("floor=sha256", func(b *testing.B) {
		tok, _ := newToken()
		for b.Loop() {
			_ = sha256.Sum256([]byte(tok))
		}
	})
	for _, n := range []int{1, 100} {
		cwd := b.TempDir()
		rooms := make([]*Room, n)
		var tok string
		old := time.Now().Add(-time.Hour)
		for i := range rooms {
			r, _, err := Create(cwd, fmt.Sprintf("room-%03d", i), CreateOptions{Topic: "t"})
			if err != nil {
				b.Fatal(err)
			}
			toks, err := r.IssueTokens()
			if err != nil {
				b.Fatal(err)
			}
			// Settled files, as in a host running for a while.
			if err := os.Chtimes(r.TokensPath(), old, old); err != nil {
				b.Fatal(err)
			}
			tok = toks[GrantPeer]
			rooms[i] = r
		}
		ts, err := NewTokenSet(rooms)
		if err != nil {
			b.Fatal(err)
		}
		wrong, _ := newToken()
		b.Run(fmt.Sprintf("rooms=%d/valid", n), func(b *testing.B) {
			for b.Loop() {
				if _, ok := ts.Verify(tok); !ok {
					b.Fatal("valid token refused")
				}
			}
		})
		b.Run(fmt.Sprintf("rooms=%d/wrong", n), func(b *testing.B) {
			for b.Loop() {
				if _, ok := ts.Verify(wrong); ok {
					b.Fatal("wrong token accepted")
				}
			}
		})
	}
}
