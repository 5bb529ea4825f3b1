package debateview

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// header is the top line of the frame of the column titled name.
func header(view, name string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "╭─") {
			for _, part := range strings.Split(l, "╮") {
				if strings.Contains(part, name) {
					return part
				}
			}
		}
	}
	return ""
}

// statusBar is the status line: the first line under the columns' frames.
func statusBar(view string) string {
	ls := strings.Split(view, "\n")
	for i := len(ls) - 1; i > 0; i-- {
		if strings.Contains(ls[i-1], "╰") && !strings.Contains(ls[i], "╰") {
			return ls[i]
		}
	}
	return ""
}

// TestUsageInHeadersAndStatus: each column's header shows its persona's
// prompt and completion tokens (and dollars once there is a cost), the
// speaker's growing while it speaks (its tokens in unknown until its first
// turn ends: not shown as "0 in"); the status line shows the total.
func TestUsageInHeadersAndStatus(t *testing.T) {
	s := newSynth(t, 200, 50)
	s.events(debate.Event{Type: debate.EventSessionStart, Topic: "t", Agents: panel, Rounds: 3}, debate.Event{Type: debate.EventRoundStart, Round: 1})
	text := "We should ship a thin slice first and measure it."
	s.speak(1, panel[0], text)
	v := s.view()
	n := len(tokens(text))
	if h := header(v, panel[0]); !strings.Contains(h, "100 in · "+formatCount(n)+" out") {
		t.Errorf("the header lacks the persona's tokens: %q", h)
	}
	if h := header(v, panel[1]); strings.Contains(h, " in ") {
		t.Errorf("a persona who has not spoken shows tokens: %q", h)
	}
	if st := statusBar(v); !strings.Contains(st, formatCount(100+n)+" tokens (100 in, "+formatCount(n)+" out)") {
		t.Errorf("the status line lacks the total: %q", st)
	}
	// The next speaker's tokens count while it speaks.
	s.begin(1, panel[1], "One two three four five six")
	v = s.view()
	if h := header(v, panel[1]); !strings.Contains(h, "· 6 out") || strings.Contains(h, " in ") {
		t.Errorf("the speaker's header does not count its streamed tokens, or shows tokens in before they are known (\"0 in\"): %q", h)
	}
	if st := statusBar(v); !strings.Contains(st, formatCount(100+n+6)+" tokens") {
		t.Errorf("the status line does not count the streamed tokens: %q", st)
	}
	s.events(debate.Event{
		Type: debate.EventTurnEnd, Round: 1, Agent: panel[1], Text: "One two three four five six",
		Usage: &debate.Usage{PromptTokens: 120, CompletionTokens: 6, Cost: 0.0021},
	})
	v = s.view()
	if h := header(v, panel[1]); !strings.Contains(h, "120 in · 6 out · $0.0021") {
		t.Errorf("the header lacks the cost: %q", h)
	}
	if st := statusBar(v); !strings.Contains(st, "$0.0021") {
		t.Errorf("the status line lacks the cost: %q", st)
	}
}

// TestNoTokensInBeforeAnyTurnEnds: while the first persona speaks, the
// provider has not yet said how many tokens its prompt took: the header
// and the status line count the tokens out, never "0 in". Before, both
// read "0 in".
func TestNoTokensInBeforeAnyTurnEnds(t *testing.T) {
	s := newSynth(t, 200, 50)
	s.events(debate.Event{Type: debate.EventSessionStart, Topic: "t", Agents: panel, Rounds: 3}, debate.Event{Type: debate.EventRoundStart, Round: 1})
	s.begin(1, panel[0], "One two three four five six")
	v := s.view()
	if h := header(v, panel[0]); !strings.Contains(h, "· 6 out") || strings.Contains(h, " in") {
		t.Errorf("header %q; want the 6 tokens out and nothing in", h)
	}
	if st := statusBar(v); !strings.Contains(st, "6 tokens") || strings.Contains(st, " in") {
		t.Errorf("status line %q; want 6 tokens and nothing in", st)
	}
}

