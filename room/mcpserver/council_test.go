package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// seedCouncil creates a council with roundtable seed, as a user does.
func seedCouncil(t *testing.T, cwd, name string, budget int, seats ...string) {
	t.Helper()
	out, errOut, code := hosttest.Run(t, "seed", "--room", name, "--topic", "Should the cache be write-through",
		"--budget", fmt.Sprint(budget), "--cwd", cwd, "--seats", strings.Join(seats, ","))
	if code != 0 {
		t.Fatalf("seed: exit %d: %s", code, errOut)
	}
	var res room.SeedResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Prompts) != len(seats) {
		t.Fatalf("seed printed %s (%v), want a prompt per seat", out, err)
	}
}

// connectSeat starts `roundtable --room name --seat seat` under the official
// SDK's client; err is the connect's failure.
func connectSeat(t *testing.T, cwd, name, seat string) (*hosttest.SDKSeat, error) {
	t.Helper()
	cmd := exec.Command(hosttest.Binary(), "--room", name, "--seat", seat, "--agent", seat+"-agent", "--cwd", cwd)
	cmd.Stderr = os.Stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "council-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = cs.Close() })
	return hosttest.NewSDKSeat(t, cs), nil
}

func councilSeat(t *testing.T, cwd, name, seat string) *hosttest.SDKSeat {
	t.Helper()
	s, err := connectSeat(t, cwd, name, seat)
	if err != nil {
		t.Fatalf("connect %s: %v", seat, err)
	}
	return s
}

func sdkSeqs(r hosttest.ToolResult) []int {
	msgs, _ := r.JSON["messages"].([]any)
	var out []int
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		f, _ := mm["seq"].(float64)
		out = append(out, int(f))
	}
	return out
}

func seatsOf(r hosttest.ToolResult) []string {
	msgs, _ := r.JSON["messages"].([]any)
	var out []string
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		s, _ := mm["seat"].(string)
		out = append(out, s)
	}
	return out
}

