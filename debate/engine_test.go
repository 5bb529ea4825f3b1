package debate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestInvariantsProperty runs the mock over many seeds, panel sizes, round
// counts and options, and checks the contract's invariants on each stream.
func TestInvariantsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	topics := []string{"Should we adopt GraphQL", "Migrate to Kubernetes", "Is Rust worth it?", "Monorepo vs polyrepo", "Rewrite the billing service in Go"}
	runs := 0
	for seed := int64(1); seed <= 40; seed++ {
		n := 1 + rng.IntN(8)
		rounds := 1 + rng.IntN(MaxRounds)
		cfg := Config{
			Topic: topics[rng.IntN(len(topics))], Personas: personasN(n), Rounds: rounds, Seed: seed,
			BlindOpening: rng.IntN(2) == 0, StopOnConsensus: rng.IntN(2) == 0, Rank: seed%2 == 0,
		}
		t.Run(fmt.Sprintf("seed%d-p%d-r%d", seed, n, rounds), func(t *testing.T) {
			eng, err := New(cfg, NewMock(0))
			if err != nil {
				t.Fatal(err)
			}
			evs := collect(t, eng.Run(context.Background()))
			checkInvariants(t, evs, eng.Config())
			if last := evs[len(evs)-1]; last.Type != EventDone {
				t.Fatalf("the mock debate ended with %s %q", last.Type, last.Text)
			}
		})
		runs++
	}
	if runs != 40 {
		t.Fatalf("ran %d debates", runs)
	}
}

// TestInvariantsUnderFailures injects a provider failure at a random turn
// and token and checks invariants 1, 2, 3 and 5.
func TestInvariantsUnderFailures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 30 {
		n := 1 + rng.IntN(5)
		rounds := 1 + rng.IntN(4)
		failRound := 1 + rng.IntN(rounds)
		failAgent := personasN(n)[rng.IntN(n)].Name
		failToken := rng.IntN(6)
		p := &script{name: "flaky", failAt: func(req Request, tok int) error {
			if req.Info.Purpose == PurposeTurn && req.Info.Round == failRound && req.Info.Speaker.Name == failAgent && tok == failToken {
				return fmt.Errorf("HTTP 502 Bad Gateway: %w", errBoom)
			}
			return nil
		}}
		cfg := Config{Topic: "t", Personas: personasN(n), Rounds: rounds, BlindOpening: i%2 == 0}
		t.Run(fmt.Sprintf("%d-%s-r%d-t%d", i, failAgent, failRound, failToken), func(t *testing.T) {
			eng, err := New(cfg, p)
			if err != nil {
				t.Fatal(err)
			}
			evs := collect(t, eng.Run(context.Background()))
			checkInvariants(t, evs, eng.Config())
			last, ok := errorEvent(evs)
			if !ok {
				t.Fatalf("ended with %s, want error", last.Type)
			}
			for _, want := range []string{"flaky", failAgent, "502"} {
				if !strings.Contains(last.Text, want) {
					t.Errorf("error %q does not name %q", last.Text, want)
				}
			}
			if last.Agent != failAgent || last.Round != failRound || last.Provider != "flaky" || !errors.Is(last.Err, errBoom) {
				t.Errorf("error event fields %+v", last)
			}
			var te *TurnError
			if !errors.As(last.Err, &te) {
				t.Errorf("error cause %v is not a *TurnError", last.Err)
			}
			// The partial turn is kept when anything was said.
			prev := evs[len(evs)-2]
			if failToken > 0 && (prev.Type != EventTurnEnd || !prev.Incomplete || prev.Agent != failAgent) {
				t.Errorf("before the error: %+v, want an incomplete turn_end of %s", prev, failAgent)
			}
			if failToken == 0 && prev.Type == EventTurnEnd && prev.Agent == failAgent && prev.Round == failRound {
				t.Errorf("a turn that said nothing got a turn_end: %+v", prev)
			}
		})
	}
}

