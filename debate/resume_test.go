package debate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/debatetest"
	"github.com/roundtable-dev/roundtable/room"
)

// newCutServer is a debatetest.CutServer: reply n is "Reply n.", request
// cutAt is cut mid-stream.
func newCutServer(t *testing.T, cutAt int) *debatetest.CutServer {
	return debatetest.NewCutServer(t, cutAt, debatetest.CutOptions{})
}

func wireSettings(cwd, url string) Settings {
	return Settings{
		Config:   Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 2},
		Provider: ProviderConfig{Name: ProviderOpenAI, BaseURL: url + "/v1", Model: "m", APIKey: "k"},
		Cwd:      cwd, Getenv: envOf(nil),
	}
}

// TestResumeAfterACutStream: a debate over a server that cuts the stream
// in round 2 fails there; Resume continues it in the same room from that
// turn to its verdict. Every turn is in the room exactly once, the cut one
// stays marked incomplete, the persona speaking again does not see it,
// the failed ending is kept aside, and the total counts every message.
func TestResumeAfterACutStream(t *testing.T) {
	cs := newCutServer(t, 5) // round 2, the second persona
	cwd := t.TempDir()
	s := wireSettings(cwd, cs.URL)
	sess, err := Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, sess.Events())
	if last := evs[len(evs)-1]; last.Type != EventError || last.Agent != "Software Architect" || last.Round != 2 {
		t.Fatalf("the first run ended with %+v, want the cut turn's error", last)
	}
	name := sess.Room().Config().Room
	st, _ := sess.Room().State()
	if st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, ReasonFailed) || IsComplete(st.Closed.Reason) {
		t.Fatalf("closed %+v", st.Closed)
	}
	failed := st.Closed.Reason

	again, err := Resume(context.Background(), s, name)
	if err != nil {
		t.Fatal(err)
	}
	evs = collect(t, again.Events())
	if evs[0].Type != EventSessionStart || evs[1].Type != EventRoundStart || evs[1].Round != 2 ||
		evs[2].Type != EventTurnStart || evs[2].Agent != "Software Architect" || evs[2].Round != 2 {
		t.Fatalf("the resumed stream starts %v", evs[:3])
	}
	last := evs[len(evs)-1]
	if last.Type != EventDone {
		t.Fatalf("the resumed debate ended with %+v", last)
	}
	st, err = again.Room().State()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != ReasonComplete {
		t.Fatalf("closed %+v after the resume", st.Closed)
	}
	var aside room.Closed
	data, err := os.ReadFile(filepath.Join(again.Room().Dir(), "closed-1.json"))
	if err != nil || json.Unmarshal(data, &aside) != nil || aside.Reason != failed {
		t.Fatalf("the failed ending was not kept aside: %s %v", data, err)
	}
	count := map[string]int{}
	incomplete := 0
	var sum Usage
	for _, m := range st.Messages {
		sum.Add(UsageOf(m))
		switch m.Kind {
		case KindIncomplete:
			incomplete++
			if m.Seat != "Software Architect" || m.Round != 2 || !strings.Contains(m.Text, "CUT partial") {
				t.Errorf("the incomplete message is %+v", m)
			}
		default:
			count[fmt.Sprintf("%s/%d", m.Seat, m.Round)]++
		}
	}
	for _, p := range DefaultPersonas() {
		for round := 1; round <= 2; round++ {
			if n := count[fmt.Sprintf("%s/%d", p.Name, round)]; n != 1 {
				t.Errorf("%s's turn in round %d is in the room %d times", p.Name, round, n)
			}
		}
	}
	if incomplete != 1 || count[room.SeatModerator+"/2"] != 1 || len(st.Messages) != 8 {
		t.Errorf("%d incomplete, %d verdicts, %d messages: %+v", incomplete, count[room.SeatModerator+"/2"], len(st.Messages), st.Messages)
	}
	if last.Usage == nil || *last.Usage != sum || sum.PromptTokens != 700 {
		t.Errorf("the total is %+v, the messages sum to %+v (7 replies of 100 prompt tokens)", last.Usage, sum)
	}
	// The sixth request is the cut turn spoken again: it sees the four
	// turns before it once each, and nothing of the cut one.
	reqs := cs.Requests()
	if len(reqs) != 8 {
		t.Fatalf("%d requests, want 8 (the cut turn, six turns and the verdict)", len(reqs))
	}
	redo := reqs[5]
	for n := 1; n <= 4; n++ {
		if c := strings.Count(redo, fmt.Sprintf("Reply %d.", n)); c != 1 {
			t.Errorf("the turn spoken again sees Reply %d %d times", n, c)
		}
	}
	if strings.Contains(redo, "CUT") {
		t.Errorf("the turn spoken again sees the cut turn:\n%s", redo)
	}
	if !strings.Contains(reqs[7], "Reply 6.") || strings.Contains(reqs[7], "CUT") {
		t.Errorf("the verdict's request does not see the debate as it stands now")
	}
}

