package debate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// seen records the transcript of every request a provider got.
type seen struct {
	Provider
	mu   sync.Mutex
	reqs []TurnInfo
}

func (s *seen) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	s.mu.Lock()
	s.reqs = append(s.reqs, req.Info)
	s.mu.Unlock()
	return s.Provider.Stream(ctx, req, onDelta)
}

func noteTexts(ts []Turn) []string {
	var out []string
	for _, t := range ts {
		if t.Note {
			out = append(out, t.Text)
		}
	}
	return out
}

// TestNotesProperty runs many random debates in which notes are given at
// random moments (while turns stream, between them, while paused) and
// checks the note contract: the stream's invariants hold with notes and
// pauses in it; every accepted note comes out once, in the order given,
// between turns; every later turn and the verdict see every earlier note
// in their transcript, as the user's words, in order; a refused note never
// comes out.
func TestNotesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	totalNotes, totalPauses := 0, 0
	defer func() {
		// The property is only as good as the notes it saw.
		if !t.Failed() && (totalNotes < 40 || totalPauses < 10) {
			t.Errorf("only %d notes and %d pauses over the debates; the test exercised too little", totalNotes, totalPauses)
		}
	}()
	for i := range 40 {
		n := 1 + rng.IntN(5)
		rounds := 1 + rng.IntN(4)
		cfg := Config{
			Topic: "Should we adopt GraphQL", Personas: personasN(n), Rounds: rounds, Seed: int64(i),
			BlindOpening: rng.IntN(3) == 0, StopOnConsensus: rng.IntN(3) == 0,
			PauseBetweenRounds: rng.IntN(2) == 0,
		}
		chance := 1 + rng.IntN(20) // percent of events after which a note is given
		t.Run(fmt.Sprintf("d%d-p%d-r%d-pause%v", i, n, rounds, cfg.PauseBetweenRounds), func(t *testing.T) {
			prov := &seen{Provider: NewMock(0)}
			eng, err := New(cfg, prov)
			if err != nil {
				t.Fatal(err)
			}
			var given []string
			var evs []Event
			k := 0
			give := func() {
				k++
				text := fmt.Sprintf("note %d: what about the cost of %d clients?", k, k)
				if err := eng.Interject(text); err == nil {
					given = append(given, text)
				} else if !errors.Is(err, ErrDebateEnded) {
					t.Fatalf("Interject: %v", err)
				}
			}
			lrng := rand.New(rand.NewPCG(uint64(i), 99))
			for ev := range eng.Run(context.Background()) {
				evs = append(evs, ev)
				if !ev.IsTerminal() && lrng.IntN(100) < chance {
					give()
				}
				if ev.Type == EventPause {
					totalPauses++
					for range lrng.IntN(3) {
						give()
					}
					if !eng.Continue() {
						t.Fatal("Continue after a pause event said the debate was not paused")
					}
				}
			}
			ecfg := eng.Config()
			checkInvariants(t, evs, ecfg)
			if last := evs[len(evs)-1]; last.Type != EventDone {
				t.Fatalf("ended with %s %q", last.Type, last.Text)
			}
			if err := eng.Interject("too late"); !errors.Is(err, ErrDebateEnded) {
				t.Fatalf("Interject after the end: %v, want ErrDebateEnded", err)
			}
			// Every accepted note came out once, in order.
			var out []string
			notesBefore := map[string][]string{} // "round/agent" of each turn_start -> notes sent before it
			for _, ev := range evs {
				switch ev.Type {
				case EventNote:
					out = append(out, ev.Text)
				case EventTurnStart:
					notesBefore[fmt.Sprintf("%d/%s", ev.Round, ev.Agent)] = slices.Clone(out)
				default:
				}
			}
			// A note accepted while the verdict was being written is
			// refused (ErrDebateEnded), so accepted = sent.
			if !slices.Equal(out, given) {
				t.Fatalf("notes sent %q, given %q", out, given)
			}
			totalNotes += len(out)
			// Every turn sees every note sent before it started, in order,
			// as the user's words; blind turns see nobody.
			prov.mu.Lock()
			defer prov.mu.Unlock()
			verdicts := 0
			for _, info := range prov.reqs {
				got := noteTexts(info.Transcript)
				for _, tt := range info.Transcript {
					if tt.Note && tt.Agent != NoteFrom {
						t.Fatalf("a note in the transcript as %q, not the user's", tt.Agent)
					}
				}
				switch info.Purpose {
				case PurposeTurn:
					if info.Blind {
						if len(info.Transcript) != 0 {
							t.Fatalf("a blind turn saw %d turns", len(info.Transcript))
						}
						continue
					}
					want := notesBefore[fmt.Sprintf("%d/%s", info.Round, info.Speaker.Name)]
					if !slices.Equal(got, want) {
						t.Fatalf("round %d %s saw notes %q, want %q", info.Round, info.Speaker.Name, got, want)
					}
					prompt := FormatTranscript(info.Transcript)
					for _, n := range want {
						if !strings.Contains(prompt, "The user's note") || !strings.Contains(prompt, n) {
							t.Fatalf("round %d %s: the prompt lacks the note %q", info.Round, info.Speaker.Name, n)
						}
					}
				case PurposeVerdict:
					verdicts++
					if !slices.Equal(got, given) {
						t.Fatalf("the verdict saw notes %q, want all of %q", got, given)
					}
				default:
				}
			}
			if verdicts != 1 {
				t.Fatalf("%d verdict requests", verdicts)
			}
		})
	}
}

