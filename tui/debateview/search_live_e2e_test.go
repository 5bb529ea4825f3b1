package debateview

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// streamedWord is a word of the mock's first turn (the Product Manager's,
// round 1) said once, in the middle of the turn, and not by the Architect
// who speaks next: typed before it streams, it is found while the turn is
// still being spoken.
func streamedWord(t *testing.T) string {
	t.Helper()
	pm, next := turnText("Product Manager", 1), strings.ToLower(turnText("Software Architect", 1))
	lower := strings.ToLower(pm)
	for _, w := range regexp.MustCompile(`[a-z]{6,}`).FindAllStringIndex(lower, -1) {
		word := lower[w[0]:w[1]]
		at := float64(w[0]) / float64(len(lower))
		if at > 0.45 && at < 0.7 && strings.Count(lower, word) == 1 && !strings.Contains(next, word) {
			return word
		}
	}
	t.Fatalf("no word fit in the mock's turn:\n%s", pm)
	return ""
}

// TestE2ESearchStreamingTurn drives the real binary in tmux on a mock
// debate streamed at its lively pace: while the first persona speaks, /
// and a word of its turn not streamed yet finds nothing; the word is found,
// counted and marked as it streams, while the persona is still speaking;
// when the turn ends it is still one match.
func TestE2ESearchStreamingTurn(t *testing.T) {
	word := streamedWord(t)
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 200, Height: 50, Dir: t.TempDir(), Env: interjectEnv(t)},
		bin, "tui", "--topic", "Should we adopt GraphQL for the public API", "--rounds", "3", "--seed", "1")
	s.WaitFor("Product Manager is speaking", 30*time.Second)
	s.SendKeys("/")
	s.WaitFor("/█ · type to search", 10*time.Second)
	s.SendKeys("-l", word)
	s.WaitUntil("no match before the word streams", func(sc string) bool {
		return strings.Contains(sc, "/"+word+"█ · no matches") && strings.Contains(sc, "Product Manager is speaking")
	}, 10*time.Second)
	screen := s.WaitUntil("the word found while the turn streams", func(sc string) bool {
		return strings.Contains(sc, "/"+word+"█ · 1/1 matches") && strings.Contains(sc, "Product Manager is speaking")
	}, 20*time.Second)
	if !strings.Contains(strings.ToLower(screen), word) {
		t.Errorf("the match is not in view:\n%s", screen)
	}
	if ansi := s.CaptureANSI(); !marked(ansi, word) {
		t.Errorf("the match in the streaming turn is not marked:\n%q", ansi)
	}
	s.SendKeys("Enter")
	s.WaitFor("1/1 matches · n next", 10*time.Second)
	screen = s.WaitFor("Software Architect is speaking", 30*time.Second)
	if !strings.Contains(screen, "1/1 matches") {
		t.Errorf("the finished turn's match is not counted once:\n%s", screen)
	}
}

// marked reports whether word (any case) is drawn on a background colour
// somewhere outside the prompt's line, as the search marks a match.
func marked(ansi, word string) bool {
	for _, l := range strings.Split(ansi, "\n") {
		i := strings.Index(strings.ToLower(l), word)
		if i < 0 || strings.Contains(l, "█") {
			continue
		}
		before := l[:i]
		if j := strings.LastIndex(before, "\x1b["); j >= 0 && strings.Contains(before[j:], "48;") {
			return true
		}
	}
	return false
}
