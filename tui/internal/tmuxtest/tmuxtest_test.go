package tmuxtest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSession(t *testing.T) {
	dir := t.TempDir()
	s := Start(t, Options{Width: 50, Height: 10, Dir: dir, Env: []string{"GREETING=hello from tmux"}},
		"/bin/sh", "-c", `echo "$GREETING in $(pwd)"; read line; echo "got $line"; exit 3`)
	screen := s.WaitFor("hello from tmux", 5*time.Second)
	if !strings.Contains(screen, "in "+dir) {
		t.Errorf("not started in %s:\n%s", dir, screen)
	}
	pid := s.PID()
	if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid))); err != nil {
		t.Errorf("PID %d is not running: %v", pid, err)
	}
	s.SendKeys("typed words", "Enter")
	s.WaitFor("got typed words", 5*time.Second)
	if code := s.ExitStatus(5 * time.Second); code != 3 {
		t.Errorf("exit status %d, want 3", code)
	}
	if lines := strings.Split(strings.TrimRight(s.Capture(), "\n"), "\n"); len(lines) > 10 {
		t.Errorf("screen has %d lines, want at most 10", len(lines))
	}
}

func TestBuild(t *testing.T) {
	bin := Build(t, "./cmd/roundtable")
	fi, err := os.Stat(bin)
	if err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("no executable at %s: %v", bin, err)
	}
}