// TestResumeRefuses: a room still open, a complete one, an MCP room and a
// room that does not exist cannot be resumed, each saying why; nothing is
// changed in them.
func TestResumeRefuses(t *testing.T) {
	cwd := t.TempDir()
	s := mockSettings(cwd)
	sess, err := Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sess.Events())
	complete := sess.Room().Config().Room
	cfg, _ := s.Config.Normalize()
	open, err := CreateRoom(cwd, "open-one", cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A live run holds the room's run lock: here, this process.
	running, err := open.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	defer running.Unlock()
	if _, _, err := room.Create(cwd, "mcp-room", room.CreateOptions{Topic: "x", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	for ref, want := range map[string]string{
		complete:   "is complete",
		"open-one": "process " + strconv.Itoa(os.Getpid()) + " runs its debate",
		"mcp-room": "not a persona debate",
		"nowhere":  `there is no room "nowhere" under ` + cwd + "; roundtable rooms lists",
	} {
		_, err := Resume(context.Background(), s, ref)
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), want) {
			t.Errorf("resume %s: err %v, want %q", ref, err, want)
		}
	}
	if st, _ := open.State(); st.Closed != nil {
		t.Errorf("the open room was closed: %+v", st.Closed)
	}
	// By folder works the same as by name.
	if _, err := Resume(context.Background(), s, filepath.Join(cwd, room.Folder, complete)); err == nil || !strings.Contains(err.Error(), "is complete") {
		t.Errorf("resume by folder: %v", err)
	}
}

