package watch_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/roundtable-dev/roundtable/room/roomtest"
	"github.com/roundtable-dev/roundtable/room/transcript"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// htmlToken is an HTML tag, comment or declaration in agent text;
// autolink is a Markdown autolink, shown as its address.
var (
	htmlToken = regexp.MustCompile(`<[!/a-zA-Z][^<>]*>?`)
	autolink  = regexp.MustCompile(`^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>$`)
)

// TestWatchShowsTheHostileRoom opens the hostile room (roomtest.HostileRoom)
// in the real binary in tmux, on a screen tall enough for all of it: every
// HTML tag, comment and script payload of every message is on screen as
// text, in that message's own lines. Glamour used to drop them, leaving
// whole messages blank.
func TestWatchShowsTheHostileRoom(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	const beacon = "http://127.0.0.1:9"
	roomtest.HostileRoom(t, cwd, "hostile", beacon)
	texts := roomtest.HostileTexts(beacon)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 200, Height: 300, Dir: t.TempDir()}, bin, "watch", "--room", "hostile", "--cwd", cwd)
	last := fmt.Sprintf("#%d ·", len(texts)+2)
	screen := s.WaitUntil("the first and the last message", func(sc string) bool {
		return strings.Contains(sc, "#1 ·") && strings.Contains(sc, last)
	}, e2eTimeout)
	lines := strings.Split(screen, "\n")
	checked := 0
	for i, text := range texts {
		body := squeeze(messageLines(t, lines, fmt.Sprintf("#%d ·", i+1), fmt.Sprintf("#%d ·", i+2)))
		var payloads []string
		for _, tok := range htmlToken.FindAllString(transcript.SanitizeTerminal(text), -1) {
			if m := autolink.FindStringSubmatch(tok); m != nil {
				tok = m[1]
			}
			payloads = append(payloads, tok)
		}
		for _, tag := range []string{"script", "inline-script", "onerror", "onload", "rawlink", "iframe", "svg", "svg-script", "animate", "breakout", "rawtext", "noscript", "onfocus", "ontoggle", "mxss"} {
			if p := roomtest.HostilePayload(beacon, tag); strings.Contains(text, p) {
				payloads = append(payloads, p)
			}
		}
		for _, p := range payloads {
			checked++
			if !strings.Contains(body, squeeze(p)) {
				t.Errorf("message %d: %q is not on screen; the message shows:\n%s", i+1, p, body)
			}
		}
	}
	if checked < 60 {
		t.Fatalf("only %d payloads checked: the corpus or the extraction is broken", checked)
	}
	s.SendKeys("q")
	if code := s.ExitStatus(e2eTimeout); code != 0 {
		t.Errorf("exit status %d after q, want 0", code)
	}
}

// messageLines is the screen between the header line holding stamp and the
// next one holding next (or the end).
func messageLines(t *testing.T, lines []string, stamp, next string) string {
	t.Helper()
	start := -1
	for i, l := range lines {
		if start < 0 && strings.Contains(l, stamp) {
			start = i + 1
			continue
		}
		if start >= 0 && strings.Contains(l, next) {
			return strings.Join(lines[start:i], "\n")
		}
	}
	if start < 0 {
		t.Fatalf("no message %q on screen:\n%s", stamp, strings.Join(lines, "\n"))
	}
	return strings.Join(lines[start:], "\n")
}

// squeeze drops white space and the seat's bars, so a payload wrapped
// across lines still matches.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '│' {
			return -1
		}
		return r
	}, s)
}
