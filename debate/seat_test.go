package debate

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

func TestParsePost(t *testing.T) {
	cases := []struct {
		seat, text, kind, body string
		close                  bool
	}{
		{"peer", "kind: objection\n\nThat breaks.", "objection", "That breaks.", false},
		{"peer", "**Kind:** Proposal\nTry X.", "proposal", "Try X.", false},
		{"peer", "kind: brief\nNot a peer kind.", "answer", "kind: brief\nNot a peer kind.", false},
		{"peer", "Just an answer.\nCLOSE", "answer", "Just an answer.\nCLOSE", false},
		{"lead", "kind: decision\n\nWe do X.\n\nCLOSE", "decision", "We do X.", true},
		{"lead", "kind: challenge\nWhy?", "challenge", "Why?", false},
		{"lead", "CLOSE", "brief", "", true},
		{"lead", "No kind line at all.", "brief", "No kind line at all.", false},
	}
	for _, c := range cases {
		kind, body, closeAfter := parsePost(c.seat, c.text)
		if kind != c.kind || body != c.body || closeAfter != c.close {
			t.Errorf("parsePost(%s, %q) = %q, %q, %v; want %q, %q, %v", c.seat, c.text, kind, body, closeAfter, c.kind, c.body, c.close)
		}
	}
}

// playBoth plays a room's two seats in this process, each with its own
// settings, and returns their errors.
func playBoth(t *testing.T, lead, peer SeatSettings) (leadErr, peerErr error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { peerErr = PlaySeat(ctx, peer) })
	wg.Go(func() { leadErr = PlaySeat(ctx, lead) })
	wg.Wait()
	return leadErr, peerErr
}

func mockSeatSettings(cwd, name, seat string) SeatSettings {
	return SeatSettings{Room: name, Seat: seat, Cwd: cwd, Provider: ProviderConfig{Name: ProviderMock}, Getenv: func(string) string { return "" }}
}

// TestPlaySeatMockRoom plays a whole room with two mock seats: every post
// is one message with a kind of its seat, the lead writes the spec when the
// budget is spent and closes, and server.log reads as two MCP seats did.
func TestPlaySeatMockRoom(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "both", room.CreateOptions{Topic: "Should we adopt GraphQL", Budget: 3}); err != nil {
		t.Fatal(err)
	}
	lead := mockSeatSettings(cwd, "both", room.SeatLead)
	lead.Persona = Persona{Name: "Architect", Persona: "weighs the cost of change over years"}
	leadErr, peerErr := playBoth(t, lead, mockSeatSettings(cwd, "both", room.SeatPeer))
	if leadErr != nil || peerErr != nil {
		t.Fatalf("lead: %v; peer: %v", leadErr, peerErr)
	}
	r, err := room.Open(cwd, "both")
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil || st.Closed.Reason != "budget spent" || len(st.Messages) != 6 {
		t.Fatalf("closed %+v after %d messages, want closed for the budget after 6", st.Closed, len(st.Messages))
	}
	for i, m := range st.Messages {
		wantSeat := []string{room.SeatLead, room.SeatPeer}[i%2]
		if m.Seat != wantSeat || m.Agent != "roundtable:mock" || !slices.Contains(room.KindsFor(m.Seat), m.Kind) || strings.HasPrefix(m.Text, "kind:") {
			t.Errorf("message %d: seat %s agent %s kind %s text %q", m.Seq, m.Seat, m.Agent, m.Kind, m.Text)
		}
	}
	if st.Messages[0].Kind != "brief" || !strings.Contains(st.Messages[0].Text, "Architect") {
		t.Errorf("the lead's first post is %s, not a brief in the persona's voice: %q", st.Messages[0].Kind, st.Messages[0].Text)
	}
	spec, err := os.ReadFile(r.SpecPath())
	if err != nil || !strings.Contains(string(spec), "## Decision") || !strings.Contains(string(spec), "## Dissent") {
		t.Fatalf("spec %q: %v", spec, err)
	}
	if ds, _ := r.Drafts(); len(ds) != 0 {
		t.Fatalf("drafts left behind: %+v", ds)
	}
	seats, err := room.ReadSeats(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats[:2] {
		if s.State != room.StateDisconnected || s.Agent != "roundtable:mock" || s.PID != os.Getpid() {
			t.Errorf("seat %+v", s)
		}
	}
	if seats[0].Last != "close_room" || seats[1].Last != room.WaitTool {
		t.Errorf("last tools: lead %s, peer %s", seats[0].Last, seats[1].Last)
	}
}