func TestCancelIsPromptAndKeepsPartialTurn(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	eng, err := New(Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 3}, NewMock(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ch := eng.Run(ctx)
	var evs []Event
	tokens := 0
	for ev := range ch {
		evs = append(evs, ev)
		if ev.Type == EventToken && ev.Round == 2 {
			if tokens++; tokens == 5 {
				cancel()
			}
		}
	}
	checkInvariants(t, evs, eng.Config())
	last, ok := errorEvent(evs)
	if !ok || last.Text != CancelledMessage {
		t.Fatalf("last event %+v, want error %q", last, CancelledMessage)
	}
	if !errors.Is(last.Err, context.Canceled) {
		t.Errorf("cancel error cause %v, want context.Canceled", last.Err)
	}
	prev := evs[len(evs)-2]
	if prev.Type != EventTurnEnd || !prev.Incomplete || prev.Round != 2 || prev.Text == "" {
		t.Fatalf("before the error: %+v, want the incomplete round-2 turn", prev)
	}
	// Nothing is said after the cancel beyond the closing events.
	afterCancel := 0
	for i := len(evs) - 1; i >= 0 && evs[i].Type != EventToken; i-- {
		afterCancel++
	}
	if afterCancel != 2 {
		t.Errorf("%d events after the last token, want turn_end and error", afterCancel)
	}
}

func TestCancelBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 2}, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(ctx))
	last, ok := errorEvent(evs)
	if !ok || last.Text != CancelledMessage {
		t.Fatalf("last %+v, want cancelled", last)
	}
	for _, ev := range evs {
		if ev.Type == EventTurnEnd || ev.Type == EventSummary {
			t.Fatalf("a cancelled debate went on: %+v", ev)
		}
	}
}

// TestAbandonedConsumer: a consumer that cancels and stops reading does not
// leave the engine's goroutines behind (goleak checks at the end).
func TestAbandonedConsumer(t *testing.T) {
	old := finalGrace
	finalGrace = 200 * time.Millisecond
	defer func() { finalGrace = old }()
	ctx, cancel := context.WithCancel(context.Background())
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 1}, &script{endless: true})
	if err != nil {
		t.Fatal(err)
	}
	ch := eng.Run(ctx)
	<-ch
	<-ch
	cancel()
	// Stop reading for longer than the grace: the engine gives up on the
	// closing events it cannot deliver and closes the channel.
	time.Sleep(finalGrace + 300*time.Millisecond)
	n := 0
	deadline := time.After(30 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				if n > eventBuffer {
					t.Fatalf("%d events after the pause: the engine kept sending", n)
				}
				return
			}
			n++
		case <-deadline:
			t.Fatal("the engine did not close its channel")
		}
	}
}

func TestTurnTimeout(t *testing.T) {
	p := &script{stallAt: func(req Request, tok int) bool { return req.Info.Speaker.Name == "Software Architect" && tok == 3 }}
	expectTurnTimeout(t, p, 2, 50*time.Millisecond, "Software Architect speaks", "script", "Software Architect", "no token for 50ms")
}

// expectTurnTimeout runs the default panel on p with a turn timeout and
// checks the debate ends with one timeout error that says every one of
// says, after the partial turn marked incomplete.
func expectTurnTimeout(t *testing.T, p Provider, rounds int, timeout time.Duration, partial string, says ...string) {
	t.Helper()
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: rounds, TurnTimeout: timeout}, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	last, ok := errorEvent(evs)
	if !ok || !errors.Is(last.Err, ErrTurnTimeout) {
		t.Fatalf("last %+v, want a turn timeout", last)
	}
	for _, want := range says {
		if !strings.Contains(last.Text, want) {
			t.Errorf("error %q does not say %q", last.Text, want)
		}
	}
	if prev := evs[len(evs)-2]; prev.Type != EventTurnEnd || !prev.Incomplete || prev.Text != partial {
		t.Errorf("partial turn %+v", prev)
	}
}

func TestMaxTurnTokensCutsWithNote(t *testing.T) {
	p := &script{endless: true}
	p.reply = func(req Request) string {
		if req.Info.Purpose == PurposeVerdict {
			return "**Decision:** stop."
		}
		return ""
	}
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas()[:2], Rounds: 1, MaxTurnTokens: 7}, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	turns := 0
	for _, ev := range evs {
		if ev.Type != EventTurnEnd {
			continue
		}
		turns++
		if !ev.Truncated || !strings.Contains(ev.Text, "cut off: the reply passed the limit of 7 tokens") {
			t.Errorf("turn_end %+v: want truncated with a note", ev)
		}
		if got := strings.Count(ev.Text, "tok "); got != 7 {
			t.Errorf("%d tokens kept, want 7", got)
		}
	}
	if turns != 2 || evs[len(evs)-1].Type != EventDone {
		t.Fatalf("%d turns, last %s: the debate should go on after a cut turn", turns, evs[len(evs)-1].Type)
	}
}

