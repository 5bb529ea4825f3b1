package watch_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestWatchDraftsEndToEnd drives the real binary in tmux on a room this
// test writes through the store, as `roundtable seat` would: the seats'
// connect lines name who holds each (an agent over MCP, a model roundtable
// plays), the peer's draft shows dim under the transcript as it grows,
// its HTML as text, and the posted message takes its place.
func TestWatchDraftsEndToEnd(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "drafts-e2e", room.CreateOptions{Topic: "Drafts end to end", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Log("connect", room.F("seat", "lead"), room.F("agent", "claude-code"), room.F("pid", 1)); err != nil {
		t.Fatal(err)
	}
	if err := r.Log("connect", room.F("seat", "peer"), room.F("agent", "roundtable:openai/gpt-4o-mini"), room.F("pid", 2), room.F("waits", room.WaitsLogged)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: "lead", Agent: "claude-code", Text: "The brief: alpha."}); err != nil {
		t.Fatal(err)
	}
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 100, Height: 32, Dir: t.TempDir()}, bin, "watch", "--room", "drafts-e2e", "--cwd", cwd)
	s.WaitUntil("who holds each seat", func(sc string) bool {
		return strings.Contains(sc, "lead  an agent over MCP (claude-code)") && strings.Contains(sc, "peer  roundtable · model openai/gpt-4o-mini")
	}, e2eTimeout)

	started := time.Now().UTC()
	draft := "Streaming <b>bravo</b>"
	for _, more := range []string{"", " grows", " and grows further"} {
		draft += more
		if err := r.WriteDraft(room.Draft{Seat: "peer", Agent: "roundtable:openai/gpt-4o-mini", StartedAt: started, Text: draft}); err != nil {
			t.Fatal(err)
		}
		s.WaitUntil("the draft: "+draft, func(sc string) bool {
			return strings.Contains(sc, "peer is writing…") && strings.Contains(sc, draft)
		}, e2eTimeout)
	}
	// Dim: the draft's text is drawn in the faint colour of its "draft · since" stamp,
	// not in the colour of a message's text.
	ansi := s.CaptureANSI()
	faint := regexp.MustCompile("\x1b\\[([0-9;]+)mdraft · since ").FindStringSubmatch(ansi)
	body := regexp.MustCompile("\x1b\\[([0-9;]+)mStreaming <b>").FindStringSubmatch(ansi)
	msg := regexp.MustCompile("\x1b\\[([0-9;]+)mThe brief: alpha").FindStringSubmatch(ansi)
	if faint == nil || body == nil || msg == nil || body[1] != faint[1] || body[1] == msg[1] {
		t.Errorf("the draft is not dim (faint %q, draft %q, message %q):\n%q", faint, body, msg, ansi)
	}
	if _, _, err := r.PostMessage(room.Post{Seat: "peer", Agent: "roundtable:openai/gpt-4o-mini", Text: "The answer: charlie."}); err != nil {
		t.Fatal(err)
	}
	if err := r.ClearDraft("peer"); err != nil {
		t.Fatal(err)
	}
	screen := s.WaitUntil("the message in the draft's place", func(sc string) bool {
		return strings.Contains(sc, "The answer: charlie.") && !strings.Contains(sc, "is writing")
	}, e2eTimeout)
	if strings.Contains(screen, "grows further") {
		t.Errorf("the draft's text is still on screen:\n%s", screen)
	}
	s.SendKeys("q")
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d", code)
	}
}
