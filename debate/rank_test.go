package debate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func TestParseRanking(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		n     int
		want  []int
	}{
		{"plain", "Good points all round.\n\nFINAL RANKING: C, A, B", 3, []int{2, 0, 1}},
		{"bold", "**FINAL RANKING:** C, A, B", 3, []int{2, 0, 1}},
		{"code", "`FINAL RANKING: C, A, B`", 3, []int{2, 0, 1}},
		{"lowercase", "final ranking: c, a, b", 3, []int{2, 0, 1}},
		{"title case, dash", "Final Ranking - B, C, A", 3, []int{1, 2, 0}},
		{"response words", "FINAL RANKING: Response C, Response A, Response B", 3, []int{2, 0, 1}},
		{"response words, spaces", "FINAL RANKING: Response C Response A", 3, []int{2, 0}},
		{"numbered list below", "FINAL RANKING:\n1. Response C\n2. Response A\n3. Response B\n\nThanks.", 3, []int{2, 0, 1}},
		{"heading, blank line, list", "## Final ranking\n\n1. **C**\n2. *A*\n3. B", 3, []int{2, 0, 1}},
		{"arrows", "FINAL RANKING — C → A → B", 3, []int{2, 0, 1}},
		{"greater than", "FINAL RANKING: C > A > B", 3, []int{2, 0, 1}},
		{"spaces only", "FINAL RANKING: C A B", 3, []int{2, 0, 1}},
		{"numbered inline", "FINAL RANKING: 1. C 2. A 3. B", 3, []int{2, 0, 1}},
		{"duplicates dropped", "FINAL RANKING: C, C, A, C, B", 3, []int{2, 0, 1}},
		{"unknown letters dropped", "FINAL RANKING: D, C, Z, A", 3, []int{2, 0}},
		{"a letter missing", "FINAL RANKING: B", 3, []int{1}},
		{"commentary after a letter", "FINAL RANKING: C (strongest), A, B (weakest)", 3, []int{2, 0, 1}},
		{"commentary mid-chunk", "FINAL RANKING: C is clearly best, then A", 3, []int{2, 0}},
		{"the last line counts", "I must end with FINAL RANKING: A, B, C as asked.\n\nFINAL RANKING: B, C, A", 3, []int{1, 2, 0}},
		{"an empty last line falls back", "FINAL RANKING: B, A\n\nFINAL RANKING:", 2, []int{1, 0}},
		{"no marker", "I think C is best, then A.", 3, nil},
		{"marker alone", "FINAL RANKING:", 3, nil},
		{"none", "FINAL RANKING: none of them", 3, nil},
		{"empty", "", 3, nil},
		{"nothing to rank", "FINAL RANKING: A", 0, nil},
		{"foreign letters", "FINAL RANKING: Ç, 🙂, B", 3, []int{1}},
		{"invalid UTF-8", "FINAL RANKING: \xff\xfe C, \xc3 A", 3, []int{2, 0}},
		{"control characters", "FINAL RANKING: \x00C\x1b[31m, A", 3, []int{2, 0}},
		{"too many responses asked", "FINAL RANKING: Z, A", 40, []int{25, 0}},
		{"negative n", "FINAL RANKING: A", -3, nil},
		{"markers only", strings.Repeat("FINAL RANKING: ", 5000), 3, nil},
		{"a long list below stops", "FINAL RANKING:\n" + strings.Repeat("- B\n", 1000), 3, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ParseRanking(tt.reply, tt.n); !slices.Equal(got, tt.want) {
				t.Errorf("ParseRanking(%q, %d) = %v, want %v", tt.reply, tt.n, got, tt.want)
			}
		})
	}
}

// FuzzParseRanking: whatever the reply, the ranking names each response
// once at most, and only responses that were shown.
func FuzzParseRanking(f *testing.F) {
	for _, s := range []string{"FINAL RANKING: C, A, B", "final ranking:\n1. b\n2. a", "FINAL RANKING: \xff", ""} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, reply string, n int) {
		got := ParseRanking(reply, n)
		seen := map[int]bool{}
		for _, i := range got {
			if i < 0 || i >= min(n, maxRanked) || seen[i] {
				t.Fatalf("ParseRanking(%q, %d) = %v", reply, n, got)
			}
			seen[i] = true
		}
	})
}

