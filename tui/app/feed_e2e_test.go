//go:build unix

package app

import (
	"encoding/json"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/internal/tmuxtest"
)

// inProgress follows a headless debate's JSON lines: the text of the turn
// being spoken now, none between turns.
type inProgress struct {
	mu    sync.Mutex
	agent string
	text  strings.Builder
}

func (p *inProgress) follow(out io.Reader) {
	dec := json.NewDecoder(out)
	for {
		var ev struct {
			Event string `json:"event"`
			Data  struct {
				Agent string `json:"agent"`
				Text  string `json:"text"`
			} `json:"data"`
		}
		if dec.Decode(&ev) != nil {
			return
		}
		p.mu.Lock()
		switch ev.Event {
		case string(debate.EventTurnStart):
			p.agent = ev.Data.Agent
			p.text.Reset()
		case string(debate.EventToken):
			p.text.WriteString(ev.Data.Text)
		case string(debate.EventTurnEnd):
			p.agent = ""
			p.text.Reset()
		}
		p.mu.Unlock()
	}
}

var plainWord = regexp.MustCompile(`^[A-Za-z]+$`)

// triples are the runs of three plain words in the turn spoken now, as
// the screen would show them on one line, and its speaker.
func (p *inProgress) triples() (agent string, out []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	words := strings.Fields(p.text.String())
	for i := 0; i+2 < len(words); i++ {
		if plainWord.MatchString(words[i]) && plainWord.MatchString(words[i+1]) && plainWord.MatchString(words[i+2]) {
			out = append(out, words[i]+" "+words[i+1]+" "+words[i+2])
		}
	}
	return p.agent, out
}

// startFollowedDebate starts a headless debate (room "live" under cwd) and
// follows its JSON lines in p: the built binary, cwd, the process, what
// it says now and its room.
func startFollowedDebate(t *testing.T) (bin, cwd string, cmd *exec.Cmd, p *inProgress, r *room.Room) {
	t.Helper()
	bin = tmuxtest.Build(t, "./cmd/roundtable")
	cwd = t.TempDir()
	// Into the second turn, at the mock's lively pace.
	cmd, out := startHeadlessInto(t, bin, cwd, "Zeppelin fleets", "2", 0)
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	p = &inProgress{}
	go p.follow(out)
	r, err := room.Open(cwd, "live")
	if err != nil {
		t.Fatal(err)
	}
	return bin, cwd, cmd, p, r
}

// waitWordsInProgress waits until the screen shows words of the turn the
// headless debate speaks now that are in no message of r yet, and the
// header names its speaker "is speaking · "+where; it returns the speaker
// and the words. Such words can only have come from the turn's draft.
func waitWordsInProgress(t *testing.T, s *tmuxtest.Session, p *inProgress, r *room.Room, where string) (speaker, seen string) {
	t.Helper()
	s.WaitUntil("words of a turn in progress before its message", func(sc string) bool {
		agent, triples := p.triples()
		if agent == "" || !strings.Contains(sc, agent+" is speaking · "+where) {
			return false
		}
		st, err := r.Refresh()
		if err != nil {
			return false
		}
		for _, tri := range triples {
			if !strings.Contains(sc, tri) {
				continue
			}
			saved := false
			for _, m := range st.Messages {
				saved = saved || strings.Contains(m.Text, tri)
			}
			if !saved {
				seen, speaker = tri, agent
				return true
			}
		}
		return false
	}, 60*time.Second)
	return speaker, seen
}

// TestE2EWatchHeadlessDebateStream: a debate run headless in another
// process opens in the app's debate screen as columns, and the words of a
// turn in progress appear in its column before that turn's message
// exists (streamed from the persona's draft in the store); then the
// verdict, once the debate ends, through the same screen.
//
// It needs the engine to write each persona's text in progress as a
// draft (branch h20-feedstore): without it no words appear before their
// message, and the test fails.
func TestE2EWatchHeadlessDebateStream(t *testing.T) {
	bin, cwd, cmd, p, r := startFollowedDebate(t)
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 160, Height: 48, Dir: cwd, Env: e2eEnv(t)}, bin, "tui")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("Enter")
	s.WaitFor("in another process", 15*time.Second)

	// Words of the turn spoken now on screen, in no message saved yet (the
	// room read after the screen was), and the speaker's name in the
	// header: they came from its draft.
	speaker, seen := waitWordsInProgress(t, s, p, r, "in another process")
	t.Logf("%s's turn in progress showed %q before its message", speaker, seen)
	if n := strings.Count(strings.Split(s.Capture(), "\n")[2], "╭─"); n != 3 {
		t.Errorf("%d columns side by side at 160 wide, want 3:\n%s", n, s.Capture())
	}

	s.WaitUntil("the verdict", func(sc string) bool {
		return strings.Contains(sc, "Moderator's verdict") && strings.Contains(sc, "replay · complete") && strings.Contains(sc, "Decision:")
	}, 90*time.Second)
	s.SendKeys("q")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("tui exit status %d", code)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("the headless debate: %v", err)
	}
}

// TestE2EReplayLooksLikeTheRun: a debate run in the app, then opened again
// from the home screen once finished, is drawn by the same code from the
// same room: every line of the screen is the same but the header's state
// ("✓ verdict in", then "replay · complete") and the status line.
func TestE2EReplayLooksLikeTheRun(t *testing.T) {
	bin := tmuxtest.Build(t, "./cmd/roundtable")
	s := tmuxtest.Start(t, tmuxtest.Options{Width: 200, Height: 70, Dir: t.TempDir(), Env: e2eEnv(t)},
		bin, "tui", "--topic", "Should we adopt GraphQL", "--rounds", "1", "--fast")
	// settled is the screen once two captures a moment apart agree: the
	// finished turns' renders, made in the background, are in.
	settled := func(what string) []string {
		s.WaitFor(what, 60*time.Second)
		last := ""
		var got string
		s.WaitUntil(what+", settled", func(sc string) bool {
			same := sc == last
			last, got = sc, sc
			if !same {
				time.Sleep(300 * time.Millisecond)
			}
			return same
		}, 15*time.Second)
		return strings.Split(got, "\n")
	}
	live := settled("✓ verdict in")
	s.SendKeys("q")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("Enter")
	replay := settled("replay · complete")
	if len(live) != len(replay) {
		t.Fatalf("%d lines live, %d in the replay", len(live), len(replay))
	}
	differ := 0
	for i := range live {
		if live[i] == replay[i] {
			continue
		}
		differ++
		header := strings.Contains(live[i], "✓ verdict in") && strings.Contains(replay[i], "replay · complete")
		status := strings.Contains(live[i], "Done. Saved in room") && strings.Contains(replay[i], "A finished debate, read from room")
		if !header && !status {
			t.Errorf("line %d differs:\nlive:   %q\nreplay: %q", i, live[i], replay[i])
		}
	}
	if differ != 2 {
		t.Errorf("%d lines differ, want the header's state and the status line", differ)
	}
	s.SendKeys("q")
	s.WaitFor("1 room in", 15*time.Second)
	s.SendKeys("q")
	if code := s.ExitStatus(15 * time.Second); code != 0 {
		t.Errorf("tui exit status %d", code)
	}
}