func TestBlindOpeningSeesNobody(t *testing.T) {
	seen := make(chan TurnInfo, 16)
	p := &script{reply: func(req Request) string {
		if req.Info.Purpose == PurposeTurn {
			seen <- req.Info
		}
		if req.Info.Purpose == PurposeVerdict {
			return "**Decision:** ok."
		}
		return req.Info.Speaker.Name + " talks."
	}}
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 2, BlindOpening: true}, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	close(seen)
	r1, r2 := 0, 0
	for info := range seen {
		switch info.Round {
		case 1:
			r1++
			if !info.Blind || len(info.Transcript) != 0 {
				t.Errorf("round 1 %s: blind=%v, saw %d turns", info.Speaker.Name, info.Blind, len(info.Transcript))
			}
			if strings.Contains(turnMessages(info)[1].Content, "The debate so far") {
				t.Error("a blind prompt shows a transcript")
			}
		case 2:
			r2++
			if info.Blind || len(info.Transcript) < 3 {
				t.Errorf("round 2 %s: blind=%v, saw %d turns", info.Speaker.Name, info.Blind, len(info.Transcript))
			}
		}
	}
	if r1 != 3 || r2 != 3 {
		t.Fatalf("%d round-1 and %d round-2 requests", r1, r2)
	}
}

func TestSequentialTurnsSeeEarlierTurns(t *testing.T) {
	var infos []TurnInfo
	p := &script{reply: func(req Request) string {
		if req.Info.Purpose == PurposeTurn {
			infos = append(infos, req.Info)
		}
		return "words from " + req.Info.Speaker.Name
	}}
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 2}, p)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, eng.Run(context.Background()))
	if len(infos) != 6 {
		t.Fatalf("%d turn requests", len(infos))
	}
	for i, info := range infos {
		if len(info.Transcript) != i {
			t.Errorf("turn %d saw %d earlier turns, want %d", i, len(info.Transcript), i)
		}
		if i > 0 && !strings.Contains(turnMessages(info)[1].Content, "words from "+infos[i-1].Speaker.Name) {
			t.Errorf("turn %d's prompt lacks the previous turn", i)
		}
	}
}

func TestStopOnConsensus(t *testing.T) {
	p := &script{reply: func(req Request) string {
		switch req.Info.Purpose {
		case PurposeConsensus:
			if req.Info.Round == 2 {
				return "**CONSENSUS**\nThey agree."
			}
			return "CONTINUE\nNot yet."
		case PurposeVerdict:
			return "**Decision:** go."
		default:
		}
		return "fine by me"
	}}
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 5, StopOnConsensus: true}, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	var ends []Event
	for _, ev := range evs {
		if ev.Type == EventRoundEnd {
			ends = append(ends, ev)
		}
	}
	if len(ends) != 2 || ends[0].Consensus == nil || *ends[0].Consensus || ends[1].Consensus == nil || !*ends[1].Consensus {
		t.Fatalf("round ends %+v, want no consensus then consensus", ends)
	}
	if s := evs[len(evs)-2]; s.Type != EventSummary || s.Round != 2 {
		t.Fatalf("summary %+v, want round 2", s)
	}
}

func TestUsageAddsUp(t *testing.T) {
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 2}, &script{})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	var sum Usage
	for _, ev := range evs {
		if (ev.Type == EventTurnEnd || ev.Type == EventSummary) && ev.Usage != nil {
			sum.Add(*ev.Usage)
		}
	}
	done := evs[len(evs)-1]
	if done.Type != EventDone || done.Usage == nil || *done.Usage != sum || sum.PromptTokens != 70 {
		t.Fatalf("done usage %+v, sum of turns and summary %+v", done.Usage, sum)
	}
}

