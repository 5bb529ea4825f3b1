package app

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/debatetest"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// cutStreamServer is a debatetest.CutServer: reply n (counting chat requests
// from 1) is "Reply n" and its tail; request cutAt says "CUT partial" and
// then loses the connection mid-stream.
func cutStreamServer(t *testing.T, cutAt int) *httptest.Server {
	return debatetest.NewCutServer(t, cutAt, debatetest.CutOptions{Tail: " said once.", Prompt: 1200, Completion: 3}).Server
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
	// The cut turn counts its two streamed pieces as two tokens of output.
	for _, want := range []string{"Product Manager · 2.4k in · 6 out", "Software Architect · 2.4k in · 8 out", "8.4k tokens (8.4k in, 23 out)"} {
		if !strings.Contains(s.WaitUntil(want, func(sc string) bool { return strings.Contains(sc, want) }, 10*time.Second), want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	s.SendKeys("q") // back to the home screen
	s.WaitFor("m MCP room", 10*time.Second)
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
