package debate

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// collect runs e to the end and returns every event. It fails the test if
// the stream does not close within a minute (a hang, not a slow machine).
func collect(t testing.TB, ch <-chan Event) []Event {
	t.Helper()
	var evs []Event
	deadline := time.After(time.Minute)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return evs
			}
			evs = append(evs, ev)
		case <-deadline:
			t.Fatalf("the event stream did not close; last events: %v", tail(evs, 3))
			return evs
		}
	}
}

func tail(evs []Event, n int) []Event {
	if len(evs) <= n {
		return evs
	}
	return evs[len(evs)-n:]
}

// checkInvariants checks the contract's invariants 1-3 and the shape of a
// stream (session_start first, rounds in order, summary before done).
func checkInvariants(t *testing.T, evs []Event, cfg Config) {
	t.Helper()
	if err := invariantErr(evs, cfg); err != nil {
		t.Fatal(err)
	}
}

func invariantErr(evs []Event, cfg Config) error {
	if strings.TrimSpace(cfg.Moderator.Name) == "" {
		cfg.Moderator.Name = DefaultModerator().Name // a zero Moderator is the default one
	}
	if len(evs) == 0 {
		return errors.New("no events")
	}
	// 1. Exactly one terminal event, and it is the last.
	terminals := 0
	for i, ev := range evs {
		if ev.IsTerminal() {
			terminals++
			if i != len(evs)-1 {
				return fmt.Errorf("terminal %s at %d of %d events: something follows it", ev.Type, i, len(evs))
			}
		}
	}
	if terminals != 1 {
		return fmt.Errorf("%d terminal events, want exactly 1", terminals)
	}
	if evs[0].Type != EventSessionStart {
		if evs[0].Type == EventError && len(evs) == 1 {
			return nil
		}
		return fmt.Errorf("first event %s, want session_start", evs[0].Type)
	}
	if !slices.Equal(evs[0].Agents, cfg.Names()) || evs[0].Rounds != cfg.Rounds || evs[0].Topic != cfg.Topic {
		return fmt.Errorf("session_start %+v does not match the config", evs[0])
	}
	// 2 and 3: token deltas concatenate to full_text; rounds count from 1;
	// turns within a round follow the persona order.
	round, turnIdx := 0, 0
	inTurn, inRound := false, false
	lastAttempt := 0 // the last retry's attempt in this turn (or moderator request)
	var text, verdict strings.Builder
	var cur Event
	sawSummary := false
	paused := false
	budgetStop := false
	ranked := -1 // the last ranker's index in speaking order
	var lastRoundEnd Event
	for i, ev := range evs[1:] {
		switch ev.Type {
		case EventRoundStart:
			if inRound || ev.Round != round+1 {
				return fmt.Errorf("event %d: round_start %d after round %d (in round: %v)", i+1, ev.Round, round, inRound)
			}
			if cfg.PauseBetweenRounds && round > 0 && !paused {
				return fmt.Errorf("event %d: round %d started without a pause after round %d", i+1, ev.Round, round)
			}
			round, turnIdx, inRound, paused = ev.Round, 0, true, false
		case EventTurnStart:
			if !inRound || inTurn || ev.Round != round {
				return fmt.Errorf("event %d: turn_start %+v out of place (round %d)", i+1, ev, round)
			}
			if turnIdx >= len(cfg.Personas) || ev.Agent != cfg.Personas[turnIdx].Name {
				return fmt.Errorf("event %d: round %d turn %d is %q, want persona order %v", i+1, round, turnIdx, ev.Agent, cfg.Names())
			}
			inTurn, cur, lastAttempt = true, ev, 0
			text.Reset()
		case EventRetry:
			// 6. A retry names its turn (or the moderator, between turns),
			// comes before the turn's first token, and counts attempts
			// from 2 up to max_attempts.
			switch {
			case inTurn && (ev.Agent != cur.Agent || ev.Round != cur.Round || text.Len() > 0):
				return fmt.Errorf("event %d: retry %+v in %s's turn after %d bytes", i+1, ev, cur.Agent, text.Len())
			case !inTurn && ev.Agent != cfg.Moderator.Name:
				return fmt.Errorf("event %d: retry %+v outside a turn, not the moderator's", i+1, ev)
			case ev.Attempt < 2 || ev.Attempt > ev.Attempts || ev.Attempt <= lastAttempt && inTurn:
				return fmt.Errorf("event %d: retry attempt %d of %d after attempt %d", i+1, ev.Attempt, ev.Attempts, lastAttempt)
			case ev.Text == "" || ev.Wait < 0:
				return fmt.Errorf("event %d: retry %+v without a reason", i+1, ev)
			}
			if inTurn {
				lastAttempt = ev.Attempt
			}
		case EventActivity:
			// An activity names its turn (or the moderator, between
			// turns) and is never part of the text.
			switch {
			case inTurn && (ev.Agent != cur.Agent || ev.Round != cur.Round):
				return fmt.Errorf("event %d: activity %+v in %s's turn", i+1, ev, cur.Agent)
			case !inTurn && ev.Agent != cfg.Moderator.Name:
				return fmt.Errorf("event %d: activity %+v outside a turn, not the moderator's", i+1, ev)
			case ev.Kind == "" || ev.Text == "" || strings.Contains(ev.Text, "\n"):
				return fmt.Errorf("event %d: activity %+v without a kind or a single line", i+1, ev)
			}
		case EventToken:
			if !inTurn && !inRound && !sawSummary && ev.Agent == cfg.Moderator.Name && ev.Round == round {
				verdict.WriteString(ev.Text) // the verdict streaming
				break
			}
			if !inTurn || ev.Agent != cur.Agent || ev.Round != cur.Round {
				return fmt.Errorf("event %d: token %+v outside its turn", i+1, ev)
			}
			text.WriteString(ev.Text)
		case EventTurnEnd:
			if !inTurn || ev.Agent != cur.Agent || ev.Round != cur.Round {
				return fmt.Errorf("event %d: turn_end %+v without its turn_start", i+1, ev)
			}
			if got := text.String(); got != ev.Text {
				return fmt.Errorf("event %d: %s round %d: tokens concatenate to %q, full_text is %q", i+1, ev.Agent, ev.Round, got, ev.Text)
			}
			inTurn = false
			turnIdx++
		case EventRoundEnd:
			if !inRound || inTurn || ev.Round != round || turnIdx != len(cfg.Personas) {
				return fmt.Errorf("event %d: round_end %d after %d turns of round %d", i+1, ev.Round, turnIdx, round)
			}
			inRound, lastRoundEnd = false, ev
			paused = false
		case EventNote:
			// A note comes between turns, never inside one, from the
			// user, in the round being held (or just ended).
			if inTurn || sawSummary || ev.From != NoteFrom || strings.TrimSpace(ev.Text) == "" || ev.Round != round {
				return fmt.Errorf("event %d: note %+v out of place (round %d, in a turn: %v)", i+1, ev, round, inTurn)
			}
		case EventPause:
			// A pause comes once after each round_end, when asked for.
			if !cfg.PauseBetweenRounds || inRound || paused || ev.Round != round || lastRoundEnd.Round != round {
				return fmt.Errorf("event %d: pause %+v out of place (round %d)", i+1, ev, round)
			}
			paused = true
		case EventBudget:
			// A budget spent ends the round after a turn: the verdict
			// comes next.
			if !inRound || inTurn || turnIdx == 0 || ev.Round != round || ev.Text == "" || ev.Usage == nil {
				return fmt.Errorf("event %d: budget %+v out of place (round %d, turn %d)", i+1, ev, round, turnIdx)
			}
			inRound, budgetStop = false, true
		case EventRanking:
			// The rankings come after the rounds, before the verdict,
			// one per persona at most, in speaking order, each ranking
			// only the others.
			at := slices.IndexFunc(cfg.Personas, func(p Persona) bool { return p.Name == ev.Agent })
			switch {
			case !cfg.Rank || inRound || inTurn || sawSummary || budgetStop || ev.Round != round:
				return fmt.Errorf("event %d: ranking %+v out of place (round %d, in round: %v)", i+1, ev, round, inRound)
			case cfg.PauseBetweenRounds && !paused:
				return fmt.Errorf("event %d: ranking before the pause after round %d", i+1, round)
			case at <= ranked:
				return fmt.Errorf("event %d: %q ranks after persona %d ranked", i+1, ev.Agent, ranked)
			case ev.Ranking == nil:
				return fmt.Errorf("event %d: ranking %+v with a nil order", i+1, ev)
			}
			for k, n := range ev.Ranking {
				if n == ev.Agent || !slices.Contains(cfg.Names(), n) || slices.Contains(ev.Ranking[:k], n) {
					return fmt.Errorf("event %d: %s's ranking %q names %q", i+1, ev.Agent, ev.Ranking, n)
				}
			}
			ranked = at
		case EventSummary:
			if cfg.PauseBetweenRounds && !paused {
				return fmt.Errorf("event %d: the verdict came without a pause after round %d", i+1, round)
			}
			if inRound || sawSummary || ev.Round != round || strings.TrimSpace(ev.Text) == "" {
				return fmt.Errorf("event %d: summary out of place or empty (round %d)", i+1, round)
			}
			if got := verdict.String(); got != "" && got != ev.Text {
				return fmt.Errorf("event %d: the verdict streamed %q, the summary says %q", i+1, got, ev.Text)
			}
			sawSummary = true
		case EventDone:
			if !sawSummary {
				return errors.New("done without a summary")
			}
			stopped := lastRoundEnd.Consensus != nil && *lastRoundEnd.Consensus
			if round != cfg.Rounds && !stopped && !budgetStop {
				return fmt.Errorf("done after %d of %d rounds without consensus", round, cfg.Rounds)
			}
		case EventError:
			if ev.Text == "" {
				return errors.New("error without a message")
			}
		case EventSessionStart:
			return fmt.Errorf("event %d: a second session_start", i+1)
		}
	}
	return nil
}