// TestResumeAbandoned: a debate room left open by a run that died
// without closing it (its run lock free, the pid in it gone) is closed as
// failed, saying which process, and resumed from its last saved turn; the
// failure stays as closed-1.json.
func TestResumeAbandoned(t *testing.T) {
	cwd := t.TempDir()
	s := mockSettings(cwd)
	cfg, _ := s.Config.Normalize()
	r, err := CreateRoom(cwd, "left-open", cfg)
	if err != nil {
		t.Fatal(err)
	}
	dead := deadPID(t)
	if err := os.WriteFile(filepath.Join(r.Dir(), room.RunFile), []byte(strconv.Itoa(dead)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Abandoned(r) {
		t.Fatal("Abandoned is false for an open room whose run lock names a dead process")
	}
	sess, err := Resume(context.Background(), s, "left-open")
	if err != nil {
		t.Fatalf("resume of an abandoned room: %v", err)
	}
	evs := collect(t, sess.Events())
	if last := evs[len(evs)-1]; last.Type != EventDone {
		t.Fatalf("the resumed debate ended with %+v", last)
	}
	data, err := os.ReadFile(filepath.Join(r.Dir(), "closed-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), ReasonFailed+ReasonAbandoned) || !strings.Contains(string(data), "process "+strconv.Itoa(dead)) {
		t.Errorf("closed-1.json does not say the run died:\n%s", data)
	}
	if h := room.RunHolder(r.Dir()); h.Live {
		t.Errorf("the run lock is still held after the debate ended: %+v", h)
	}
}

// TestCloseAbandonedLeavesALiveRun: a room whose run lock is held is not
// closed, however old.
func TestCloseAbandonedLeavesALiveRun(t *testing.T) {
	cwd := t.TempDir()
	cfg, _ := mockSettings(cwd).Config.Normalize()
	r, err := CreateRoom(cwd, "running", cfg)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	if Abandoned(r) {
		t.Error("Abandoned is true for a room whose run lock is held")
	}
	if err := CloseAbandoned(r); err != nil {
		t.Fatal(err)
	}
	if st, _ := r.State(); st.Closed != nil {
		t.Errorf("a running debate's room was closed: %+v", st.Closed)
	}
}

// deadPID is the pid of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// recordInto runs e into r through a recorder and returns its events.
func recordInto(t *testing.T, e *Engine, r *room.Room) []Event {
	t.Helper()
	rc := NewRecorder(r)
	evs := collect(t, Record(e.Run(context.Background()), rc))
	if rc.Err() != nil {
		t.Fatal(rc.Err())
	}
	return evs
}

func TestPositionOf(t *testing.T) {
	cfg, err := Config{Topic: "t", Personas: personasN(2), Rounds: 2}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	a, b := cfg.Personas[0].Name, cfg.Personas[1].Name
	post := func(r *room.Room, seat, kind string, round int, text string, u *room.Usage) {
		t.Helper()
		if _, err := r.Record(room.Post{Seat: seat, Kind: kind, Round: round, Text: text, Usage: u}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := CreateRoom(t.TempDir(), "p", cfg)
	if err != nil {
		t.Fatal(err)
	}
	post(r, a, KindTurn, 1, "a1", &room.Usage{PromptTokens: 1, CompletionTokens: 2})
	if _, err := r.AddNote(room.NoteFromUser, "think of the users", 1); err != nil {
		t.Fatal(err)
	}
	post(r, b, KindIncomplete, 1, "b1 cut", &room.Usage{PromptTokens: 3})
	post(r, b, KindTurn, 1, "b1", &room.Usage{PromptTokens: 4, CompletionTokens: 5, Cost: 0.25})
	post(r, a, KindIncomplete, 2, "a2 cut", nil)
	st, _ := r.State()
	pos, err := PositionOf(cfg, st)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, tr := range pos.Transcript {
		said = append(said, tr.Text)
	}
	if pos.Round != 2 || pos.Turn != 0 || strings.Join(said, "|") != "a1|think of the users|b1" || pos.Notes != 1 {
		t.Errorf("position %+v", pos)
	}
	if pos.Usage != (Usage{PromptTokens: 8, CompletionTokens: 7, Cost: 0.25}) {
		t.Errorf("usage %+v, want every message's, the cut ones' too", pos.Usage)
	}
	// Every round held: only the verdict is left.
	post(r, a, KindTurn, 2, "a2", nil)
	post(r, b, KindTurn, 2, "b2", nil)
	st, _ = r.State()
	if pos, err := PositionOf(cfg, st); err != nil || pos.Round != 3 || pos.Turn != 0 || len(pos.Transcript) != 5 {
		t.Errorf("position %+v, %v; want the verdict only", pos, err)
	}
	post(r, room.SeatModerator, room.KindSummary, 2, "verdict", nil)
	st, _ = r.State()
	if _, err := PositionOf(cfg, st); !errors.Is(err, ErrNotResumable) {
		t.Errorf("a room with a verdict: %v", err)
	}
	// Turns out of the panel's order.
	r2, _ := CreateRoom(t.TempDir(), "q", cfg)
	post(r2, b, KindTurn, 1, "b first", nil)
	st, _ = r2.State()
	if _, err := PositionOf(cfg, st); !errors.Is(err, ErrNotResumable) || !strings.Contains(err.Error(), a) {
		t.Errorf("turns out of order: %v", err)
	}
}

// TestResumeProperty: over many random debates failing on random turns,
// once or twice, resuming each time in the same room until the verdict:
// the room holds every persona's turn of every round exactly once, in
// speaking order, one incomplete message per failure, one verdict; and
// every turn spoken after a resume saw exactly the finished turns before
// it.
func TestResumeProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 14))
	for i := range 60 {
		n, rounds := 1+rng.IntN(4), 1+rng.IntN(3)
		cfg, err := Config{Topic: "Resume", Personas: personasN(n), Rounds: rounds, BlindOpening: rng.IntN(3) == 0}.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		r, err := CreateRoom(t.TempDir(), "d", cfg)
		if err != nil {
			t.Fatal(err)
		}
		total := n * rounds
		failures := 1 + rng.IntN(2)
		var fails []int // the turn (0-based over the debate) each run fails on
		for range failures {
			fails = append(fails, rng.IntN(total+1)) // total: the verdict fails
		}
		var pos *Position
		for run := 0; run <= len(fails); run++ {
			failTurn := -1
			if run < len(fails) {
				failTurn = fails[run]
			}
			sc := &script{
				reply: func(req Request) string {
					if req.Info.Purpose != PurposeTurn {
						return "**Decision:** go."
					}
					var texts []string
					for _, tr := range req.Info.Transcript {
						texts = append(texts, strings.Fields(tr.Text)[0])
					}
					// Each reply is unique and carries what it saw.
					return fmt.Sprintf("T%s-r%d-run%d", req.Info.Speaker.Name, req.Info.Round, run) + " saw " + strings.Join(texts, ",")
				},
				failAt: func(req Request, token int) error {
					idx := (req.Info.Round-1)*n + personaIndex(cfg, req.Info.Speaker.Name)
					switch {
					case req.Info.Purpose == PurposeTurn && idx == failTurn && token == 1:
						return errBoom
					case req.Info.Purpose == PurposeVerdict && failTurn == total && token == 1:
						return errBoom
					}
					return nil
				},
			}
			var e *Engine
			if pos == nil {
				e, err = New(cfg, sc)
			} else {
				e, err = NewFrom(cfg, sc, *pos)
			}
			if err != nil {
				t.Fatal(err)
			}
			evs := recordInto(t, e, r)
			last := evs[len(evs)-1]
			st, _ := r.State()
			if last.Type == EventDone {
				if st.Closed == nil || st.Closed.Reason != ReasonComplete {
					t.Fatalf("debate %d: done, closed %+v", i, st.Closed)
				}
				break
			}
			if st.Closed == nil || !strings.HasPrefix(st.Closed.Reason, ReasonFailed) {
				t.Fatalf("debate %d run %d: ended %+v, closed %+v", i, run, last, st.Closed)
			}
			if err := reopen(r); err != nil {
				t.Fatal(err)
			}
			st, _ = r.State()
			p, err := PositionOf(cfg, st)
			if err != nil {
				t.Fatalf("debate %d: %v", i, err)
			}
			pos = &p
		}
		st, _ := r.State()
		if st.Closed == nil || st.Closed.Reason != ReasonComplete {
			t.Fatalf("debate %d (fails %v): never completed: %+v", i, fails, st.Closed)
		}
		var turns []room.Message
		verdicts := 0
		for _, m := range st.Messages {
			switch m.Kind {
			case KindTurn:
				turns = append(turns, m)
			case room.KindSummary:
				verdicts++
			}
		}
		if len(turns) != total || verdicts != 1 {
			t.Fatalf("debate %d (fails %v): %d turns of %d, %d verdicts", i, fails, len(turns), total, verdicts)
		}
		var finished []string
		for k, m := range turns {
			wantSeat, wantRound := cfg.Personas[k%n].Name, k/n+1
			if m.Seat != wantSeat || m.Round != wantRound {
				t.Fatalf("debate %d: turn %d is %s/%d, want %s/%d", i, k, m.Seat, m.Round, wantSeat, wantRound)
			}
			// What it saw: the finished turns before it (all of them,
			// or, blind in round 1, none).
			_, got, _ := strings.Cut(m.Text, " saw ")
			want := strings.Join(finished, ",")
			if cfg.BlindOpening && m.Round == 1 {
				want = ""
			}
			if got != want {
				t.Fatalf("debate %d (fails %v): turn %d saw %q, want %q", i, fails, k, got, want)
			}
			finished = append(finished, strings.Fields(m.Text)[0])
		}
	}
}

func personaIndex(cfg Config, name string) int {
	for i, p := range cfg.Personas {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// TestResumeHeadlessMarkdown: the md output of a resumed debate is the
// whole debate, the turns said before the resume included, once each.
func TestResumeHeadlessMarkdown(t *testing.T) {
	cs := newCutServer(t, 2)
	cwd := t.TempDir()
	opts := HeadlessOptions{Settings: wireSettings(cwd, cs.URL), Format: FormatText}
	opts.Settings.Room = "md"
	var out, errOut strings.Builder
	if err := RunHeadless(context.Background(), opts, &out, &errOut); err == nil {
		t.Fatal("the cut debate did not fail")
	}
	opts.Format, opts.Resume = FormatMD, "md"
	out.Reset()
	if err := RunHeadless(context.Background(), opts, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	md := out.String()
	for _, want := range []string{"Reply 1.", "CUT partial", "*[incomplete:", "Reply 3.", "Reply 8.", "## Verdict"} {
		if !strings.Contains(md, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, md)
		}
	}
	if n := strings.Count(md, "Reply 1."); n != 1 {
		t.Errorf("Reply 1 is in the transcript %d times", n)
	}
	if n := strings.Count(md, "### Software Architect"); n != 3 {
		t.Errorf("Software Architect has %d turns in the transcript, want 3 (the cut one and two)", n)
	}
}

func TestMaxCostNeedsACost(t *testing.T) {
	s := mockSettings(t.TempDir())
	s.Config.MaxCost = 0.5
	if _, err := Prepare(s); !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "[prices.") {
		t.Errorf("--max-cost on the mock without prices: %v", err)
	}
	s.Config.Prices = PriceTable{"mock": {Prompt: 1}}
	if _, err := Prepare(s); err != nil {
		t.Errorf("with a price table: %v", err)
	}
	s.Config.Prices = nil
	s.Provider = ProviderConfig{Name: ProviderOpenRouter, APIKey: "k"}
	if _, err := Prepare(s); err != nil {
		t.Errorf("on OpenRouter, which reports costs: %v", err)
	}
}

// TestResumeRefusesASpentBudget: a debate that spent its budget before it
// failed is not resumed under the same budget; a larger one resumes it.
func TestResumeRefusesASpentBudget(t *testing.T) {
	cs := newCutServer(t, 3)
	cwd := t.TempDir()
	s := wireSettings(cwd, cs.URL)
	sess, err := Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	collect(t, sess.Events())
	s.Config.MaxTokensTotal = 150 // two replies of 102 tokens were spent
	if _, err := Resume(context.Background(), s, sess.Room().Config().Room); !errors.Is(err, ErrNotResumable) || !strings.Contains(err.Error(), "token budget of 150") {
		t.Fatalf("err %v", err)
	}
	s.Config.MaxTokensTotal = 1000
	again, err := Resume(context.Background(), s, sess.Room().Config().Room)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, again.Events())
	if last := evs[len(evs)-1]; last.Type != EventDone {
		t.Fatalf("ended %+v", last)
	}
}

// TestResumedWhilePausedNotesKeepTheirRound: a debate stopped while
// paused after round 1 and resumed is paused still; a note given then
// is round 1's, as in the run that paused (the resumed run's events once
// gave it round 0, and the screen drew "note to the panel · round 0"),
// and going on starts round 2.
func TestResumedWhilePausedNotesKeepTheirRound(t *testing.T) {
	s := mockSettings(t.TempDir())
	s.Config.Rounds, s.Config.PauseBetweenRounds = 2, true
	first, err := Start(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	for ev := range first.Events() {
		if ev.Type == EventPause {
			first.Stop()
		}
	}
	name := first.Room().Config().Room
	again, err := Resume(context.Background(), s, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := again.Interject("Weigh the on-call cost."); err != nil {
		t.Fatal(err)
	}
	var note, next *Event
	deadline := time.After(time.Minute)
	for note == nil || next == nil {
		select {
		case ev, ok := <-again.Events():
			if !ok {
				t.Fatalf("the resumed run ended before its note and round 2: note %+v, round %+v", note, next)
			}
			switch {
			case ev.Type == EventNote:
				note = &ev
				if !again.Continue() {
					t.Fatal("the resumed debate was not paused when its note came")
				}
			case ev.Type == EventRoundStart && note != nil:
				next = &ev
			}
		case <-deadline:
			t.Fatalf("no note and round 2 within a minute: note %+v", note)
		}
	}
	if note.Round != 1 || next.Round != 2 {
		t.Errorf("the note came as round %d's and then round %d started; want round 1's, then round 2", note.Round, next.Round)
	}
	var last Event
	for ev := range again.Events() {
		last = ev
		if ev.Type == EventPause {
			again.Continue() // after the last round too, before the verdict
		}
	}
	if last.Type != EventDone {
		t.Errorf("the resumed debate ended with %+v, not its verdict", last)
	}
}