func TestStatusLineForms(t *testing.T) {
	forms := []string{"6.9k tokens (6.0k in, 879 out)", "6.9k tokens"}
	cases := []struct {
		w          int
		status     string
		want, lack string
	}{
		{120, "Done.", "6.9k tokens (6.0k in, 879 out)", ""},
		{40, "Done. Saved in room r.", "6.9k tokens ", "(6.0k"},
		{50, strings.Repeat("x", 60), "xxxx", "tokens"}, // a status cut short loses the total first (the header has it)
		{30, strings.Repeat("x", 60), "xxxx", "tokens"},
	}
	for _, c := range cases {
		got := statusLine(c.status, forms, c.w)
		if !strings.Contains(got, c.want) || c.lack != "" && strings.Contains(got, c.lack) {
			t.Errorf("width %d, status %q: %q", c.w, c.status, got)
		}
		if w := len([]rune(got)); w > c.w {
			t.Errorf("width %d: the line is %d wide", c.w, w)
		}
	}
}

// TestReplayShowsRecordedUsage: a replay shows the figures saved with
// the messages, per persona and in all, not zero.
func TestReplayShowsRecordedUsage(t *testing.T) {
	cwd := t.TempDir()
	l := mockLaunch(cwd, 1)
	l.Config.Prices = debate.PriceTable{"mock": {Prompt: 1, Completion: 2}}
	sess, err := debate.Start(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	for range sess.Events() {
	}
	st, err := sess.Room().State()
	if err != nil {
		t.Fatal(err)
	}
	var total debate.Usage
	per := map[string]debate.Usage{}
	for _, m := range st.Messages {
		u := debate.UsageOf(m)
		total.Add(u)
		per[m.Seat] = u
	}
	if total.PromptTokens == 0 || total.Cost == 0 {
		t.Fatalf("the room recorded no usage: %+v", st.Messages)
	}
	m := NewReplay(Options{Context: context.Background(), Now: func() time.Time { return fixedNow }, Dark: true}, sess.Room(), st, nil)
	m.width, m.height = 200, 50
	m.refresh()
	v := plain(m.View())
	u := per[panel[0]]
	if h := header(v, panel[0]); !strings.Contains(h, formatCount(u.PromptTokens)+" in · "+formatCount(u.CompletionTokens)+" out · "+debate.FormatDollars(u.Cost)) {
		t.Errorf("the replay's header lacks the recorded usage %+v: %q", u, h)
	}
	want := formatCount(total.PromptTokens+total.CompletionTokens) + " tokens (" + formatCount(total.PromptTokens) + " in"
	if st := statusBar(v); !strings.Contains(st, want) || !strings.Contains(st, debate.FormatDollars(total.Cost)) {
		t.Errorf("the replay's status lacks the recorded total %q: %q", want, st)
	}
}

// TestBudgetStopOnScreen: a debate with --max-tokens-total stops after
// the first turn; the screen says so, shows the budget in the status line
// and ends with the verdict; the room closes complete, naming the budget.
func TestBudgetStopOnScreen(t *testing.T) {
	h := newHarness(t)
	cwd := t.TempDir()
	l := mockLaunch(cwd, 2)
	l.Config.MaxTokensTotal = 500
	h.start(New(h.options(), l), 200, 50)
	h.until("the debate to end", 20*time.Second, settled)
	if h.m.phase != phaseDone || !strings.Contains(h.m.status, "stopped early because the token budget of 500 was reached") {
		t.Fatalf("phase %d, status %q", h.m.phase, h.m.status)
	}
	v := plain(h.m.View())
	if !strings.Contains(v, "Moderator's verdict") || !strings.Contains(statusBar(v), "of 500 tokens") {
		t.Errorf("the screen lacks the verdict or the budget:\n%s", v)
	}
	r, err := room.Open(cwd, "graphql-test")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := r.State()
	if st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, "complete: the token budget of 500 was reached") {
		t.Fatalf("closed %+v", st.Closed)
	}
	if n := len(st.Messages); n < 2 || n > 4 {
		t.Errorf("%d messages: the budget did not stop the debate early", n)
	}
}
