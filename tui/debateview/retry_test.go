package debateview

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/debate/debatetest"
	"github.com/roundtable-dev/roundtable/room"
)

// cutServer is a debatetest.CutServer: reply n (counting chat requests
// from 1) is "Reply n" and its tail; request cutAt says "CUT partial" and
// then loses the connection mid-stream.
func cutServer(t *testing.T, cutAt int) *httptest.Server {
	return debatetest.NewCutServer(t, cutAt, debatetest.CutOptions{Tail: ".", Prompt: 50, Completion: 2}).Server
}

func wireLaunch(cwd, url string) Launch {
	l := mockLaunch(cwd, 2)
	l.Provider = debate.ProviderConfig{Name: debate.ProviderOpenAI, BaseURL: url + "/v1", Model: "m", APIKey: "k"}
	l.Getenv = func(string) string { return "" }
	return l
}

// checkEveryTurnOnce checks that the room holds each persona's turn of
// each of rounds once, the verdict once, and incomplete messages cut.
func checkEveryTurnOnce(t *testing.T, st room.State, rounds, cut int) {
	t.Helper()
	seen := map[string]int{}
	incomplete := 0
	for _, m := range st.Messages {
		if m.Kind == debate.KindIncomplete {
			incomplete++
			continue
		}
		seen[fmt.Sprintf("%s/%d", m.Seat, m.Round)]++
	}
	for _, p := range panel {
		for r := 1; r <= rounds; r++ {
			if n := seen[fmt.Sprintf("%s/%d", p, r)]; n != 1 {
				t.Errorf("%s's turn of round %d is in the room %d times", p, r, n)
			}
		}
	}
	if incomplete != cut || seen[room.SeatModerator+"/"+fmt.Sprint(rounds)] != 1 {
		t.Errorf("%d incomplete messages (want %d), verdicts %v", incomplete, cut, seen)
	}
}

// TestRetryAfterACutStream: the server cuts the stream in the second
// persona's turn; the screen says the debate stopped and that R retries;
// R continues in the same room from that turn, the cut turn stays on
// screen marked cut off, and the debate ends with its verdict, every turn
// saved once.
func TestRetryAfterACutStream(t *testing.T) {
	srv := cutServer(t, 2)
	h := newHarness(t)
	cwd := t.TempDir()
	h.start(New(h.options(), wireLaunch(cwd, srv.URL)), 200, 50)
	h.until("the failure", 20*time.Second, func(m Model) bool { return m.phase == phaseFailed && m.events == nil })
	if !h.m.keys.Retry.Enabled() || !strings.Contains(h.m.status, "R retries from the turn that failed") {
		t.Fatalf("R is not offered: status %q", h.m.status)
	}
	if !strings.Contains(plain(h.m.View()), "R retry failed turn") {
		t.Errorf("the short help lacks R:\n%s", plain(h.m.View()))
	}
	h.send(press("R"))
	if !h.m.Running() || h.m.keys.Retry.Enabled() {
		t.Fatalf("R did not start the retry: phase %d", h.m.phase)
	}
	h.until("the retried debate to end", 20*time.Second, settled)
	if h.m.phase != phaseDone {
		t.Fatalf("phase %d, status %q", h.m.phase, h.m.status)
	}
	if h.m.room.Config().Room != "graphql-test" {
		t.Errorf("the retry went to room %s", h.m.room.Config().Room)
	}
	c := h.m.cols[1]
	if len(c.turns) != 3 || !c.turns[0].incomplete || !strings.Contains(c.turns[0].text, "CUT partial") || c.turns[1].incomplete {
		t.Errorf("the second column's turns: %d, first %+v", len(c.turns), c.turns[0])
	}
	if len(h.m.cols[0].turns) != 2 {
		t.Errorf("the first persona's turn was repeated: %d turns", len(h.m.cols[0].turns))
	}
	st, err := h.m.room.State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != debate.ReasonComplete {
		t.Fatalf("closed %+v", st.Closed)
	}
	checkEveryTurnOnce(t, st, 2, 1)
	if v := plain(h.m.View()); !strings.Contains(header(v, panel[0]), "100 in · 4 out") {
		t.Errorf("the first persona's usage after the retry: %q", header(v, panel[0]))
	}
}

