//go:build llm

package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// TestLLMDebateInTmux runs the debate screen against llama.cpp's server
// and the tiny real model (make e2e-llm sets ROUNDTABLE_LLM_URL): the
// columns fill with the model's text, the verdict arrives, export works.
func TestLLMDebateInTmux(t *testing.T) {
	url := os.Getenv("ROUNDTABLE_LLM_URL")
	if url == "" {
		t.Fatal("ROUNDTABLE_LLM_URL is not set: run these tests with make e2e-llm")
	}
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	cwd := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "ROUNDTABLE_CWD=", "ROUNDTABLE_PROVIDER=", "ROUNDTABLE_MODEL=", "ROUNDTABLE_BASE_URL="}
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 160, Height: 48, Dir: cwd, Env: env},
		bin, "tui", "--topic", "Should the licence grant cover patents", "--rounds", "1",
		"--provider", "ollama", "--base-url", url, "--model", "tiny", "--max-tokens", "48")
	screen := s.WaitFor("✓ verdict in", 90*time.Second)
	lines := strings.Split(screen, "\n")
	if len(lines) < 4 || !strings.Contains(lines[1], "ollama") || !strings.Contains(lines[1], "tiny") {
		t.Errorf("the header does not name the provider and model:\n%s", screen)
	}
	if n := strings.Count(lines[2], "╭─"); n != 3 {
		t.Errorf("%d columns, want 3:\n%s", n, screen)
	}
	// Every column holds text from the model, not only its frame.
	for _, col := range columnsText(lines[3:20]) {
		if len(strings.Fields(col)) < 3 {
			t.Errorf("a column is nearly empty: %q\n%s", col, screen)
		}
	}
	if !strings.Contains(screen, "Moderator's verdict") {
		t.Errorf("no verdict panel:\n%s", screen)
	}
	s.SendKeys("e")
	s.WaitFor("Exported the transcript", 10*time.Second)
	matches, _ := filepath.Glob(filepath.Join(cwd, "*-transcript.md"))
	if len(matches) != 1 {
		t.Fatalf("exported %v", matches)
	}
	data, err := os.ReadFile(matches[0])
	if err != nil || !strings.Contains(string(data), "## Verdict") || !strings.Contains(string(data), "Security Reviewer") {
		t.Fatalf("export: %v\n%s", err, data)
	}
	s.SendKeys("q") // back to the home screen
	s.WaitFor("1 room in", 10*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(10 * time.Second); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

// columnsText splits screen rows of three side-by-side boxes into the text
// of each box.
func columnsText(rows []string) []string {
	out := make([]string, 3)
	for _, row := range rows {
		parts := strings.Split(row, "│")
		// │ a │ │ b │ │ c │ splits into 7 parts: "", a, " ", b, " ", c, "".
		if len(parts) < 7 {
			continue
		}
		for i := range 3 {
			out[i] += " " + strings.TrimSpace(parts[1+2*i])
		}
	}
	return out
}