// script is a provider for engine tests: it replies to each request with
// words from reply, and can fail, stall or never stop.
type script struct {
	name     string
	reply    func(req Request) string
	failAt   func(req Request, token int) error     // non-nil error: fail before this token
	stallAt  func(req Request, token int) bool      // true: go quiet before this token
	retries  func(req Request) int                  // this many failed attempts before the reply
	activity func(req Request, token int) *Activity // non-nil: report this before the token
	endless  bool
	requests atomic.Int64
}

func (s *script) Name() string {
	if s.name == "" {
		return "script"
	}
	return s.name
}
func (s *script) Model() string { return "script-model" }

func (s *script) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	s.requests.Add(1)
	text := fmt.Sprintf("%s speaks in round %d about %s.", req.Info.Speaker.Name, req.Info.Round, req.Info.Topic)
	if req.Info.Purpose == PurposeVerdict {
		text = "**Decision:** do it.\n\nBecause."
	}
	if req.Info.Purpose == PurposeConsensus {
		text = "CONTINUE"
	}
	if s.reply != nil {
		text = s.reply(req)
	}
	if s.retries != nil {
		// As the OpenAI-compatible provider does: each failed attempt
		// before the reply is announced, then retried.
		n := s.retries(req)
		for a := range n {
			if req.OnRetry != nil {
				req.OnRetry(Retry{Attempt: a + 2, Attempts: n + 1, Status: 429 + a%2*74, Wait: time.Duration(a) * time.Millisecond})
			}
		}
	}
	toks := splitTokens(text)
	u := Usage{PromptTokens: 10}
	for i := 0; s.endless || i < len(toks); i++ {
		if s.failAt != nil {
			if err := s.failAt(req, i); err != nil {
				return u, err
			}
		}
		if s.stallAt != nil && s.stallAt(req, i) {
			<-ctx.Done()
			return u, ctx.Err()
		}
		if err := ctx.Err(); err != nil {
			return u, err
		}
		if s.activity != nil && req.OnActivity != nil {
			if a := s.activity(req, i); a != nil {
				req.OnActivity(*a)
			}
		}
		tok := "tok "
		if i < len(toks) {
			tok = toks[i]
		}
		if err := onDelta(tok); err != nil {
			return u, err
		}
		u.CompletionTokens++
	}
	return u, nil
}