// TestRetryFromAReplay: a failed debate opened from its room offers R,
// which continues it there to its verdict.
func TestRetryFromAReplay(t *testing.T) {
	srv := cutServer(t, 4) // round 2, the first persona
	cwd := t.TempDir()
	l := wireLaunch(cwd, srv.URL)
	sess, err := debate.Start(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	for range sess.Events() {
	}
	st, _ := sess.Room().State()
	h := newHarness(t)
	h.start(NewReplay(h.options(), sess.Room(), st, &l), 160, 40)
	if !h.m.keys.Retry.Enabled() || !strings.Contains(h.m.status, "R retries") {
		t.Fatalf("the replay of a failed room does not offer R: %q", h.m.status)
	}
	h.send(press("R"))
	h.until("the retried debate to end", 20*time.Second, settled)
	st, _ = sess.Room().State()
	if h.m.phase != phaseDone || st.Closed == nil || st.Closed.Reason != debate.ReasonComplete {
		t.Fatalf("phase %d, closed %+v, status %q", h.m.phase, st.Closed, h.m.status)
	}
	checkEveryTurnOnce(t, st, 2, 1)
}

// TestRetryThatCannotStart: R against a server that is gone says why in
// the status line, keeps the screen as it was, and R stays on offer.
func TestRetryThatCannotStart(t *testing.T) {
	srv := cutServer(t, 1)
	h := newHarness(t)
	h.start(New(h.options(), wireLaunch(t.TempDir(), srv.URL)), 160, 40)
	h.until("the failure", 20*time.Second, func(m Model) bool { return m.phase == phaseFailed && m.events == nil })
	srv.Close()
	h.send(press("R"))
	h.until("the retry to fail", 20*time.Second, func(m Model) bool { return !m.acct.resuming })
	if h.m.phase != phaseFailed || !strings.HasPrefix(h.m.status, "Could not retry: ") || !h.m.keys.Retry.Enabled() {
		t.Fatalf("phase %d, status %q, R enabled %v", h.m.phase, h.m.status, h.m.keys.Retry.Enabled())
	}
	if st, _ := h.m.room.State(); st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, debate.ReasonFailed) {
		t.Errorf("a retry that could not start changed the room: %+v", st.Closed)
	}
}

// TestRetryAFailedVerdict: when what failed is the moderator's verdict,
// R goes straight to it (the screen weighing at once) and the debate ends
// with every turn once and the verdict.
func TestRetryAFailedVerdict(t *testing.T) {
	srv := cutServer(t, 7) // six turns, then the verdict
	h := newHarness(t)
	h.start(New(h.options(), wireLaunch(t.TempDir(), srv.URL)), 160, 40)
	h.until("the failure", 20*time.Second, func(m Model) bool { return m.phase == phaseFailed && m.events == nil })
	if h.m.verdict.err == "" {
		t.Fatalf("the verdict did not fail: status %q", h.m.status)
	}
	h.send(press("R"))
	h.until("the retry to start", 20*time.Second, func(m Model) bool { return !m.acct.resuming })
	if h.m.phase != phaseWeighing && h.m.phase != phaseDone {
		t.Errorf("the retried verdict shows phase %d, want weighing", h.m.phase)
	}
	h.until("the verdict", 20*time.Second, settled)
	if h.m.phase != phaseDone || !strings.Contains(h.m.verdict.text, "Reply 8.") {
		t.Fatalf("phase %d, verdict %q", h.m.phase, h.m.verdict.text)
	}
	st, _ := h.m.room.State()
	checkEveryTurnOnce(t, st, 2, 0)
	for _, c := range h.m.cols {
		if len(c.turns) != 2 {
			t.Errorf("%s has %d turns on screen, want 2", c.name, len(c.turns))
		}
	}
}