// snapshot lists every file under dir with its size, to show that a refusal
// wrote nothing.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, _ := d.Info()
		out = append(out, strings.TrimPrefix(p, dir)+" "+fi.ModTime().String()+" "+string(rune('0'+fi.Size()%10)))
		return nil
	})
	return out
}

func TestTakeSeatRefusals(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "open", room.CreateOptions{Topic: "T", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	closed, _, err := room.Create(cwd, "shut", room.CreateOptions{Topic: "T", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := closed.Close(room.CloseOptions{Reason: "done"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := room.Create(cwd, "panel", room.CreateOptions{Topic: "T", Mode: "debate", Rounds: 1}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, cwd)
	both := mockSeatSettings(cwd, "open", room.SeatPeer)
	both.Agent = "acp:codex"
	emptyAgent := mockSeatSettings(cwd, "open", room.SeatPeer)
	emptyAgent.Provider = ProviderConfig{}
	emptyAgent.Agent = "acp:"
	cases := []struct {
		name  string
		s     SeatSettings
		usage bool
		want  string
	}{
		{"both", both, true, "not both"},
		{"empty agent", emptyAgent, true, "acp:"},
		{"closed", mockSeatSettings(cwd, "shut", room.SeatPeer), true, "room shut is closed (done)"},
		{"bad seat", mockSeatSettings(cwd, "open", "moderator"), true, "moderator"},
		{"debate room", mockSeatSettings(cwd, "panel", room.SeatLead), true, "persona debate"},
		{"bad provider", SeatSettings{Room: "open", Seat: room.SeatPeer, Cwd: cwd, Provider: ProviderConfig{Name: "nope"}, Getenv: func(string) string { return "" }}, true, "unknown provider"},
		{"missing key", SeatSettings{Room: "open", Seat: room.SeatPeer, Cwd: cwd, Provider: ProviderConfig{Name: ProviderOpenAI}, Getenv: func(string) string { return "" }}, false, "OPENAI_API_KEY"},
		{"no room", mockSeatSettings(cwd, "absent", room.SeatPeer), false, "no room \"absent\""},
	}
	for _, c := range cases {
		g, err := TakeSeat(c.s)
		if err == nil {
			g.Close()
			t.Errorf("%s: the seat was taken", c.name)
			continue
		}
		if IsSeatUsage(err) != c.usage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (usage %v), want usage %v and %q", c.name, err, IsSeatUsage(err), c.usage, c.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: more than one line: %q", c.name, err)
		}
	}
	if after := snapshot(t, cwd); !slices.Equal(before, after) {
		t.Fatalf("a refusal wrote to the rooms:\nbefore %v\nafter  %v", before, after)
	}
}

// scriptedSeat is a provider that answers each request with the next reply,
// streamed in pieces, and records what it was asked and whether it was
// closed: the agent path of a seat is tested through it.
// refuseTurn, as a scripted reply, is an agent answering its prompt with
// an error before saying anything; what follows it in the reply is
// streamed before the error.
const refuseTurn = "\x00refuse"

type scriptedSeat struct {
	mu      sync.Mutex
	replies []string
	reqs    []Request
	closed  bool
	stall   bool
}

func (*scriptedSeat) Name() string  { return "acp" }
func (*scriptedSeat) Model() string { return "acp:scripted" }

func (p *scriptedSeat) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	p.mu.Lock()
	p.reqs = append(p.reqs, req)
	reply := "kind: answer\n\n(out of script)"
	if len(p.replies) > 0 {
		reply, p.replies = p.replies[0], p.replies[1:]
	}
	stall := p.stall
	p.mu.Unlock()
	if said, ok := strings.CutPrefix(reply, refuseTurn); ok {
		if said != "" {
			if err := onDelta(said); err != nil {
				return Usage{}, err
			}
		}
		return Usage{}, &turnRefusedError{msg: "the agent acp:scripted failed its turn: Internal error: Model stream ended with empty response text."}
	}
	for _, tok := range splitTokens(reply) {
		if err := onDelta(tok); err != nil {
			return Usage{}, err
		}
	}
	if stall {
		<-ctx.Done()
		return Usage{}, context.Cause(ctx)
	}
	return Usage{}, nil
}

func (p *scriptedSeat) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	return nil
}

// existingAgent is an --agent value naming a command that exists (this
// test binary), so that parsing it passes whether or not the agent
// provider checks the command when it parses it.
func existingAgent(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil || strings.ContainsAny(exe, " \t\"'") {
		t.Fatalf("test binary %q: %v", exe, err)
	}
	return "acp:" + exe
}

// useAgent makes --agent seats of this test use p.
func useAgent(t *testing.T, p *scriptedSeat) *AgentOptions {
	t.Helper()
	var got AgentOptions
	old := newSeatAgent
	newSeatAgent = func(spec AgentSpec, opts AgentOptions) (seatProvider, error) {
		if len(spec.Command) == 0 && spec.Preset == "" {
			return seatProvider{}, errors.New("no agent")
		}
		got = opts
		return seatProvider{Provider: p, close: p.Close}, nil
	}
	t.Cleanup(func() { newSeatAgent = old })
	return &got
}

// TestPlaySeatAgentPath plays the peer with an agent (through the seam the
// acp part's provider plugs into) against a mock lead that closes early.
func TestPlaySeatAgentPath(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "agent", room.CreateOptions{Topic: "Should the cache be write-through", Budget: 5}); err != nil {
		t.Fatal(err)
	}
	agent := &scriptedSeat{replies: []string{"kind: objection\n\nroom/store.go:120 says otherwise.", "kind: concession\n\nFair."}}
	opts := useAgent(t, agent)
	lead := &scriptedSeat{replies: []string{"kind: brief\n\nWrite-through, because reads dominate.", "kind: decision\n\nWe keep write-through.\nCLOSE", "# Spec\n\n## Decision\nWrite-through."}}
	peer := SeatSettings{Room: "agent", Seat: room.SeatPeer, Cwd: cwd, Agent: existingAgent(t) + " --flag", AgentTools: AllowWrite}
	leadS := SeatSettings{Room: "agent", Seat: room.SeatLead, Cwd: cwd, Provider: ProviderConfig{Name: ProviderMock}, Getenv: func(string) string { return "" }}
	// The lead is a model seat whose mind is scriptedSeat too: swap it in
	// after TakeSeat built the mock.
	g, err := TakeSeat(leadS)
	if err != nil {
		t.Fatal(err)
	}
	g.p = seatProvider{Provider: lead}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var peerErr error
	var wg sync.WaitGroup
	wg.Go(func() { peerErr = PlaySeat(ctx, peer) })
	leadErr := g.Play(ctx)
	g.Close()
	wg.Wait()
	if leadErr != nil || peerErr != nil {
		t.Fatalf("lead: %v; peer: %v", leadErr, peerErr)
	}
	if opts.Cwd != cwd || opts.Tools != AllowWrite {
		t.Errorf("agent options %+v", *opts)
	}
	if !agent.closed {
		t.Error("the agent was not closed when the seat stopped")
	}
	r, _ := room.Open(cwd, "agent")
	st, _ := r.Refresh()
	var got []string
	for _, m := range st.Messages {
		got = append(got, m.Seat+"/"+m.Kind+"/"+m.Agent+"/"+m.Text)
	}
	want := []string{
		"lead/brief/roundtable:mock/Write-through, because reads dominate.",
		"peer/objection/roundtable:acp:scripted/room/store.go:120 says otherwise.",
		"lead/decision/roundtable:mock/We keep write-through.",
		"peer/concession/roundtable:acp:scripted/Fair.",
	}
	if !slices.Equal(got, want) || st.Closed == nil || st.Closed.Reason != "agreement reached" {
		t.Fatalf("messages\n%q\nwant\n%q\nclosed %+v", got, want, st.Closed)
	}
	// The agent was asked with the seat prompt and the room so far.
	first := agent.reqs[0]
	if sys := first.Messages[0].Content; !strings.Contains(sys, "peer seat of roundtable room `agent`") || !strings.Contains(sys, "kind: objection") {
		t.Errorf("system prompt:\n%s", sys)
	}
	if u := first.Messages[1].Content; !strings.Contains(u, "Write-through, because reads dominate.") || first.Info.Purpose != PurposeSeatPeer {
		t.Errorf("user prompt (%s):\n%s", first.Info.Purpose, u)
	}
	if spec, _ := os.ReadFile(r.SpecPath()); string(spec) != "# Spec\n\n## Decision\nWrite-through.\n" {
		t.Errorf("spec %q", spec)
	}
	// The lead that converged wrote the spec after the peer's last word.
	if n := len(lead.reqs); n != 3 || lead.reqs[2].Info.Purpose != PurposeSeatSpec || !strings.Contains(lead.reqs[2].Messages[1].Content, "Fair.") {
		t.Errorf("the lead was asked %d times; the spec request did not see the peer's concession", n)
	}
}