// personasN returns n personas: the default trio first, then extra voices.
func personasN(n int) []Persona {
	all := append(DefaultPersonas(),
		Persona{Name: "Cost Optimizer", Persona: "a finance-minded reviewer who scrutinizes spend and ROI", Stance: StanceAgainst},
		Persona{Name: "SRE", Persona: "a site reliability engineer who carries the pager"},
		Persona{Name: "QA Lead", Persona: "a quality lead who wants proof it works", Stance: StanceFor},
		Persona{Name: "Historian", Persona: "someone who remembers every past migration", Stance: StanceNeutral},
		Persona{Name: "Newcomer", Persona: "a junior engineer who asks the obvious questions"},
	)
	return all[:n]
}

func errorEvent(evs []Event) (Event, bool) {
	if len(evs) == 0 {
		return Event{}, false
	}
	last := evs[len(evs)-1]
	return last, last.Type == EventError
}

func readGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", t.Name(), name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test ./debate -update to create it): %v", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the golden file %s (run with -update after checking the change)\n--- got ---\n%s", name, path, got)
	}
}

var errBoom = errors.New("boom")

// WithoutDrafts turns the drafts off: only finished turns reach the room
// (what the benchmarks compare the drafts against). Call it before the
// first event.
func (rc *Recorder) WithoutDrafts() *Recorder {
	rc.drafts = nil
	return rc
}

