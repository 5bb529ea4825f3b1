package app

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestE2EProgramStatus: the app tells the terminal where its debate is
// (OSC 7501, the Program Status Protocol), as tmux receives it from the
// program: working while the panel speaks, waiting on the user (blocked,
// a question) while paused after a round, done once the verdict is in.
func TestE2EProgramStatus(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 120, Height: 30, Dir: cwd, Env: e2eEnv(t), Raw: filepath.Join(t.TempDir(), "raw")},
		bin, "tui", "--topic", "Should we adopt GraphQL", "--rounds", "1", "--pause-between-rounds")
	const (
		working = "\x1b]7501;state=working:app=roundtable"
		blocked = "\x1b]7501;state=blocked:kind=question:app=roundtable"
		done    = "\x1b]7501;state=done:app=roundtable"
	)
	s.WaitFor("Paused after round 1", 60*time.Second)
	raw := s.WaitRaw(blocked, 15*time.Second)
	if w := strings.Index(raw, working); w < 0 || w > strings.Index(raw, blocked) {
		t.Errorf("no working status before the pause in the program's output")
	}
	if strings.Contains(raw, done) {
		t.Fatalf("done was reported before the verdict")
	}
	s.SendKeys("Enter")
	s.WaitFor("✓ verdict in", 60*time.Second)
	raw = s.WaitRaw(done, 15*time.Second)
	if strings.LastIndex(raw, blocked) > strings.Index(raw, done) {
		t.Errorf("the pause was reported after the verdict")
	}
}