func TestRunTwice(t *testing.T) {
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 1}, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	collect(t, eng.Run(context.Background()))
	evs := collect(t, eng.Run(context.Background()))
	if len(evs) != 1 || evs[0].Type != EventError || !strings.Contains(evs[0].Text, "already") {
		t.Fatalf("second Run: %+v", evs)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{"no topic", Config{Topic: "  ", Personas: DefaultPersonas()}, ErrBadConfig},
		{"rounds 11", Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 11}, ErrBadConfig},
		{"rounds -1", Config{Topic: "t", Personas: DefaultPersonas(), Rounds: -1}, ErrBadConfig},
		{"no personas", Config{Topic: "t"}, ErrBadPersona},
		{"duplicate", Config{Topic: "t", Personas: append(DefaultPersonas(), Persona{Name: "product manager", Persona: "x"})}, ErrBadPersona},
		{"reserved", Config{Topic: "t", Personas: []Persona{{Name: "Moderator", Persona: "x"}}}, ErrBadPersona},
		{"negative timeout", Config{Topic: "t", Personas: DefaultPersonas(), TurnTimeout: -time.Second}, ErrBadConfig},
		{"topic too long", Config{Topic: strings.Repeat("x", MaxTopicLen+1), Personas: DefaultPersonas()}, ErrBadConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg, NewMock(0))
			if !errors.Is(err, tt.want) || !IsUsage(err) {
				t.Fatalf("New: %v, want %v", err, tt.want)
			}
		})
	}
	if _, err := New(Config{Topic: "t", Personas: DefaultPersonas()}, nil); !errors.Is(err, ErrBadProvider) {
		t.Fatalf("nil provider: %v", err)
	}
	eng, err := New(Config{Topic: " t ", Personas: DefaultPersonas()}, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	c := eng.Config()
	if c.Topic != "t" || c.Rounds != DefaultRounds || c.TurnTimeout != DefaultTurnTimeout || c.MaxTurnTokens != DefaultMaxTurnTokens || c.Moderator.Name != "Moderator" {
		t.Fatalf("defaults not filled: %+v", c)
	}
}

// TestInvariantCheckerCatchesViolations makes sure the checker above can
// fail: each broken stream must be refused.
func TestInvariantCheckerCatchesViolations(t *testing.T) {
	cfg, err := Config{Topic: "t", Personas: DefaultPersonas()[:2], Rounds: 1}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := New(cfg, &script{})
	if err != nil {
		t.Fatal(err)
	}
	good := collect(t, eng.Run(context.Background()))
	if err := invariantErr(good, cfg); err != nil {
		t.Fatalf("a good stream was refused: %v", err)
	}
	mutate := func(f func([]Event) []Event) []Event {
		return f(append([]Event(nil), good...))
	}
	find := func(evs []Event, typ EventType) int {
		for i, ev := range evs {
			if ev.Type == typ {
				return i
			}
		}
		t.Fatalf("no %s", typ)
		return -1
	}
	broken := map[string][]Event{
		"two terminals": mutate(func(e []Event) []Event { return append(e, Event{Type: EventError, Text: "x"}) }),
		"no terminal":   mutate(func(e []Event) []Event { return e[:len(e)-1] }),
		"token lost": mutate(func(e []Event) []Event {
			i := find(e, EventToken)
			return append(e[:i], e[i+1:]...)
		}),
		"full_text differs": mutate(func(e []Event) []Event {
			i := find(e, EventTurnEnd)
			e[i].Text += "!"
			return e
		}),
		"round from 0": mutate(func(e []Event) []Event {
			e[find(e, EventRoundStart)].Round = 0
			return e
		}),
		"wrong order": mutate(func(e []Event) []Event {
			e[find(e, EventTurnStart)].Agent = cfg.Personas[1].Name
			return e
		}),
		"retry after a token": mutate(func(e []Event) []Event {
			i := find(e, EventToken) + 1
			rt := Event{Type: EventRetry, Round: 1, Agent: cfg.Personas[0].Name, Text: "HTTP 429", Attempt: 2, Attempts: 4}
			return append(e[:i], append([]Event{rt}, e[i:]...)...)
		}),
		"retry of another persona": mutate(func(e []Event) []Event {
			i := find(e, EventTurnStart) + 1
			rt := Event{Type: EventRetry, Round: 1, Agent: cfg.Personas[1].Name, Text: "HTTP 429", Attempt: 2, Attempts: 4}
			return append(e[:i], append([]Event{rt}, e[i:]...)...)
		}),
		"retry counting from 1": mutate(func(e []Event) []Event {
			i := find(e, EventTurnStart) + 1
			rt := Event{Type: EventRetry, Round: 1, Agent: cfg.Personas[0].Name, Text: "HTTP 429", Attempt: 1, Attempts: 4}
			return append(e[:i], append([]Event{rt}, e[i:]...)...)
		}),
		"retry outside a turn, not the moderator's": mutate(func(e []Event) []Event {
			i := find(e, EventRoundEnd) + 1
			rt := Event{Type: EventRetry, Round: 1, Agent: cfg.Personas[0].Name, Text: "HTTP 429", Attempt: 2, Attempts: 4}
			return append(e[:i], append([]Event{rt}, e[i:]...)...)
		}),
	}
	for name, evs := range broken {
		if invariantErr(evs, cfg) == nil {
			t.Errorf("%s: the checker accepted a broken stream", name)
		}
	}
}

