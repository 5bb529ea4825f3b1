package host

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// BenchmarkAuthGuardRefusal is what the host's handler spends on a request
// with a wrong token, in process (no network), with 100 rooms:
//
//   - wrong: refused 401 after the token is checked against every room
//     (each room's tokens.json stat'ed, in case it was just rotated);
//     the guard is given room for every failure, so none is refused 429;
//   - refused: the same request from an address whose failures are used
//     up, refused 429 before the body or the token is read.
//
// Compare refused with wrong: the report is refused/wrong's ratio.
func BenchmarkAuthGuardRefusal(b *testing.B) {
	const n = 100
	cwd := b.TempDir()
	old := time.Now().Add(-time.Hour)
	rooms := make([]*room.Room, 0, n)
	var peer string
	for i := range n {
		r, _, err := room.Create(cwd, fmt.Sprintf("room-%03d", i), room.CreateOptions{Topic: "bench", Budget: 12})
		if err != nil {
			b.Fatal(err)
		}
		toks, err := r.IssueTokens()
		if err != nil {
			b.Fatal(err)
		}
		// Settled files, as in a host that runs for a while.
		if err := os.Chtimes(r.Dir()+"/"+room.TokensFile, old, old); err != nil {
			b.Fatal(err)
		}
		rooms = append(rooms, r)
		peer = toks[room.GrantPeer]
	}
	ts, err := room.NewTokenSet(rooms)
	if err != nil {
		b.Fatal(err)
	}
	h, err := NewHost(b.Context(), Options{Rooms: rooms, Tokens: ts})
	if err != nil {
		b.Fatal(err)
	}
	handler := h.Handler()
	wrong := "Bearer " + room.TokenPrefix + strings.Repeat("A", len(peer)-len(room.TokenPrefix))
	serve := func(b *testing.B, remote string) int {
		req := httptest.NewRequest(http.MethodPost, EndpointPath, strings.NewReader(initReq))
		req.RemoteAddr = remote
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", wrong)
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, req)
		return w.Code
	}
	var perOp [2]float64
	b.Run(fmt.Sprintf("rooms=%d/wrong", n), func(b *testing.B) {
		h.guard = newAuthGuard(1<<40, authFailRate, authFailCap, time.Now)
		for b.Loop() {
			if code := serve(b, "192.0.2.1:4000"); code != http.StatusUnauthorized {
				b.Fatalf("a wrong token got HTTP %d, want 401", code)
			}
		}
		perOp[0] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run(fmt.Sprintf("rooms=%d/refused", n), func(b *testing.B) {
		// A clock that stands still: the bucket never refills.
		at := time.Now()
		h.guard = newAuthGuard(authFailBurst, authFailRate, authFailCap, func() time.Time { return at })
		for range authFailBurst {
			if code := serve(b, "192.0.2.2:4000"); code != http.StatusUnauthorized {
				b.Fatalf("a wrong token within the burst got HTTP %d, want 401", code)
			}
		}
		for b.Loop() {
			if code := serve(b, "192.0.2.2:4000"); code != http.StatusTooManyRequests {
				b.Fatalf("a blocked address got HTTP %d, want 429", code)
			}
		}
		perOp[1] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		if perOp[0] > 0 {
			b.ReportMetric(perOp[1]/perOp[0], "x-of-wrong")
		}
	})
}
