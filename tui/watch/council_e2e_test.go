package watch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/roomtest"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// councilAt is when the e2e council's messages were written: in the
// future, so the screen's clocks read "0s" on every run (a duration
// before it is shown as 0s) and its goldens do not move with the time.
var councilAt = time.Date(2099, 1, 2, 9, 0, 0, 0, time.UTC)

// writeCouncil writes a five-seat room after its first round (the
// security seat passed) straight in the format, with fixed times.
func writeCouncil(t *testing.T, cwd, name string) {
	t.Helper()
	dir := room.Dir(cwd, name)
	roomtest.WriteFile(t, filepath.Join(dir, "room.json"), roomtest.Encode(t, room.Config{
		Room: name, Topic: "Stream uploads or load them whole", Budget: 4, Spec: "SPEC-" + name + ".md",
		CreatedAt: councilAt.Format(room.TimeLayout), SeatNames: []string{"lead", "critic", "security", "peer", "ops"},
	}))
	if err := os.MkdirAll(filepath.Join(dir, "messages"), 0o755); err != nil {
		t.Fatal(err)
	}
	type fileMsg struct {
		Seq   int    `json:"seq"`
		At    string `json:"at"`
		Seat  string `json:"seat"`
		Agent string `json:"agent"`
		Kind  string `json:"kind"`
		Text  string `json:"text"`
	}
	msgs := []fileMsg{
		{1, "", "lead", "opus-5", "brief", "Should the **upload** service stream files or load them whole? Files run from 1 KiB to 4 GiB."},
		{2, "", "critic", "codex", "objection", "Streaming needs back-pressure, which the current proxy lacks."},
		{3, "", "security", "gemini", "pass", "Nothing to add this round."},
		{4, "", "peer", "qwen", "answer", "Stream above 8 MiB, load whole below it: most files are small."},
		{5, "", "ops", "person", "proposal", "Add a size histogram to the dashboard first, then decide."},
	}
	for i, m := range msgs {
		at := councilAt.Add(time.Duration(i*30) * time.Second)
		m.At = at.Format(room.TimeLayout)
		file := fmt.Sprintf("%04d-%d-%06x.json", m.Seq, at.UnixMilli(), i)
		roomtest.WriteFile(t, filepath.Join(dir, "messages", file), roomtest.Encode(t, m))
	}
}

// TestCouncilWatchGolden runs roundtable watch on a five-seat room in
// tmux at 80×24 (the compact list of seats beside the lead's column, its
// turn) and 200×50 (every seat's column), compares each screen with its
// golden file, then searches for a seat's words (the one feed shows
// them), cancels the search with esc (the columns again) and goes to
// the one feed and back with v.
func TestCouncilWatchGolden(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	for _, size := range []struct{ w, h int }{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			cwd := t.TempDir()
			writeCouncil(t, cwd, "upload")
			s := tmuxtest.Start(t, tmuxtest.Options{Width: size.w, Height: size.h, Dir: t.TempDir(), Env: []string{"TZ=UTC"}},
				bin, "watch", "--room", "upload", "--cwd", cwd)
			screen := s.WaitUntil("the council's columns", func(sc string) bool {
				return strings.Contains(sc, "order ▶lead → critic → security (passed)") && strings.Contains(sc, "following · 5 of 5")
			}, e2eTimeout)
			golden.RequireEqual(t, screen) // testdata/TestCouncilWatchGolden/<size>.golden

			// A search leaves the columns for the one feed, at the match.
			s.SendKeys("/")
			s.SendKeys("-l", "back-pressure")
			screen = s.WaitFor("/back-pressure█ · 1/1", e2eTimeout)
			if !strings.Contains(screen, "critic codex  objection") || strings.Contains(screen, "order ▶lead → critic → security (passed)") && strings.Contains(screen, "following · 5 of 5") {
				t.Fatalf("the search did not show the critic's post in the feed:\n%s", screen)
			}
			// esc cancels the search: back to the columns, following.
			s.SendKeys("Escape")
			s.WaitUntil("the columns again", func(sc string) bool {
				return !strings.Contains(sc, "/back-pressure") && strings.Contains(sc, "following · 5 of 5") && strings.Contains(sc, "v one feed")
			}, e2eTimeout)
			// v leaves the columns for the one feed, and v comes back.
			s.SendKeys("v")
			s.WaitUntil("the one feed", func(sc string) bool {
				return strings.Contains(sc, "v columns") && !strings.Contains(sc, "following · 5 of 5") && strings.Contains(sc, "critic codex  objection")
			}, e2eTimeout)
			s.SendKeys("v")
			s.WaitUntil("the columns after v", func(sc string) bool {
				return strings.Contains(sc, "following · 5 of 5") && strings.Contains(sc, "v one feed")
			}, e2eTimeout)
			s.SendKeys("q")
			if code := s.ExitStatus(e2eTimeout); code != 0 {
				t.Fatalf("exit status %d after q", code)
			}
		})
	}
}