// TestPauseWaitsForContinue: a paused debate sends nothing until Continue,
// takes notes at once while paused, and goes on after Continue.
func TestPauseWaitsForContinue(t *testing.T) {
	cfg := Config{Topic: "Adopt GraphQL", Personas: personasN(2), Rounds: 2, PauseBetweenRounds: true}
	eng, err := New(cfg, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	if eng.Continue() {
		t.Fatal("Continue before the debate paused said it was paused")
	}
	evs := eng.Run(context.Background())
	var got []Event
	for ev := range evs {
		got = append(got, ev)
		if ev.Type == EventPause {
			break
		}
	}
	if got[len(got)-1].Type != EventPause || got[len(got)-1].Round != 1 {
		t.Fatalf("no pause after round 1: %v", tail(got, 2))
	}
	select {
	case ev := <-evs:
		t.Fatalf("a paused debate sent %s", ev.Type)
	case <-time.After(50 * time.Millisecond):
	}
	if err := eng.Interject("  Think about the mobile clients.  "); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-evs:
		got = append(got, ev)
		if ev.Type != EventNote || ev.Text != "Think about the mobile clients." || ev.Round != 1 || ev.From != "user" {
			t.Fatalf("while paused, a note gave %+v", ev)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a note given while paused did not come out at once")
	}
	if !eng.Continue() {
		t.Fatal("Continue while paused said it was not paused")
	}
	ev := <-evs
	got = append(got, ev)
	if ev.Type != EventRoundStart || ev.Round != 2 {
		t.Fatalf("after Continue came %s, want round_start 2", ev.Type)
	}
	pauses := 1
	for ev := range evs {
		got = append(got, ev)
		if ev.Type == EventPause {
			pauses++
			eng.Continue()
		}
	}
	checkInvariants(t, got, eng.Config())
	if pauses != 2 {
		t.Fatalf("%d pauses in a debate of 2 rounds", pauses)
	}
}

// TestCancelWhilePaused: stopping a paused debate ends it promptly as
// cancelled, and no note is taken after.
func TestCancelWhilePaused(t *testing.T) {
	cfg := Config{Topic: "Adopt GraphQL", Personas: personasN(2), Rounds: 3, PauseBetweenRounds: true}
	eng, err := New(cfg, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs := eng.Run(ctx)
	for ev := range evs {
		if ev.Type == EventPause {
			break
		}
	}
	cancel()
	rest := collect(t, evs)
	if last := rest[len(rest)-1]; last.Type != EventError || last.Text != CancelledMessage {
		t.Fatalf("a paused debate stopped with %+v", last)
	}
	if err := eng.Interject("hello?"); !errors.Is(err, ErrDebateEnded) {
		t.Fatalf("Interject after a stop: %v", err)
	}
}

// TestInterjectRefusesBadNotes: blank and oversized notes are refused with
// a sentence saying what to do.
func TestInterjectRefusesBadNotes(t *testing.T) {
	eng, err := New(Config{Topic: "t", Personas: personasN(1), Rounds: 1}, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Interject(" \n\t"); !errors.Is(err, ErrEmptyNote) {
		t.Fatalf("blank note: %v", err)
	}
	if err := eng.Interject(strings.Repeat("x", MaxNoteBytes+1)); err == nil || !strings.Contains(err.Error(), "shorten it") {
		t.Fatalf("oversized note: %v", err)
	}
	collect(t, eng.Run(context.Background()))
}

// TestMockAnswersNewestNote: the mock's next persona quotes the newest note
// it has not answered, and the verdict lists the notes.
func TestMockAnswersNewestNote(t *testing.T) {
	ps := personasN(2)
	info := TurnInfo{Purpose: PurposeTurn, Topic: "Adopt GraphQL", Speaker: ps[1], Personas: ps, Round: 2, Rounds: 2}
	info.Transcript = []Turn{
		{Round: 1, Agent: ps[0].Name, Text: "First.\n\n**My position:** support: it helps."},
		{Round: 1, Agent: ps[1].Name, Text: "Second.\n\n**My position:** oppose: it hurts."},
		NoteTurn(1, "an old note"),
		NoteTurn(1, "What about the mobile clients?"),
		{Round: 2, Agent: ps[0].Name, Text: "Third.\n\n**My position:** support: still."},
	}
	reply := MockReply(info)
	if !strings.HasPrefix(reply, "To the user's note, “What about the mobile clients”") {
		t.Fatalf("the mock did not answer the newest note first:\n%s", reply)
	}
	// A note the speaker already spoke after is not answered again.
	info.Transcript = append(info.Transcript, Turn{Round: 2, Agent: ps[1].Name, Text: "Fourth."})
	info.Round = 3
	info.Rounds = 3
	if reply := MockReply(info); strings.Contains(reply, "user's note") {
		t.Fatalf("the mock answered a note again:\n%s", reply)
	}
	info.Purpose = PurposeVerdict
	if v := MockReply(info); !strings.Contains(v, "“What about the mobile clients”") || !strings.Contains(v, "“an old note”") {
		t.Fatalf("the verdict does not answer the notes:\n%s", v)
	}
	// Without notes the mock's reply is what it always was.
	plain := info
	plain.Purpose = PurposeTurn
	plain.Transcript = withoutNotes(info).Transcript
	if MockReply(plain) != mockTurn(plain) {
		t.Fatal("a transcript without notes changed the mock's turn")
	}
}

// TestEventNoteJSON: note and pause events round-trip through JSON in the
// documented shapes.
func TestEventNoteJSON(t *testing.T) {
	for _, c := range []struct {
		ev   Event
		want string
	}{
		{Event{Type: EventNote, Round: 2, From: "user", Text: "a <note> & more"}, `{"event":"note","data":{"round":2,"from":"user","text":"a <note> & more"}}`},
		{Event{Type: EventPause, Round: 3}, `{"event":"pause","data":{"round":3}}`},
	} {
		b, err := c.ev.MarshalJSON()
		if err != nil || string(b) != c.want {
			t.Fatalf("%s: %s, %v; want %s", c.ev.Type, b, err, c.want)
		}
		var back Event
		if err := back.UnmarshalJSON(b); err != nil || back.Type != c.ev.Type || back.Round != c.ev.Round || back.Text != c.ev.Text || back.From != c.ev.From {
			t.Fatalf("%s: back as %+v, %v", c.ev.Type, back, err)
		}
	}
}

// TestAgentHearsNotes: a persona spoken by a coding agent, which is sent
// only what is new since its last turn, gets the user's note with the
// turns since, marked as the user's.
func TestAgentHearsNotes(t *testing.T) {
	a := &agentProc{sent: map[Purpose]bool{}, client: newAgentClient(0, "")}
	ps := personasN(2)
	tr := []Turn{{Round: 1, Agent: ps[0].Name, Text: "ALPHA-1"}, {Round: 1, Agent: ps[1].Name, Text: "BETA-1"}}
	info := TurnInfo{Purpose: PurposeTurn, Topic: "T", Speaker: ps[0], Personas: ps, Round: 2, Rounds: 2, Transcript: tr}
	_ = a.promptFor(Request{Messages: turnMessages(info), Info: info})
	tr = append(tr, Turn{Round: 2, Agent: ps[0].Name, Text: "ALPHA-2"}, NoteTurn(2, "MIND THE MOBILE CLIENTS"), Turn{Round: 2, Agent: ps[1].Name, Text: "BETA-2"})
	info = TurnInfo{Purpose: PurposeTurn, Topic: "T", Speaker: ps[0], Personas: ps, Round: 3, Rounds: 3, Transcript: tr}
	follow := a.promptFor(Request{Messages: turnMessages(info), Info: info})
	if !strings.Contains(follow, "### The user's note (round 2)\n\nMIND THE MOBILE CLIENTS") || !strings.Contains(follow, "BETA-2") || strings.Contains(follow, "ALPHA-2") {
		t.Fatalf("the agent's follow-up:\n%s", follow)
	}
	// The persona prompt tells every model what the notes are.
	sys := turnMessages(info)[0].Content
	if !strings.Contains(sys, "The user's note") || !strings.Contains(sys, "outrank") {
		t.Fatalf("the persona prompt does not say what the user's notes are:\n%s", sys)
	}
	if v := verdictMessages(info)[0].Content; !strings.Contains(v, "outrank") {
		t.Fatalf("the moderator prompt does not say what the user's notes are:\n%s", v)
	}
}

// TestConsensusWaitsForNote: with stop-on-consensus, a note given during
// a round reaches the moderator's check, and an unanswered note keeps the
// debate going (the mock says so, as the prompt asks of a model).
func TestConsensusWaitsForNote(t *testing.T) {
	ps := personasN(2)
	info := TurnInfo{
		Purpose: PurposeConsensus, Topic: "T", Speaker: DefaultModerator(), Personas: ps, Round: 1, Rounds: 3,
		Transcript: []Turn{{Round: 1, Agent: ps[0].Name, Text: "**My position:** support: yes."}, {Round: 1, Agent: ps[1].Name, Text: "**My position:** support: yes."}},
	}
	if !ParseConsensus(MockReply(info)) {
		t.Fatalf("the panel agrees, yet: %s", MockReply(info))
	}
	info.Transcript = append(info.Transcript, NoteTurn(1, "What about the cost?"))
	if reply := MockReply(info); ParseConsensus(reply) || !strings.Contains(reply, "What about the cost") {
		t.Fatalf("an unanswered note did not keep the debate going: %s", reply)
	}

	// In the engine: the note given while the round's last turn is spoken
	// is sent before round_end, and the moderator's check sees it.
	prov := &seen{Provider: NewMock(0)}
	eng, err := New(Config{Topic: "Adopt GraphQL", Personas: ps, Rounds: 3, StopOnConsensus: true}, prov)
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	given := false
	for ev := range eng.Run(context.Background()) {
		evs = append(evs, ev)
		if !given && ev.Type == EventTurnStart && ev.Agent == ps[1].Name {
			if err := eng.Interject("What about the cost?"); err != nil {
				t.Fatal(err)
			}
			given = true
		}
	}
	checkInvariants(t, evs, eng.Config())
	noteRound := 0
	for i, ev := range evs {
		if ev.Type == EventNote {
			noteRound = ev.Round
			// Between the round's last turn_end and its round_end, or
			// after a round_end: never inside a turn (checked above).
			if next := evs[i+1]; next.Type != EventRoundEnd && next.Type != EventRoundStart && next.Type != EventTurnStart {
				t.Fatalf("after the note came %s", next.Type)
			}
		}
	}
	prov.mu.Lock()
	defer prov.mu.Unlock()
	checks := 0
	for _, info := range prov.reqs {
		if info.Purpose == PurposeConsensus && info.Round >= noteRound {
			checks++
			if got := noteTexts(info.Transcript); len(got) != 1 {
				t.Fatalf("the consensus check after round %d saw notes %q (the note came in round %d)", info.Round, got, noteRound)
			}
		}
	}
	if noteRound == 0 || checks == 0 {
		t.Fatalf("note in round %d, %d consensus checks after it", noteRound, checks)
	}
}
