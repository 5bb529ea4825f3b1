package debateview

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
)

// shownTokens is the token count the header shows, 0 when none.
func shownTokens(t *testing.T, view string) int {
	t.Helper()
	m := regexp.MustCompile(`([0-9.]+)(k?) tokens`).FindStringSubmatch(view)
	if m == nil {
		return 0
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	if m[2] == "k" {
		f *= 1000
	}
	return int(f)
}

// TestTokenCounterNeverGoesDownOnStop stops a paced mock debate mid-turn
// with esc: the header's count after the stop is at least what it showed
// while the persona spoke.
func TestTokenCounterNeverGoesDownOnStop(t *testing.T) {
	h := newHarness(t)
	l := mockLaunch(t.TempDir(), 2)
	l.Provider.Pace = 2 * time.Millisecond
	h.start(New(h.options(), l), 160, 48)
	h.until("the second turn under way", 20*time.Second, func(m Model) bool {
		return len(m.cols[1].turns) == 1 && m.live > 20
	})
	before := shownTokens(t, plain(h.m.View()))
	if before <= 20 {
		t.Fatalf("the header shows %d tokens while speaking", before)
	}
	h.send(press("esc"))
	h.send(press("y"))
	h.until("the stop", 10*time.Second, func(m Model) bool { return m.phase == phaseStopped && m.events == nil })
	after := shownTokens(t, plain(h.m.View()))
	if after < before {
		t.Fatalf("the token count went down on stop: %d, then %d", before, after)
	}
}

// TestTokenCounterIsMonotonic feeds random debates, cut at random by a
// stop or a failure whose total reports fewer tokens than were streamed:
// the count never goes down from one event to the next.
func TestTokenCounterIsMonotonic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for i := range 40 {
		s := newSynth(t, 160, 48)
		last := 0
		check := func(what string) {
			if n := shownTokens(t, s.view()); n < last {
				t.Fatalf("debate %d: the count went from %d to %d on %s", i, last, n, what)
			} else {
				last = n
			}
		}
		turns := 1 + rng.IntN(6)
		for k := range turns {
			agent := panel[k%3]
			round := 1 + k/3
			s.events(debate.Event{Type: debate.EventTurnStart, Round: round, Agent: agent})
			var text strings.Builder
			for range 1 + rng.IntN(30) {
				text.WriteString(" tok")
				s.events(debate.Event{Type: debate.EventToken, Round: round, Agent: agent, Text: " tok"})
				check("a token")
			}
			if k < turns-1 {
				var u *debate.Usage
				if rng.IntN(2) == 0 {
					u = &debate.Usage{PromptTokens: rng.IntN(50), CompletionTokens: rng.IntN(40)}
				}
				s.events(debate.Event{Type: debate.EventTurnEnd, Round: round, Agent: agent, Text: text.String(), Usage: u})
				check("a turn's end")
				continue
			}
			// The last turn is cut: an incomplete turn_end without usage,
			// then an end whose total may count less than was streamed.
			s.events(debate.Event{Type: debate.EventTurnEnd, Round: round, Agent: agent, Text: text.String(), Incomplete: true, Usage: &debate.Usage{}})
			check("the cut turn's end")
			total := &debate.Usage{PromptTokens: rng.IntN(20), CompletionTokens: rng.IntN(20)}
			msg := debate.CancelledMessage
			if rng.IntN(2) == 0 {
				msg = "openai failed during " + agent + "'s turn: HTTP 500"
			}
			s.events(debate.Event{Type: debate.EventError, Text: msg, Agent: agent, Round: round, Usage: total})
			check("the end")
		}
	}
}

// TestRetryShowsInTheColumnHeader: a retry event puts "retrying after
// HTTP 429 · attempt 2/4" in the speaker's column header (shorter when the
// column is narrow) and the header line, until the first token.
func TestRetryShowsInTheColumnHeader(t *testing.T) {
	retry := debate.Event{Type: debate.EventRetry, Round: 1, Agent: "Software Architect", Text: "HTTP 429", Status: 429, Attempt: 2, Attempts: 4, Wait: time.Second}
	s := newSynth(t, 220, 40)
	s.events(debate.Event{Type: debate.EventTurnStart, Round: 1, Agent: "Software Architect"}, retry)
	v := s.view()
	top := strings.Split(v, "\n")[2]
	if !strings.Contains(top, "Software Architect · retrying after HTTP 429 · attempt 2/4") {
		t.Errorf("the column header lacks the retry:\n%s", v)
	}
	if !strings.Contains(strings.Split(v, "\n")[1], "Software Architect · retrying after HTTP 429 · attempt 2/4") {
		t.Errorf("the header line lacks the retry:\n%s", v)
	}
	// Narrow columns keep the attempt, and the cause when it fits.
	s.send(tea.WindowSizeMsg{Width: 160, Height: 30})
	if v := s.view(); !strings.Contains(v, "Software Architect · retry 2/4 · HTTP 429") {
		t.Errorf("a narrow column lacks the retry:\n%s", v)
	}
	s.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	if v := s.view(); !strings.Contains(v, "⣾ Software Ar… · retry 2/4 ╮") {
		t.Errorf("a narrower column lacks the retry:\n%s", v)
	}
	// The first token ends it.
	s.send(tea.WindowSizeMsg{Width: 220, Height: 40})
	s.events(debate.Event{Type: debate.EventToken, Round: 1, Agent: "Software Architect", Text: "Well"})
	if v := s.view(); strings.Contains(v, "retry") {
		t.Errorf("the retry is still shown after the first token:\n%s", v)
	}

	// The moderator's retries show on the verdict pane.
	s.events(debate.Event{Type: debate.EventTurnEnd, Round: 1, Agent: "Software Architect", Text: "Well"},
		debate.Event{Type: debate.EventRoundEnd, Round: 3},
		debate.Event{Type: debate.EventRetry, Round: 3, Agent: "Moderator", Text: "HTTP 503", Status: 503, Attempt: 3, Attempts: 4})
	if v := s.view(); !strings.Contains(v, "Moderator's verdict · retrying after HTTP 503 · attempt 3/4") {
		t.Errorf("the verdict pane lacks the moderator's retry:\n%s", v)
	}
}

// TestStartFailureGoesToTheParent: an embedded screen whose debate cannot
// start says why in its status line (not in a column) and hands the
// settings back to its parent.
func TestStartFailureGoesToTheParent(t *testing.T) {
	s := newSynth(t, 120, 40)
	why := errors.New("Ollama at http://127.0.0.1:9 is not answering: start it with `ollama serve`, or choose another provider")
	cmd := s.send(startedMsg{id: s.m.id, run: s.m.run, err: why})
	var failed StartFailedMsg
	var ok bool
	var walk func(tea.Cmd)
	walk = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				walk(c)
			}
		case StartFailedMsg:
			failed, ok = msg, true
		}
	}
	walk(cmd)
	if !ok || !errors.Is(failed.Err, why) || failed.Launch.Config.Topic != s.m.launch.Config.Topic {
		t.Fatalf("the parent was not told: %+v", failed)
	}
	for _, c := range s.m.cols {
		if c.err != "" {
			t.Errorf("the failure shows in column %s", c.name)
		}
	}
	if !strings.Contains(s.view(), "Could not start the debate: Ollama at") {
		t.Errorf("the status line does not say why:\n%s", s.view())
	}
}