// Err is the first error saving the debate, nil when all went well.
func (rc *Recorder) Err() error { return rc.err }

// Record is record with no end hook. Read the returned channel until it
// is closed.
func Record(events <-chan Event, rc *Recorder) <-chan Event {
	return record(events, rc, nil)
}

// NewFrom is New for a debate that picks up at pos (from PositionOf):
// its first turn is persona pos.Turn's in round pos.Round, every turn
// sees pos.Transcript before its own round's, and the total starts at
// pos.Usage. Its stream is a debate's from session_start, the rounds
// before pos.Round and the turns before pos.Turn left out.
func NewFrom(cfg Config, p Provider, pos Position) (*Engine, error) {
	e, err := New(cfg, p)
	if err != nil {
		return nil, err
	}
	if pos.Round < 1 || pos.Round > e.cfg.Rounds+1 || pos.Turn < 0 || pos.Turn >= len(e.cfg.Personas) {
		return nil, fmt.Errorf("%w: cannot resume at round %d, turn %d of %d rounds of %d personas", ErrBadConfig, pos.Round, pos.Turn, e.cfg.Rounds, len(e.cfg.Personas))
	}
	e.from = &pos
	return e, nil
}

// ReadStore is the events of the room as it is now, read once: the
// replay of a finished debate.
func ReadStore(cfg room.Config, st room.State, drafts []room.Draft) []Event {
	return NewRoomReader(cfg).Read(st, drafts)
}

// Interject is Session.Interject for an engine run without a Session.
func (e *Engine) Interject(text string) error { return e.ctl.interject(text) }

// Continue is Session.Continue for an engine run without a Session.
func (e *Engine) Continue() bool { return e.ctl.cont() }