// TestPlaySeatStallPostsNothing: a mind that goes quiet past the turn
// timeout ends the seat with an error naming the timeout; its partial text
// is not posted and its draft is cleared.
func TestPlaySeatStallPostsNothing(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "stall", room.CreateOptions{Topic: "T", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	p := &scriptedSeat{replies: []string{"kind: brief\n\nhalf a"}, stall: true}
	useAgent(t, p)
	err := PlaySeat(context.Background(), SeatSettings{Room: "stall", Seat: room.SeatLead, Cwd: cwd, Agent: existingAgent(t), TurnTimeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrTurnTimeout) || !strings.Contains(err.Error(), "nothing was posted") {
		t.Fatalf("err = %v, want a turn timeout that posted nothing", err)
	}
	r, _ := room.Open(cwd, "stall")
	st, _ := r.Refresh()
	ds, _ := r.Drafts()
	if len(st.Messages) != 0 || len(ds) != 0 || !p.closed {
		t.Fatalf("%d messages, drafts %+v, agent closed %v", len(st.Messages), ds, p.closed)
	}
}

// TestPlaySeatStops: cancelling a seat parked in its wait clears its
// draft, logs the disconnect and frees the seat.
func TestPlaySeatStops(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "stop", room.CreateOptions{Topic: "T", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- PlaySeat(ctx, mockSeatSettings(cwd, "stop", room.SeatPeer)) }()
	r, _ := room.Open(cwd, "stop")
	waitFor(t, func() bool {
		seats, _ := room.ReadSeats(r.Dir())
		return seats[1].State == room.StateParked
	})
	cancel()
	err := <-done
	var stopped *StoppedError
	if !errors.As(err, &stopped) || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "free again") {
		t.Fatalf("err = %v, want a StoppedError", err)
	}
	seats, _ := room.ReadSeats(r.Dir())
	if seats[1].State != room.StateDisconnected {
		t.Fatalf("peer %+v", seats[1])
	}
	l, err := r.LockSeat(room.SeatPeer)
	if err != nil {
		t.Fatalf("the seat is still held: %v", err)
	}
	_ = l.Unlock()
}

func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 20 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDrafterThrottles: a stream of many deltas writes the draft at most
// once per interval (plus the first and the last), and the last write holds
// the whole text.
func TestDrafterThrottles(t *testing.T) {
	var mu sync.Mutex
	var writes []string
	write := func(d room.Draft) error {
		mu.Lock()
		writes = append(writes, d.Text)
		mu.Unlock()
		return nil
	}
	const every = 40 * time.Millisecond
	w := newDrafter(write, room.Draft{Seat: room.SeatPeer}, every)
	start := time.Now()
	var text strings.Builder
	for i := range 2000 {
		text.WriteString("x")
		w.set(text.String())
		if i%100 == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	w.stop()
	elapsed := time.Since(start)
	mu.Lock()
	defer mu.Unlock()
	if limit := int(elapsed/every) + 2; len(writes) > limit || len(writes) < 2 {
		t.Fatalf("%d writes in %s, want 2 to %d", len(writes), elapsed, limit)
	}
	if last := writes[len(writes)-1]; len(last) != 2000 {
		t.Fatalf("last write holds %d characters, want 2000", len(last))
	}
}

// TestPlaySeatRoomDeleted: a room deleted under a parked seat ends the seat
// with an error naming the room, and nothing is written back into the
// folder being deleted.
func TestPlaySeatRoomDeleted(t *testing.T) {
	cwd := t.TempDir()
	if _, _, err := room.Create(cwd, "gone", room.CreateOptions{Topic: "T", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- PlaySeat(context.Background(), mockSeatSettings(cwd, "gone", room.SeatPeer)) }()
	dir := room.Dir(cwd, "gone")
	waitFor(t, func() bool {
		seats, _ := room.ReadSeats(dir)
		return seats[1].State == room.StateParked
	})
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, room.ErrNoRoom) || !strings.Contains(err.Error(), `"gone"`) {
			t.Fatalf("err = %v, want the room gone", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the seat did not notice its room was deleted")
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the seat wrote into the deleted room: %v", err)
	}
}

// TestPlaySeatAsksAgainAfterEmptyReplies: an empty reply (or one that is
// only the kind line), or an agent failing its turn before it said
// anything, is asked for again, saying so, and the answer that comes
// posts; three in a row post nothing and say so.
func TestPlaySeatAsksAgainAfterEmptyReplies(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []string
		posted  string
		wantErr string
		asked   int // "asking again" lines on the seat's stderr
	}{
		{"answer on the third try", []string{"", "kind: answer\n", "kind: answer\n\nThird time lucky."}, "Third time lucky.", "", 0},
		{"three empty replies", []string{"", " \n", "kind: objection"}, "", "empty reply 3 times in a row", 0},
		{"an agent failing twice, then answering", []string{refuseTurn, refuseTurn, "kind: answer\n\nAfter two failures."}, "After two failures.", "", 2},
		{"an agent failing after only blank lines, then answering", []string{refuseTurn + "\n \n", "kind: answer\n\nAfter blank lines."}, "After blank lines.", "", 1},
		{"an agent failing three times", []string{refuseTurn, "", refuseTurn}, "", "failed its turn: Internal error", 1},
		{"an agent failing after saying something", []string{refuseTurn + "kind: answer\n\nHalf"}, "", "failed its turn: Internal error", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cwd := t.TempDir()
			r, _, err := room.Create(cwd, "empty", room.CreateOptions{Topic: "Should the cache be write-through", Budget: 3})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := r.PostMessage(room.Post{Seat: room.SeatLead, Agent: "lead-agent", Text: "Write-through?"}); err != nil {
				t.Fatal(err)
			}
			agent := &scriptedSeat{replies: tc.replies}
			useAgent(t, agent)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var stderr strings.Builder
			g, err := TakeSeat(SeatSettings{Room: "empty", Seat: room.SeatPeer, Cwd: cwd, Agent: existingAgent(t), Stderr: &stderr})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- g.Play(ctx) }()
			deadline := time.Now().Add(10 * time.Second)
			var st room.State
			for time.Now().Before(deadline) {
				if st, err = r.Refresh(); err != nil {
					t.Fatal(err)
				}
				if len(st.Messages) == 2 || tc.wantErr != "" {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			if tc.wantErr != "" {
				err := <-done
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
			} else {
				cancel()
				<-done
			}
			g.Close()
			if n := strings.Count(stderr.String(), "before saying anything; asking again (try "); n != tc.asked {
				t.Errorf("%d asking-again lines, want %d:\n%s", n, tc.asked, stderr.String())
			}
			if tc.asked > 0 && !strings.Contains(stderr.String(), "roundtable: the agent acp:scripted failed its turn: Internal error: Model stream ended with empty response text before saying anything; asking again (try 2 of 3)\n") {
				t.Errorf("the asking-again line reads:\n%s", stderr.String())
			}
			if st, _ = r.Refresh(); tc.posted != "" && (len(st.Messages) != 2 || st.Messages[1].Text != tc.posted) {
				t.Fatalf("messages %+v, want the peer's %q", st.Messages, tc.posted)
			}
			if tc.posted == "" && len(st.Messages) != 1 {
				t.Fatalf("an empty reply was posted: %+v", st.Messages)
			}
			agent.mu.Lock()
			reqs := agent.reqs
			agent.mu.Unlock()
			if len(reqs) != len(tc.replies) {
				t.Fatalf("%d requests, want %d", len(reqs), len(tc.replies))
			}
			if strings.Contains(reqs[0].Info.Instruction, "empty") {
				t.Fatalf("the first instruction: %q", reqs[0].Info.Instruction)
			}
			for i, req := range reqs[1:] {
				if last := req.Messages[len(req.Messages)-1].Content; !strings.HasPrefix(req.Info.Instruction, "Your last reply was empty") ||
					!strings.Contains(last, "Your last reply was empty, so nothing was posted. Write your answer") {
					t.Fatalf("request %d: instruction %q, last message %q", i+2, req.Info.Instruction, last)
				}
			}
		})
	}
}

// TestSeatKeepsItsAgentSession: a seat played by an agent keeps the
// agent's session in its room, for that agent only, so the seat started
// again resumes it.
func TestSeatKeepsItsAgentSession(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := room.Create(cwd, "resume", room.CreateOptions{Topic: "Resume", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	opts := useAgent(t, &scriptedSeat{})
	g, err := TakeSeat(SeatSettings{Room: "resume", Seat: room.SeatPeer, Cwd: cwd, Agent: existingAgent(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if opts.Sessions == nil {
		t.Fatal("a seat played by an agent keeps no session")
	}
	if got := opts.Sessions.Session("peer"); got != "" {
		t.Fatalf("a fresh room holds session %q", got)
	}
	opts.Sessions.SaveSession("peer", "sess-42")
	spec, _ := ParseAgent(existingAgent(t))
	if got := r.SeatSession(room.SeatPeer, spec.Label()); got != "sess-42" {
		t.Errorf("the room keeps %q for the peer's agent, want sess-42", got)
	}
	if got := r.SeatSession(room.SeatPeer, "acp:another"); got != "" {
		t.Errorf("another agent would resume the peer's session %q", got)
	}
	if got := opts.Sessions.Session("peer"); got != "sess-42" {
		t.Errorf("the seat reads back %q", got)
	}
}

// TestLoneSeatSaysWhoItWaitsFor: a lead played alone posts its brief,
// then, the peer seat taken by nobody, says once what it waits for and
// the line that plays the peer (with the command as it runs, quoted for
// the shell); nothing of the kind while the peer is played.
func TestLoneSeatSaysWhoItWaitsFor(t *testing.T) {
	cwd := t.TempDir()
	lead := mockSeatSettings(cwd, "alone", room.SeatLead)
	lead.Topic, lead.Budget = "Queue in SQLite?", 2
	var said syncBuffer
	lead.Progress, lead.AloneAfter, lead.Exe = &said, 20*time.Millisecond, "/opt/round table/roundtable"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- PlaySeat(ctx, lead) }()
	want := "lead waits for the peer seat, which nobody has taken: play it with '/opt/round table/roundtable' seat --room alone --seat peer --provider mock --cwd " + seatcmd.Quote(cwd) + " (or another model or agent)"
	for !strings.Contains(said.String(), want) {
		select {
		case err := <-done:
			t.Fatalf("the seat stopped (%v) before saying it waits:\n%s", err, said.String())
		case <-ctx.Done():
			t.Fatalf("the seat never said it waits alone:\n%s", said.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !strings.HasPrefix(said.String(), "lead posted its brief in round 1 of 2 (") {
		t.Errorf("the brief was not said first:\n%s", said.String())
	}
	// The peer arrives: the room plays to its close, and the lone line
	// was said once.
	peer := mockSeatSettings(cwd, "alone", room.SeatPeer)
	var peerSaid syncBuffer
	peer.Progress, peer.AloneAfter = &peerSaid, 20*time.Millisecond
	if err := PlaySeat(ctx, peer); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(said.String(), "which nobody has taken"); n != 1 {
		t.Errorf("said %d times:\n%s", n, said.String())
	}
	if strings.Contains(peerSaid.String(), "nobody has taken") {
		t.Errorf("the peer, whose lead was played, said it waited alone:\n%s", peerSaid.String())
	}
}