func TestAggregateRankings(t *testing.T) {
	names := []string{"A", "B", "C", "D"}
	rankings := []Ranking{
		{Agent: "A", Order: []string{"C", "B", "D"}},
		{Agent: "B", Order: []string{"C", "A"}},
		{Agent: "C", Order: []string{"B", "Stranger", "A"}},
		{Agent: "D", Order: []string{}}, // nothing could be read
	}
	got := AggregateRankings(rankings, names)
	want := []RankStanding{
		{Name: "C", Mean: 1, Rankers: 2},
		{Name: "B", Mean: 1.5, Rankers: 2},
		{Name: "A", Mean: 2.5, Rankers: 2}, // 2 from B, 3 from C: the stranger holds a place
		{Name: "D", Mean: 3, Rankers: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AggregateRankings = %+v, want %+v", got, want)
	}
	got = AggregateRankings([]Ranking{{Agent: "A", Order: []string{"B"}}}, names)
	if got[0].Name != "B" || got[1].Name != "A" || got[1].Rankers != 0 || got[3].Name != "D" {
		t.Errorf("the unranked are not last, in speaking order: %+v", got)
	}
}

func TestRankTable(t *testing.T) {
	lines := RankTable([]Ranking{
		{Agent: "Product Manager", Order: []string{"Security Reviewer", "Software Architect"}},
		{Agent: "Software Architect", Order: []string{"Security Reviewer", "Product Manager"}},
	}, []string{"Product Manager", "Software Architect", "Security Reviewer"})
	want := []string{
		"1. Security Reviewer    1.0  2 rankers",
		"2. Product Manager      2.0  1 ranker",
		"3. Software Architect   2.0  1 ranker",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("RankTable:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// loggedProvider is a provider that keeps every request it is sent.
type loggedProvider struct {
	Provider
	mu   sync.Mutex
	reqs []Request
}

func (l *loggedProvider) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	l.mu.Lock()
	l.reqs = append(l.reqs, req)
	l.mu.Unlock()
	return l.Provider.Stream(ctx, req, onDelta)
}

// requests are the requests for purpose, in the order sent.
func (l *loggedProvider) requests(purpose Purpose) []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Request
	for _, r := range l.reqs {
		if r.Info.Purpose == purpose {
			out = append(out, r)
		}
	}
	return out
}

func ofType(evs []Event, typ EventType) []Event {
	var out []Event
	for _, ev := range evs {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

func TestEngineRanks(t *testing.T) {
	cfg := Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 2, Seed: 5, Rank: true}
	p := &loggedProvider{Provider: NewMock(0)}
	eng, err := New(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	if last := evs[len(evs)-1]; last.Type != EventDone {
		t.Fatalf("ended with %+v", last)
	}
	names := eng.Config().Names()

	// Every persona ranks, in speaking order, exactly the others.
	rankings := ofType(evs, EventRanking)
	if len(rankings) != len(names) {
		t.Fatalf("%d rankings, want one per persona: %+v", len(rankings), rankings)
	}
	for i, rk := range rankings {
		others := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == names[i] })
		got := slices.Sorted(slices.Values(rk.Ranking))
		if rk.Agent != names[i] || rk.Round != 2 || !slices.Equal(got, slices.Sorted(slices.Values(others))) {
			t.Errorf("ranking %d: %s in round %d ranks %q, want %s ranking %q in round 2", i, rk.Agent, rk.Round, rk.Ranking, names[i], others)
		}
		if !strings.Contains(rk.Text, "FINAL RANKING:") || rk.Usage == nil || rk.Usage.CompletionTokens == 0 || rk.Model != "mock" {
			t.Errorf("ranking %d: %+v", i, rk)
		}
	}

	// The last round_end, then the rankings, then the verdict.
	lastRoundEnd, firstRanking, lastRanking, firstVerdict := -1, -1, -1, -1
	for i, ev := range evs {
		switch {
		case ev.Type == EventRoundEnd:
			lastRoundEnd = i
		case ev.Type == EventRanking:
			if firstRanking < 0 {
				firstRanking = i
			}
			lastRanking = i
		case firstVerdict < 0 && (ev.Type == EventSummary || ev.Type == EventToken && ev.Agent == eng.Config().Moderator.Name):
			firstVerdict = i
		}
	}
	if lastRoundEnd >= firstRanking || lastRanking >= firstVerdict {
		t.Errorf("round_end at %d, rankings at %d-%d, verdict at %d: want them in that order", lastRoundEnd, firstRanking, lastRanking, firstVerdict)
	}

	// Each ranker was shown the others' final turns, unlabelled.
	reqs := p.requests(PurposeRank)
	if len(reqs) != len(names) {
		t.Fatalf("%d ranking requests", len(reqs))
	}
	for i, req := range reqs {
		user := req.Messages[len(req.Messages)-1].Content
		if req.Info.Speaker.Name != names[i] || len(req.Info.Ranked) != len(names)-1 {
			t.Errorf("request %d: %s ranks %d turns", i, req.Info.Speaker.Name, len(req.Info.Ranked))
		}
		for k, tr := range req.Info.Ranked {
			if tr.Agent != "" || tr.Round != 2 || !strings.Contains(user, ResponseLabel(k)) || !strings.Contains(user, strings.TrimSpace(tr.Text)) {
				t.Errorf("request %d: the turn shown as %s is %+v", i, ResponseLabel(k), tr)
			}
		}
		for _, n := range names {
			if strings.Contains(user, "### "+n) {
				t.Errorf("request %d labels a turn with its author %q:\n%s", i, n, user)
			}
		}
		if !strings.Contains(user, "FINAL RANKING: A, B") {
			t.Errorf("request %d does not ask for the FINAL RANKING line:\n%s", i, user)
		}
	}

	// The moderator reads the rankings, de-anonymised, and the aggregate.
	verdicts := p.requests(PurposeVerdict)
	if len(verdicts) != 1 {
		t.Fatalf("%d verdict requests", len(verdicts))
	}
	prompt := verdicts[0].Messages[len(verdicts[0].Messages)-1].Content
	want := []string{"Peer rankings", "Mean position"}
	for _, rk := range rankings {
		want = append(want, fmt.Sprintf("- %s ranked: %s", rk.Agent, strings.Join(rk.Ranking, ", ")))
	}
	for _, s := range AggregateRankings(verdicts[0].Info.Rankings, names) {
		want = append(want, fmt.Sprintf("- %s: %.1f (%d rankings)", s.Name, s.Mean, s.Rankers))
	}
	for _, w := range want {
		if !strings.Contains(prompt, w) {
			t.Errorf("the verdict prompt lacks %q:\n%s", w, prompt)
		}
	}

	// The same seed ranks the same.
	again, err := New(cfg, NewMock(0))
	if err != nil {
		t.Fatal(err)
	}
	if got := ofType(collect(t, again.Run(context.Background())), EventRanking); !reflect.DeepEqual(got, rankings) {
		t.Errorf("the same debate ranked differently:\n%+v\n%+v", got, rankings)
	}
}

func TestEngineWithoutRankDoesNotRank(t *testing.T) {
	p := &loggedProvider{Provider: NewMock(0)}
	eng, err := New(Config{Topic: "t", Personas: DefaultPersonas(), Rounds: 1}, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	if n := len(ofType(evs, EventRanking)); n != 0 || len(p.requests(PurposeRank)) != 0 {
		t.Errorf("%d rankings without Rank", n)
	}
	v := p.requests(PurposeVerdict)
	if len(v) != 1 || strings.Contains(v[0].Messages[1].Content, "Peer rankings") {
		t.Errorf("the verdict prompt of a debate without rankings: %+v", v)
	}
}

// rankScript answers a consensus check with CONSENSUS, a ranking with the
// letters given, and anything else as the script does.
func rankScript(ranking string) *script {
	return &script{reply: func(req Request) string {
		switch req.Info.Purpose {
		case PurposeConsensus:
			return "CONSENSUS\nAll agree."
		case PurposeRank:
			return "A note on each.\n\nFINAL RANKING: " + ranking
		case PurposeVerdict:
			return "**Decision:** do it."
		default:
			return fmt.Sprintf("%s speaks in round %d.", req.Info.Speaker.Name, req.Info.Round)
		}
	}}
}

func TestRankAfterConsensus(t *testing.T) {
	cfg := Config{Topic: "t", Personas: personasN(3), Rounds: 3, StopOnConsensus: true, Rank: true}
	eng, err := New(cfg, rankScript("B, A"))
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	rankings := ofType(evs, EventRanking)
	if len(rankings) != 3 {
		t.Fatalf("%d rankings after consensus in round 1, want 3", len(rankings))
	}
	for _, rk := range rankings {
		if rk.Round != 1 || len(rk.Ranking) != 2 {
			t.Errorf("ranking %+v", rk)
		}
	}
	if sum := ofType(evs, EventSummary); len(sum) != 1 || sum[0].Round != 1 {
		t.Errorf("summary %+v", sum)
	}
}

func TestNoRankAfterABudgetStop(t *testing.T) {
	cfg := Config{Topic: "t", Personas: personasN(3), Rounds: 2, MaxTokensTotal: 5, Rank: true}
	p := &loggedProvider{Provider: rankScript("A, B")}
	eng, err := New(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	if len(ofType(evs, EventBudget)) != 1 || evs[len(evs)-1].Type != EventDone {
		t.Fatalf("the budget did not stop the debate: %v", shape(evs))
	}
	if n := len(ofType(evs, EventRanking)); n != 0 || len(p.requests(PurposeRank)) != 0 {
		t.Errorf("%d rankings after a budget stop", n)
	}
}

func TestUnreadableRankingCountsAsNone(t *testing.T) {
	cfg := Config{Topic: "t", Personas: personasN(2), Rounds: 1, Rank: true}
	p := &loggedProvider{Provider: rankScript("I cannot choose")}
	eng, err := New(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	rankings := ofType(evs, EventRanking)
	if len(rankings) != 2 || rankings[0].Ranking == nil || len(rankings[0].Ranking) != 0 {
		t.Fatalf("rankings %+v, want two empty ones", rankings)
	}
	prompt := p.requests(PurposeVerdict)[0].Messages[1].Content
	if !strings.Contains(prompt, cfg.Personas[0].Name+" gave no ranking that could be read") || !strings.Contains(prompt, ": not ranked") {
		t.Errorf("the verdict prompt:\n%s", prompt)
	}
}

func TestRankFailureEndsTheDebateNamingTheRanker(t *testing.T) {
	cfg := Config{Topic: "t", Personas: personasN(3), Rounds: 1, Rank: true}
	second := personasN(3)[1].Name
	s := rankScript("B, A")
	s.failAt = func(req Request, tok int) error {
		if req.Info.Purpose == PurposeRank && req.Info.Speaker.Name == second && tok == 2 {
			return fmt.Errorf("HTTP 500: %w", errBoom)
		}
		return nil
	}
	eng, err := New(cfg, s)
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, eng.Run(context.Background()))
	checkInvariants(t, evs, eng.Config())
	last, ok := errorEvent(evs)
	if !ok || last.Agent != second || last.Round != 1 || !errors.Is(last.Err, errBoom) {
		t.Fatalf("ended with %+v, want %s's failure", last, second)
	}
	if rankings := ofType(evs, EventRanking); len(rankings) != 1 {
		t.Errorf("rankings before the failure: %+v", rankings)
	}
}

func TestBallotShufflesBySeedAndRanker(t *testing.T) {
	cfg := Config{Personas: personasN(5)}
	var transcript []Turn
	for _, p := range cfg.Personas {
		transcript = append(transcript, Turn{Round: 1, Agent: p.Name, Text: p.Name + " 1"}, Turn{Round: 2, Agent: p.Name, Text: p.Name + " 2"})
	}
	transcript = append(transcript, NoteTurn(2, "a note"), Turn{Round: 3, Agent: cfg.Personas[3].Name, Text: "cut", Incomplete: true})
	firsts := map[string]bool{}
	for seed := int64(1); seed <= 30; seed++ {
		cfg.Seed = seed
		for ranker := range cfg.Personas {
			b := newBallot(cfg, ranker, transcript)
			if !reflect.DeepEqual(b, newBallot(cfg, ranker, transcript)) {
				t.Fatal("the same seed and ranker shuffled differently")
			}
			if len(b.names) != 4 || slices.Contains(b.names, cfg.Personas[ranker].Name) {
				t.Fatalf("ranker %d is shown %q", ranker, b.names)
			}
			for i, n := range b.names {
				if b.turns[i].Text != n+" 2" || b.turns[i].Agent != "" {
					t.Fatalf("%s's final turn is shown as %+v", n, b.turns[i])
				}
			}
			if ranker == 0 {
				firsts[b.names[0]] = true
			}
		}
	}
	if len(firsts) < 3 {
		t.Errorf("over 30 seeds, Response A was always one of %v", firsts)
	}
}

func TestRankingsReadBackFromTheRoom(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 1, Seed: 9, Rank: true}
	run, r := runRecorded(t, dir, "ranked", cfg, NewMock(0))
	if r.Config().Rank != true {
		t.Errorf("room.json does not say the debate ranks: %+v", r.Config())
	}
	if back, ok := ConfigFromRoom(r.Config()); !ok || !back.Rank {
		t.Errorf("ConfigFromRoom lost Rank: %+v", back)
	}
	st, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	var msgs []room.Message
	for _, m := range st.Messages {
		if m.Kind == room.KindRanking {
			msgs = append(msgs, m)
		}
	}
	live := ofType(run, EventRanking)
	if len(msgs) != 3 || len(live) != 3 {
		t.Fatalf("%d ranking messages, %d live rankings", len(msgs), len(live))
	}
	for i, m := range msgs {
		if m.Seat != live[i].Agent || m.Round != 1 || m.Text != live[i].Text || !slices.Equal(m.Ranking, live[i].Ranking) {
			t.Errorf("message %+v, want the ranking %+v", m, live[i])
		}
	}
	replay := ReadStore(r.Config(), st, nil)
	if want, got := shape(run), shape(replay); !slices.Equal(want, got) {
		t.Fatalf("the replay differs from the run:\nrun:    %q\nreplay: %q", want, got)
	}
	back := ofType(replay, EventRanking)
	for i := range back {
		if back[i].Seq != msgs[i].Seq {
			t.Errorf("ranking %d read back as message %d, is %d", i, back[i].Seq, msgs[i].Seq)
		}
		back[i].Seq = 0
	}
	if !reflect.DeepEqual(back, live) {
		t.Errorf("the rankings read back:\n%+v\nthe live ones:\n%+v", back, live)
	}
	if last := replay[len(replay)-1]; last.Usage == nil || *last.Usage != *run[len(run)-1].Usage {
		t.Errorf("the replay's total %+v, the run's %+v", last.Usage, run[len(run)-1].Usage)
	}
}

func TestRoomRankingsAreKeptToThePanel(t *testing.T) {
	cfg, err := Config{Topic: "t", Personas: personasN(3), Rounds: 1, Rank: true}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	r, err := CreateRoom(t.TempDir(), "hostile", cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := cfg.Names()
	for _, name := range n {
		if _, err := r.Record(room.Post{Seat: name, Kind: KindTurn, Round: 1, Text: name}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Record(room.Post{Seat: n[0], Kind: room.KindRanking, Round: 1, Text: "x", Ranking: []string{n[0], "Mallory", n[2], n[2], n[1]}}); err != nil {
		t.Fatal(err)
	}
	st, _ := r.State()
	rks := ofType(ReadStore(r.Config(), st, nil), EventRanking)
	if len(rks) != 1 || !slices.Equal(rks[0].Ranking, []string{n[2], n[1]}) {
		t.Errorf("read back %+v, want only the others, once each", rks)
	}
}

func TestResumeWhileRanking(t *testing.T) {
	// Stopped on consensus after round 1 of 3, while ranking: the first
	// persona had ranked.
	cfg, err := Config{Topic: "t", Personas: personasN(3), Rounds: 3, Rank: true}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	n := cfg.Names()
	r, err := CreateRoom(t.TempDir(), "resume", cfg)
	if err != nil {
		t.Fatal(err)
	}
	post := func(p room.Post) {
		t.Helper()
		if _, err := r.Record(p); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range n {
		post(room.Post{Seat: name, Kind: KindTurn, Round: 1, Text: name + " speaks."})
	}
	post(room.Post{Seat: n[0], Kind: room.KindRanking, Round: 1, Text: "FINAL RANKING: B, A", Ranking: []string{n[2], n[1]}, Usage: &room.Usage{PromptTokens: 7}})
	if _, err := r.Close(room.CloseOptions{Reason: ReasonCancelled}); err != nil {
		t.Fatal(err)
	}
	st, _ := r.State()
	pos, err := PositionOf(cfg, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(pos.Rankings) != 1 || pos.Rankings[0].Agent != n[0] || !slices.Equal(pos.Rankings[0].Order, []string{n[2], n[1]}) || pos.Usage.PromptTokens != 7 {
		t.Fatalf("position %+v", pos)
	}
	if err := reopen(r); err != nil {
		t.Fatal(err)
	}
	p := &loggedProvider{Provider: rankScript("A, B")}
	eng, err := NewFrom(cfg, p, pos)
	if err != nil {
		t.Fatal(err)
	}
	evs := recordInto(t, eng, r)
	if len(ofType(evs, EventRoundStart)) != 0 || len(ofType(evs, EventTurnStart)) != 0 {
		t.Errorf("the rounds were held again: %v", shape(evs))
	}
	rankings := ofType(evs, EventRanking)
	if len(rankings) != 2 || rankings[0].Agent != n[1] || rankings[1].Agent != n[2] || rankings[0].Round != 1 {
		t.Fatalf("rankings after the resume: %+v, want %s's and %s's", rankings, n[1], n[2])
	}
	prompt := p.requests(PurposeVerdict)[0].Messages[1].Content
	if !strings.Contains(prompt, "- "+n[0]+" ranked: "+n[2]+", "+n[1]) || !strings.Contains(prompt, "- "+n[1]+" ranked:") {
		t.Errorf("the verdict prompt lacks a ranking:\n%s", prompt)
	}
	st, _ = r.State()
	var kinds []string
	for _, m := range st.Messages {
		kinds = append(kinds, m.Kind)
	}
	if want := "turn turn turn ranking ranking ranking summary"; strings.Join(kinds, " ") != want {
		t.Errorf("the room holds %q, want %q", kinds, want)
	}
	if st.Closed == nil || st.Closed.Reason != ReasonComplete {
		t.Errorf("closed %+v", st.Closed)
	}

	// A turn after the rankings, or a ranking mid-round, cannot be resumed.
	r2, _ := CreateRoom(t.TempDir(), "odd", cfg)
	if _, err := r2.Record(room.Post{Seat: n[0], Kind: KindTurn, Round: 1, Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r2.Record(room.Post{Seat: n[0], Kind: room.KindRanking, Round: 1, Text: "x"}); err != nil {
		t.Fatal(err)
	}
	st, _ = r2.State()
	if _, err := PositionOf(cfg, st); !errors.Is(err, ErrNotResumable) {
		t.Errorf("a ranking mid-round: %v", err)
	}
}

func TestHeadlessShowsTheRankingsBeforeTheVerdict(t *testing.T) {
	for _, tt := range []struct {
		format string
		want   []string // in this order
	}{
		{FormatText, []string{"━━━ Peer ranking ━━━", "Product Manager ranks: ", RankTableHeader, "  1. ", "  3. ", "━━━ Moderator's verdict ━━━"}},
		{FormatMD, []string{"## Peer ranking", "- Product Manager: ", "| Persona | Mean position | Rankers |", "## Verdict"}},
	} {
		t.Run(tt.format, func(t *testing.T) {
			opts := headlessOpts(t.TempDir(), tt.format)
			opts.Settings.Config.Rank = true
			var out, errOut bytes.Buffer
			if err := RunHeadless(context.Background(), opts, &out, &errOut); err != nil {
				t.Fatalf("%v\n%s", err, errOut.String())
			}
			text, at := out.String(), 0
			for _, w := range tt.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("%q is missing after byte %d of:\n%s", w, at, text)
				}
				at += i + len(w)
			}
		})
	}
}

// TestAgentRankPrompts: a persona spoken by a coding agent is sent the
// ranking request whole, its instructions the first time, with the turns
// unlabelled; the moderator's agent reads the rankings with the verdict.
func TestAgentRankPrompts(t *testing.T) {
	ps := personasN(3)
	tr := []Turn{{Round: 1, Agent: ps[0].Name, Text: "ALPHA-1"}, {Round: 1, Agent: ps[1].Name, Text: "BETA-1"}, {Round: 1, Agent: ps[2].Name, Text: "GAMMA-1"}}
	a := &agentProc{sent: map[Purpose]bool{}, client: newAgentClient(0, "")}
	turn := TurnInfo{Purpose: PurposeTurn, Topic: "T", Speaker: ps[0], Personas: ps, Round: 1, Rounds: 1, Transcript: tr[:0]}
	_ = a.promptFor(Request{Messages: turnMessages(turn), Info: turn})
	rank := TurnInfo{
		Purpose: PurposeRank, Topic: "T", Speaker: ps[0], Personas: ps, Round: 1, Rounds: 1, Transcript: tr,
		Ranked: []Turn{{Round: 1, Text: "GAMMA-1"}, {Round: 1, Text: "BETA-1"}},
	}
	got := a.promptFor(Request{Messages: rankMessages(rank), Info: rank})
	for _, want := range []string{"Response A", "GAMMA-1", "Response B", "BETA-1", "FINAL RANKING: A, B", "fair judge"} {
		if !strings.Contains(got, want) {
			t.Errorf("the ranking prompt lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, ps[1].Name) || strings.Contains(got, ps[2].Name) {
		t.Errorf("the ranking prompt names who wrote what:\n%s", got)
	}

	m := &agentProc{sent: map[Purpose]bool{}, client: newAgentClient(0, "")}
	cons := TurnInfo{Purpose: PurposeConsensus, Topic: "T", Speaker: DefaultModerator(), Personas: ps, Round: 1, Rounds: 1, Transcript: tr}
	_ = m.promptFor(Request{Messages: consensusMessages(cons), Info: cons})
	verdict := cons
	verdict.Purpose = PurposeVerdict
	verdict.Rankings = []Ranking{{Agent: ps[0].Name, Order: []string{ps[2].Name, ps[1].Name}}}
	got = m.promptFor(Request{Messages: verdictMessages(verdict), Info: verdict})
	if !strings.Contains(got, "Peer rankings") || !strings.Contains(got, "- "+ps[0].Name+" ranked: "+ps[2].Name+", "+ps[1].Name) {
		t.Errorf("the verdict follow-up lacks the rankings:\n%s", got)
	}
}

// TestHeadlessResumeCountsEarlierRankings: a debate stopped while ranking,
// resumed headless, shows the table of every ranking, the earlier ones
// too.
func TestHeadlessResumeCountsEarlierRankings(t *testing.T) {
	for _, format := range []string{FormatText, FormatMD} {
		t.Run(format, func(t *testing.T) {
			cwd := t.TempDir()
			cfg, err := Config{Topic: "Should we adopt GraphQL", Personas: DefaultPersonas(), Rounds: 1, Rank: true}.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			n := cfg.Names()
			r, err := CreateRoom(cwd, "stopped", cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range n {
				if _, err := r.Record(room.Post{Seat: name, Kind: KindTurn, Round: 1, Text: name + " speaks."}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := r.Record(room.Post{Seat: n[0], Kind: room.KindRanking, Round: 1, Text: "FINAL RANKING: A, B", Ranking: []string{n[1], n[2]}}); err != nil {
				t.Fatal(err)
			}
			if _, err := r.Close(room.CloseOptions{Reason: ReasonCancelled}); err != nil {
				t.Fatal(err)
			}
			opts := headlessOpts(cwd, format)
			opts.Resume = "stopped"
			var out, errOut bytes.Buffer
			if err := RunHeadless(context.Background(), opts, &out, &errOut); err != nil {
				t.Fatalf("%v\n%s", err, errOut.String())
			}
			text := out.String()
			switch format {
			case FormatText:
				if c := strings.Count(text, "2 rankers"); c != 3 || strings.Contains(text, n[0]+" ranks:") {
					t.Errorf("the table does not count the ranking given before the resume (%d rows of 2 rankers):\n%s", c, text)
				}
			case FormatMD:
				if !strings.Contains(text, "- "+n[0]+": "+n[1]+", "+n[2]) || !strings.Contains(text, "- "+n[2]+": ") {
					t.Errorf("the transcript lacks a ranking:\n%s", text)
				}
			}
		})
	}
}
