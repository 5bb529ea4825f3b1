package watch_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// pasteTimeout bounds the wait for the whole paste. The composer takes
// 70 KB in well under two seconds (BENCHMARKS.md); this only stops a
// test that would otherwise run for the half hour the per-key work took.
const pasteTimeout = 90 * time.Second

// TestPasteWithoutBracketedPaste: 70 KB typed into the --take composer
// the way a terminal without bracketed paste delivers a paste, one key a
// character (tmux send-keys -l), ends as the whole text in the composer:
// the draft the screen writes for the other watchers holds all of it and
// the composer shows its end.
func TestPasteWithoutBracketedPaste(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	const name = "paste"
	if code, _, errOut := runBin(t, bin, "seed", "--room", name, "--cwd", cwd, "--topic", "A long paste"); code != 0 {
		t.Fatalf("seed: exit %d: %s", code, errOut)
	}
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 40, Dir: t.TempDir()}, bin, "watch", "--room", name, "--cwd", cwd, "--take", "lead")
	s.WaitFor("Your turn as lead · round 1", takeTimeout)

	const words = "the upload streams in chunks of one megabyte; each is checked before the next. "
	text := strings.Repeat(words, 70<<10/len(words)+1)[:70<<10]
	text = strings.TrimRight(text, " ") + "END"
	// tmux takes at most some KB a command; each chunk arrives as keys.
	for rest := text; rest != ""; {
		n := min(len(rest), 4000)
		s.SendKeys("-l", rest[:n])
		rest = rest[n:]
	}

	draft := filepath.Join(room.DraftsDir(room.Dir(cwd, name)), "lead.json")
	var got string
	deadline := time.Now().Add(pasteTimeout)
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(draft); err == nil {
			var d room.Draft
			if json.Unmarshal(data, &d) == nil {
				got = d.Text
			}
		}
		if got == text {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got != text {
		data, err := os.ReadFile(draft)
		t.Fatalf("the draft holds %d of the %d bytes pasted; it ends %q; file %d bytes, %v; the screen:\n%s", len(got), len(text), got[max(len(got)-40, 0):], len(data), err, s.Capture())
	}
	s.WaitUntil("the composer showing the paste's end", func(sc string) bool {
		return strings.Contains(sc, "before the next. END") || strings.Contains(sc, "END\n")
	}, takeTimeout)
}