// TestAgentFailingBeforeAWordIsAskedAgain: a coding agent that fails its
// turn before saying anything (a small model gave it nothing) is asked
// again, with a retry event each time, at most emptyRetries times; a
// provider's own failure is not, and neither is an agent that keeps
// failing past the retries.
func TestAgentFailingBeforeAWordIsAskedAgain(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fails   int64 // failed attempts of the Architect's first turn
		refused bool  // the agent's refusal, or a provider error
		retries int
		done    bool
	}{
		{"agent fails once", 1, true, 1, true},
		{"agent fails twice", 2, true, 2, true},
		{"agent keeps failing", 5, true, emptyRetries, false},
		{"provider fails", 1, false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var attempts atomic.Int64
			p := &script{name: "agentish", failAt: func(req Request, tok int) error {
				if req.Info.Purpose != PurposeTurn || req.Info.Speaker.Name != "Software Architect" || req.Info.Round != 1 || tok != 0 {
					return nil
				}
				if attempts.Add(1) > tc.fails {
					return nil
				}
				if tc.refused {
					return &turnRefusedError{msg: "Internal error: Model stream ended with empty response text."}
				}
				return fmt.Errorf("HTTP 502 Bad Gateway: %w", errBoom)
			}}
			eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 1}, p)
			if err != nil {
				t.Fatal(err)
			}
			evs := collect(t, eng.Run(context.Background()))
			checkInvariants(t, evs, eng.Config())
			var retries, starts int
			for _, ev := range evs {
				if ev.Agent != "Software Architect" {
					continue
				}
				switch ev.Type {
				case EventRetry:
					retries++
					if ev.Attempt != retries+1 || ev.Attempts != emptyRetries+1 || !strings.Contains(ev.Text, "empty response text") {
						t.Errorf("retry event %+v", ev)
					}
				case EventTurnStart:
					starts++
				default:
				}
			}
			if retries != tc.retries || starts != 1 {
				t.Errorf("%d retry events and %d turn_start, want %d and 1", retries, starts, tc.retries)
			}
			if last := evs[len(evs)-1]; (last.Type == EventDone) != tc.done {
				t.Errorf("ended with %s (%q), want done %v", last.Type, last.Text, tc.done)
			}
		})
	}
}

// TestStopAsATurnEndsKeepsIt: a debate stopped just as a turn ends,
// while its consumer lags, still delivers that whole turn: the stop once
// dropped it, neither saved whole nor cut. The reply fills the events'
// buffer up to the turn's end, so the engine waits there when the stop
// comes.
func TestStopAsATurnEndsKeepsIt(t *testing.T) {
	first := DefaultPersonas()[0].Name
	cfg := Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 1}
	// The events before the first word.
	probe, err := New(cfg, &script{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch := probe.Run(ctx)
	head := 0
	for ev := range ch {
		if ev.Type == EventToken {
			break
		}
		head++
	}
	cancel()
	collect(t, ch)

	reply := strings.TrimSpace(strings.Repeat("word ", eventBuffer-head))
	if n := len(splitTokens(reply)); head+n != eventBuffer {
		t.Fatalf("%d events and %d words do not fill a buffer of %d", head, n, eventBuffer)
	}
	eng, err := New(cfg, &script{reply: func(Request) string { return reply }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	ch = eng.Run(ctx)
	for deadline := time.Now().Add(10 * time.Second); len(ch) < cap(ch); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the engine never filled its buffer: %d of %d events", len(ch), cap(ch))
		}
	}
	cancel() // the engine waits to send the turn's end
	var ended *Event
	for _, ev := range collect(t, ch) {
		if ev.Type == EventTurnEnd && ev.Agent == first {
			ended = &ev
		}
	}
	if ended == nil || ended.Text != reply {
		t.Fatalf("the first turn, said whole, was not delivered: %+v", ended)
	}
}