func strs(v any) []string {
	list, _ := v.([]any)
	out := []string{}
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// TestCouncilThreeSeats plays a three-seat council to closure through
// three SDK clients, one seat process each: the turn order, a pass, the
// budget and the close are the server's to enforce.
func TestCouncilThreeSeats(t *testing.T) {
	cwd := t.TempDir()
	seats := []string{"lead", "critic", "security"}
	seedCouncil(t, cwd, "trio", 2, seats...)
	lead := councilSeat(t, cwd, "trio", "lead")
	critic := councilSeat(t, cwd, "trio", "critic")
	security := councilSeat(t, cwd, "trio", "security")

	// A seat the council does not have cannot start, and is told why: at
	// once for a name the room lacks, and for the peer of a council
	// without one at the handshake (or, after a stateless discover, at its
	// first call).
	_, errOut, code := hosttest.Run(t, "--room", "trio", "--seat", "intruder", "--cwd", cwd)
	if code != 2 || !strings.Contains(errOut, `"intruder" is not a seat of room trio (its seats: lead, critic, security)`) {
		t.Fatalf("an intruder's seat: exit %d, %s", code, errOut)
	}
	peer, err := connectSeat(t, cwd, "trio", "peer")
	if err == nil {
		_, err = peer.Do("room_status", nil)
	}
	if err == nil || !strings.Contains(err.Error(), `"peer" is not a seat of room trio (its seats: lead, critic, security)`) {
		t.Fatalf("the peer of a council without one: %v", err)
	}
	if tools := critic.Tools(); slices.Contains(tools, "write_spec") || slices.Contains(tools, "close_room") {
		t.Fatalf("the critic lists the lead's tools: %q", tools)
	}
	for _, s := range []*hosttest.SDKSeat{lead, critic} {
		res, err := s.Session.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range res.Tools {
			if strings.Contains(tl.Description, "the peer") || strings.Contains(tl.Description, "the lead posts") {
				t.Fatalf("a council's %s says %q", tl.Name, tl.Description)
			}
			if tl.Name == "wait_for_message" && !strings.HasPrefix(tl.Description, "Block until it is your turn") {
				t.Fatalf("wait_for_message in a council: %q", tl.Description)
			}
		}
	}

	// Both listen before the lead speaks; the critic's turn comes first.
	criticWait := critic.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	securityWait := security.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	if r := critic.Call("post", map[string]any{"text": "me first"}); !r.IsError || !strings.Contains(r.Text, "It is the lead's turn") || !strings.Contains(r.Text, "lead, critic, security") {
		t.Fatalf("the critic out of turn: %s", r.Text)
	}
	lead.Call("post", map[string]any{"text": "Write-through, because reads dominate.", "kind": "brief"})
	leadWait := lead.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	woke := <-criticWait
	if !slices.Equal(sdkSeqs(woke), []int{1}) || woke.JSON["turn"] != "critic" || woke.JSON["your_turn"] != true {
		t.Fatalf("the critic woke with %s", short(woke.Text))
	}
	if !slices.Equal(strs(woke.JSON["seats"]), seats) || len(strs(woke.JSON["passed"])) != 0 {
		t.Fatalf("a council's status: seats %v passed %v", woke.JSON["seats"], woke.JSON["passed"])
	}
	if r := security.Call("post", map[string]any{"text": "not yet"}); !r.IsError || !strings.Contains(r.Text, "It is the critic's turn") {
		t.Fatalf("security out of turn: %s", r.Text)
	}
	critic.Call("post", map[string]any{"text": "Writes dominate at src/cache.ts:88.", "kind": "objection"})
	// Security slept through the lead's post: it wakes at its turn with
	// both messages since it last read.
	woke = <-securityWait
	if !slices.Equal(sdkSeqs(woke), []int{1, 2}) || woke.JSON["turn"] != "security" {
		t.Fatalf("security woke with %s", short(woke.Text))
	}
	if r := security.Call("post", map[string]any{"kind": "pass", "text": ""}); r.IsError || r.JSON["posted"] != float64(3) {
		t.Fatalf("security's pass: %s", r.Text)
	}
	woke = <-leadWait
	if !slices.Equal(sdkSeqs(woke), []int{2, 3}) || woke.JSON["your_turn"] != true || !slices.Equal(strs(woke.JSON["passed"]), []string{"security"}) {
		t.Fatalf("the lead woke with %s", short(woke.Text))
	}
	st := lead.Call("room_status", nil)
	holders, _ := st.JSON["holders"].([]any)
	if len(holders) != 3 || st.JSON["turn"] != "lead" || st.JSON["round"] != float64(1) {
		t.Fatalf("room_status: %s", st.Text)
	}
	for i, h := range holders {
		hm, _ := h.(map[string]any)
		if hm["seat"] != seats[i] || hm["agent"] != seats[i]+"-agent" || hm["state"] == room.StateAbsent {
			t.Fatalf("holder %d: %v", i, hm)
		}
	}

	// Round two, then the budget of two is spent.
	lead.Call("post", map[string]any{"text": "Then write-behind with a flush on commit.", "kind": "decision"})
	if r := critic.Call("wait_for_message", map[string]any{"timeout_seconds": 30}); !slices.Equal(sdkSeqs(r), []int{3, 4}) {
		t.Fatalf("the critic's second wake: %s", short(r.Text))
	}
	critic.Call("post", map[string]any{"text": "Agreed.", "kind": "concession"})
	if r := security.Call("wait_for_message", map[string]any{"timeout_seconds": 30}); !slices.Equal(sdkSeqs(r), []int{4, 5}) || len(strs(r.JSON["passed"])) != 0 {
		t.Fatalf("security's second wake: %s", short(r.Text))
	}
	security.Call("post", map[string]any{"text": "Flush on crash too.", "kind": "answer"})
	if r := lead.Call("wait_for_message", map[string]any{"timeout_seconds": 30}); !slices.Equal(sdkSeqs(r), []int{5, 6}) {
		t.Fatalf("the lead's second wake: %s", short(r.Text))
	}
	if r := lead.Call("post", map[string]any{"text": "a third round"}); !r.IsError || !strings.Contains(r.Text, "budget of 2 is spent") {
		t.Fatalf("the lead past the budget: %s", r.Text)
	}
	criticIdle := critic.Call("wait_for_message", map[string]any{"timeout_seconds": 1})
	if note, _ := criticIdle.JSON["note"].(string); criticIdle.JSON["idle"] != true || !strings.Contains(note, "lead is writing the spec") {
		t.Fatalf("the critic once the budget is spent: %s", short(criticIdle.Text))
	}
	if r := critic.Call("close_room", map[string]any{"reason": "mine"}); !r.IsError || !strings.Contains(r.Text, "Only the lead") {
		t.Fatalf("the critic closing: %s", r.Text)
	}

	criticClose := critic.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	securityClose := security.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	lead.Call("write_spec", map[string]any{"text": "# Decision\n\nWrite-behind.\n"})
	if r := lead.Call("close_room", map[string]any{"reason": "agreement reached"}); r.IsError {
		t.Fatalf("close: %s", r.Text)
	}
	for name, ch := range map[string]<-chan hosttest.ToolResult{"critic": criticClose, "security": securityClose} {
		if r := <-ch; r.JSON["closed"] != true {
			t.Fatalf("the %s's wait at the close: %s", name, short(r.Text))
		}
	}
	r, err := room.Open(cwd, "trio")
	if err != nil {
		t.Fatal(err)
	}
	final, err := r.State()
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, m := range final.Messages {
		order = append(order, m.Seat)
	}
	if want := []string{"lead", "critic", "security", "lead", "critic", "security"}; !slices.Equal(order, want) || final.Closed == nil || final.Messages[2].Kind != room.KindPass || final.Messages[2].Text != "" {
		t.Fatalf("the transcript: %q closed %v, message 3 %+v", order, final.Closed, final.Messages[2])
	}
}

// player plays one seat the way the prompts ask an agent to: wait, post at
// its turn (passing now and then), the lead writing the spec and closing
// once the budget is spent. It records each wake's messages and its posts.
type player struct {
	seat  string
	s     *hosttest.SDKSeat
	index int

	mu     sync.Mutex
	got    [][]int        // each wake's message seqs
	gotBy  [][]string     // and their seats
	posted []int          // seqs acknowledged
	texts  map[int]string // what each acknowledged post said
	err    error
}

func (p *player) fail(format string, args ...any) {
	p.mu.Lock()
	if p.err == nil {
		p.err = fmt.Errorf(p.seat+": "+format, args...)
	}
	p.mu.Unlock()
}

func (p *player) play(budget int, tag string) {
	if p.seat == room.SeatLead {
		r, err := p.s.Do("post", map[string]any{"text": "brief " + tag, "kind": "brief"})
		if err != nil || r.IsError {
			p.fail("brief: %v %s", err, r.Text)
			return
		}
		p.ack(r, "brief "+tag)
	}
	for n := 0; ; n++ {
		r, err := p.s.Do("wait_for_message", map[string]any{"timeout_seconds": 5})
		if err != nil {
			p.fail("%v", err)
			return
		}
		p.mu.Lock()
		if seqs := sdkSeqs(r); len(seqs) > 0 {
			p.got = append(p.got, seqs)
			p.gotBy = append(p.gotBy, seatsOf(r))
		}
		p.mu.Unlock()
		if r.JSON["closed"] == true {
			return
		}
		if r.JSON["your_turn"] != true {
			continue
		}
		round, _ := r.JSON["round"].(float64)
		if p.seat == room.SeatLead && int(round) >= budget {
			if w, err := p.s.Do("write_spec", map[string]any{"text": "# Spec " + tag + "\n"}); err != nil || w.IsError {
				p.fail("write_spec: %v %s", err, w.Text)
				return
			}
			if c, err := p.s.Do("close_room", map[string]any{"reason": "budget spent"}); err != nil || c.IsError {
				p.fail("close_room: %v %s", err, c.Text)
			}
			return
		}
		text := fmt.Sprintf("%s %s %d", p.seat, tag, n)
		args := map[string]any{"text": text}
		if p.seat != room.SeatLead && (int(round)+p.index)%3 == 0 {
			text = ""
			args = map[string]any{"text": "", "kind": room.KindPass}
		}
		r, err = p.s.Do("post", args)
		switch {
		case err != nil:
			p.fail("post: %v", err)
			return
		case r.IsError && strings.Contains(r.Text, "turn"):
			// Another process of this seat took the turn first.
		case r.IsError:
			p.fail("post refused: %s", r.Text)
			return
		default:
			p.ack(r, text)
		}
	}
}

func (p *player) ack(r hosttest.ToolResult, text string) {
	seq := int(r.JSON["posted"].(float64))
	p.mu.Lock()
	p.posted = append(p.posted, seq)
	if p.texts == nil {
		p.texts = map[int]string{}
	}
	p.texts[seq] = text
	p.mu.Unlock()
}

// playCouncil seeds a council and plays it to closure, one player per
// entry of procs (a seat named twice is played by two processes at once).
func playCouncil(t *testing.T, name string, budget int, seats, procs []string) ([]*player, room.State) {
	t.Helper()
	cwd := t.TempDir()
	seedCouncil(t, cwd, name, budget, seats...)
	var players []*player
	for _, seat := range procs {
		players = append(players, &player{seat: seat, s: councilSeat(t, cwd, name, seat), index: slices.Index(seats, seat)})
	}
	var wg sync.WaitGroup
	for i, p := range players {
		wg.Go(func() { p.play(budget, fmt.Sprint("p", i)) })
	}
	wg.Wait()
	for _, p := range players {
		if p.err != nil {
			t.Fatal(p.err)
		}
	}
	r, err := room.Open(cwd, name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if st.Closed == nil {
		t.Fatal("the council did not close")
	}
	if len(st.Messages) != budget*len(seats) {
		t.Fatalf("%d messages, want %d rounds of %d seats", len(st.Messages), budget, len(seats))
	}
	passes := 0
	for i, m := range st.Messages {
		if m.Seq != i+1 {
			t.Fatalf("position %d holds seq %d: a gap or a duplicate", i, m.Seq)
		}
		if want := seats[i%len(seats)]; m.Seat != want {
			t.Fatalf("message %d is the %s's, want the %s's: the turn order broke", m.Seq, m.Seat, want)
		}
		if m.Kind == room.KindPass {
			passes++
		}
	}
	if passes == 0 {
		t.Fatal("no seat passed")
	}
	acked := map[int]bool{}
	for _, p := range players {
		for _, seq := range p.posted {
			if acked[seq] {
				t.Fatalf("seq %d acknowledged twice", seq)
			}
			acked[seq] = true
			if st.Messages[seq-1].Seat != p.seat || st.Messages[seq-1].Text != p.texts[seq] {
				t.Fatalf("%s's acknowledged post %d %q; disk has %+v", p.seat, seq, p.texts[seq], st.Messages[seq-1])
			}
		}
	}
	if len(acked) != len(st.Messages) {
		t.Fatalf("%d posts acknowledged, %d on disk", len(acked), len(st.Messages))
	}
	return players, st
}

// TestCouncilFiveSeatsToClosure: five seat processes play a council to
// its close; each wakes only at its turn with every message since it last
// read, never its own.
func TestCouncilFiveSeatsToClosure(t *testing.T) {
	seats := []string{"lead", "critic", "security", "ops", "peer"}
	players, st := playCouncil(t, "five", 3, seats, seats)
	for _, p := range players {
		seen := map[int]bool{}
		for _, seq := range p.posted {
			seen[seq] = true
		}
		for w, batch := range p.got {
			by := p.gotBy[w]
			if slices.Contains(by, p.seat) {
				t.Fatalf("%s was handed its own message: %v", p.seat, by)
			}
			for _, seq := range batch {
				if seen[seq] {
					t.Fatalf("%s was handed message %d twice", p.seat, seq)
				}
				seen[seq] = true
			}
		}
		// Every message reached the seat, as its own or in a wake.
		if len(seen) != len(st.Messages) {
			t.Fatalf("%s saw %d of %d messages", p.seat, len(seen), len(st.Messages))
		}
	}
}

// TestCouncilRaceOneSeatTwoProcesses: two processes race in one seat of a
// five-seat council; the store lets one of them take each turn: no
// duplicate seq, the order unbroken, every acknowledged post on disk.
func TestCouncilRaceOneSeatTwoProcesses(t *testing.T) {
	seats := []string{"lead", "critic", "security", "ops", "peer"}
	procs := append(slices.Clone(seats), "security")
	players, _ := playCouncil(t, "race5", 12, seats, procs)
	n := 0
	for _, p := range players {
		if p.seat == "security" {
			n += len(p.posted)
		}
	}
	if n != 12 {
		t.Fatalf("the two security processes posted %d times, want 12 (one per round)", n)
	}
}

// TestOriginalTwoSeatRoomStillPlays: a room the original server wrote, left
// open at the peer's turn, opens and plays to its close, and its replies
// carry no council keys.
func TestOriginalTwoSeatRoomStillPlays(t *testing.T) {
	cwd := t.TempDir()
	if err := os.CopyFS(cwd, os.DirFS("../testdata/reference-rooms/open-room")); err != nil {
		t.Fatal(err)
	}
	peer := councilSeat(t, cwd, "open-room", "peer")
	lead := councilSeat(t, cwd, "open-room", "lead")
	st := peer.Call("room_status", nil)
	if st.JSON["turn"] != "peer" || st.JSON["your_turn"] != true || st.JSON["message_count"] != float64(3) {
		t.Fatalf("the reference room's status: %s", st.Text)
	}
	for _, k := range []string{"seats", "passed", "holders"} {
		if _, ok := st.JSON[k]; ok {
			t.Fatalf("a two-seat room's status has %q: %s", k, st.Text)
		}
	}
	// A new process of the lead is shown the peer's message it missed.
	if r := lead.Call("read_room", nil); !slices.Equal(sdkSeqs(r), []int{2}) {
		t.Fatalf("the lead's read_room: %s", short(r.Text))
	}
	leadWait := lead.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	if r := peer.Call("post", map[string]any{"text": "Measured: writes are 70 %.", "kind": "answer"}); r.IsError || r.JSON["posted"] != float64(4) {
		t.Fatalf("the peer's post: %s", r.Text)
	}
	if r := <-leadWait; !slices.Equal(sdkSeqs(r), []int{4}) {
		t.Fatalf("the lead's wake: %s", short(r.Text))
	}
	lead.Call("write_spec", map[string]any{"text": "# Decision\n"})
	peerClose := peer.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	lead.Call("close_room", map[string]any{"reason": "agreement reached"})
	if r := <-peerClose; r.JSON["closed"] != true {
		t.Fatalf("the peer at the close: %s", short(r.Text))
	}
	if _, err := os.Stat(filepath.Join(cwd, ".roundtable", "open-room", "closed.json")); err != nil {
		t.Fatal(err)
	}
}

// TestCouncilOverHost: roundtable host serves a council, each seat by its
// own token; the critic's token holds the critic's seat, with a council's
// tools and replies.
func TestCouncilOverHost(t *testing.T) {
	cwd := t.TempDir()
	seedCouncil(t, cwd, "hosted", 2, "lead", "critic", "security")
	r, err := room.Open(cwd, "hosted")
	if err != nil {
		t.Fatal(err)
	}
	toks, err := r.IssueTokens()
	if err != nil || len(toks) != 4 {
		t.Fatalf("tokens: %d, %v", len(toks), err)
	}
	h := hosttest.Start(t, "--room", "hosted", "--cwd", cwd)
	lead := hosttest.ConnectHTTP(t, h.URL, toks["lead"], hosttest.ProtoLegacy)
	critic := hosttest.ConnectHTTP(t, h.URL, toks["critic"], hosttest.ProtoModern)
	observer := hosttest.ConnectHTTP(t, h.URL, toks[room.GrantObserver], hosttest.ProtoLegacy)
	wait := critic.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	// An observer takes no turn: it wakes for every seat's message.
	watching := observer.CallAsync("wait_for_message", map[string]any{"timeout_seconds": 30})
	if r := lead.Call("post", map[string]any{"text": "The brief.", "kind": "brief"}); r.IsError {
		t.Fatalf("the lead over HTTP: %s", r.Text)
	}
	woke := <-wait
	if woke.JSON["you_are"] != "critic" || woke.JSON["your_turn"] != true || !slices.Equal(sdkSeqs(woke), []int{1}) || len(strs(woke.JSON["seats"])) != 3 {
		t.Fatalf("the critic over HTTP woke with %s", short(woke.Text))
	}
	if r := <-watching; !slices.Equal(sdkSeqs(r), []int{1}) || len(strs(r.JSON["seats"])) != 3 {
		t.Fatalf("the observer of a council woke with %s", short(r.Text))
	}
	if r := critic.Call("post", map[string]any{"kind": "pass"}); r.IsError || r.JSON["turn"] != "security" {
		t.Fatalf("the critic's pass over HTTP: %s", r.Text)
	}
	res, err := critic.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Name == "wait_for_message" && !strings.HasPrefix(tl.Description, "Block until it is your turn") {
			t.Fatalf("the critic's wait_for_message over HTTP: %q", tl.Description)
		}
	}
}
