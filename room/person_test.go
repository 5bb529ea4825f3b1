package room

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

func newPersonRoom(t *testing.T, name string) *Room {
	t.Helper()
	r, _, err := Create(t.TempDir(), name, CreateOptions{Topic: "People at the table", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func personSeat(t *testing.T, r *Room, seat string) SeatInfo {
	t.Helper()
	seats, err := ReadSeats(r.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		if s.Seat == seat {
			return s
		}
	}
	t.Fatalf("no %s in %+v", seat, seats)
	return SeatInfo{}
}

func TestPersonTakesLogsAndReleasesTheSeat(t *testing.T) {
	r := newPersonRoom(t, "taken")
	p, err := r.TakeSeatAsPerson(SeatPeer)
	if err != nil {
		t.Fatal(err)
	}
	si := personSeat(t, r, SeatPeer)
	if si.Agent != PersonAgent || si.State != StateAtKeyboard || si.PID != os.Getpid() {
		t.Fatalf("after the take server.log says %+v, want agent person at the keyboard, pid %d", si, os.Getpid())
	}

	// A second person is refused, naming the first.
	_, err = r.TakeSeatAsPerson(SeatPeer)
	var taken *SeatTakenError
	if !errors.As(err, &taken) || taken.Agent != PersonAgent {
		t.Fatalf("second person: %v, want a SeatTakenError naming the person", err)
	}
	want := "the peer seat of room taken is already played by a person at the keyboard (roundtable watch --take, pid " + strconv.Itoa(os.Getpid()) + "); stop it first"
	if err.Error() != want {
		t.Fatalf("refusal\n %q\nwant\n %q", err, want)
	}
	// So is a roundtable seat, which takes the same lock.
	if _, err := r.LockSeat(SeatPeer); err == nil || !strings.Contains(err.Error(), "a person at the keyboard") {
		t.Fatalf("roundtable seat's lock under a person: %v, want a refusal naming the person", err)
	}
	// The other seat is free.
	lead, err := r.TakeSeatAsPerson(SeatLead)
	if err != nil {
		t.Fatalf("the lead seat is free but: %v", err)
	}

	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	if err := p.Release(); err != nil {
		t.Fatalf("second release: %v", err)
	}
	if si := personSeat(t, r, SeatPeer); si.State != StateDisconnected {
		t.Fatalf("after the release the peer is %q, want disconnected", si.State)
	}
	if _, _, err := p.Post("", "too late"); !errors.Is(err, ErrBadSeat) {
		t.Fatalf("post after the release: %v, want a refusal", err)
	}
	again, err := r.TakeSeatAsPerson(SeatPeer)
	if err != nil {
		t.Fatalf("the peer seat after the release: %v", err)
	}
	_ = again.Release()
	_ = lead.Release()
	data, _ := os.ReadFile(r.Dir() + "/" + LogFile)
	if n := strings.Count(string(data), " connect seat=peer agent=person pid="); n != 2 {
		t.Fatalf("%d person connect lines for the peer, want 2:\n%s", n, data)
	}
	if n := strings.Count(string(data), " disconnect seat=peer pid="); n != 2 {
		t.Fatalf("%d disconnect lines for the peer, want 2:\n%s", n, data)
	}
}

func TestPersonRefusedWhileAnMCPAgentIsConnected(t *testing.T) {
	r := newPersonRoom(t, "mcp-held")
	// The parent of the test binary runs for as long as the test does.
	live := os.Getppid()
	if err := AppendLog(r.Dir(), time.Now(), EventConnect, F("seat", SeatPeer), F("agent", "claude-code"), F("pid", live)); err != nil {
		t.Fatal(err)
	}
	_, err := r.TakeSeatAsPerson(SeatPeer)
	var taken *SeatTakenError
	if !errors.As(err, &taken) || taken.PID != live {
		t.Fatalf("take under a connected MCP agent: %v, want a SeatTakenError", err)
	}
	if want := "already played by an agent over MCP (claude-code, pid " + strconv.Itoa(live) + "); stop it first"; !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("refusal %q does not end %q", err, want)
	}
	// The refusal left the lock free and wrote nothing.
	l, err := r.LockSeat(SeatPeer)
	if err != nil {
		t.Fatalf("the refused take kept the lock: %v", err)
	}
	_ = l.Unlock()
	if si := personSeat(t, r, SeatPeer); si.Agent != "claude-code" {
		t.Fatalf("the refused take logged: %+v", si)
	}

	// Once the agent disconnects the seat is free.
	if err := AppendLog(r.Dir(), time.Now(), EventDisconnect, F("seat", SeatPeer), F("pid", live)); err != nil {
		t.Fatal(err)
	}
	p, err := r.TakeSeatAsPerson(SeatPeer)
	if err != nil {
		t.Fatalf("after the agent's disconnect: %v", err)
	}
	_ = p.Release()
}

func TestPersonTakesASeatWhoseServerDiedWithoutALine(t *testing.T) {
	r := newPersonRoom(t, "stale")
	c := exec.Command(os.Args[0], "-test.run=^$")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	dead := c.Process.Pid
	if err := AppendLog(r.Dir(), time.Now(), EventConnect, F("seat", SeatLead), F("agent", "codex"), F("pid", dead)); err != nil {
		t.Fatal(err)
	}
	p, err := r.TakeSeatAsPerson(SeatLead)
	if err != nil {
		t.Fatalf("a connect line of a dead process still holds the seat: %v", err)
	}
	_ = p.Release()
}

func TestPersonPostsUnderTheSeatRules(t *testing.T) {
	r := newPersonRoom(t, "rules")
	lead, err := r.TakeSeatAsPerson(SeatLead)
	if err != nil {
		t.Fatal(err)
	}
	defer lead.Release()
	peer, err := r.TakeSeatAsPerson(SeatPeer)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Release()

	if _, _, err := peer.Post("", "me first"); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("the peer before the brief: %v, want not your turn", err)
	}
	if err := peer.Draft("thinking about it", time.Now()); err != nil {
		t.Fatal(err)
	}
	if ds, _ := r.Drafts(); len(ds) != 1 || ds[0].Seat != SeatPeer || ds[0].Agent != PersonAgent || ds[0].Text != "thinking about it" {
		t.Fatalf("drafts %+v, want the peer's", ds)
	}
	if _, _, err := lead.Post("", "The brief."); err != nil {
		t.Fatal(err)
	}
	m, st, err := peer.Post("objection", "No.")
	if err != nil {
		t.Fatal(err)
	}
	if m.Agent != PersonAgent || m.Kind != "objection" || m.Seat != SeatPeer || st.Turn != SeatLead {
		t.Fatalf("posted %+v, turn %s", m, st.Turn)
	}
	if ds, _ := r.Drafts(); len(ds) != 0 {
		t.Fatalf("the post left drafts %+v", ds)
	}
	if _, _, err := peer.Post("two\nlines", "x"); !errors.Is(err, ErrBadKind) {
		t.Fatalf("bad kind: %v", err)
	}
	if _, _, err := lead.Post("", "Round two."); err != nil {
		t.Fatal(err)
	}
	if _, _, err := peer.Post("", "Fine."); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lead.Post("", "Round three."); !errors.Is(err, ErrBudgetSpent) {
		t.Fatalf("a third round of two: %v, want budget spent", err)
	}

	if _, err := peer.WriteSpec("# Spec"); !errors.Is(err, ErrBadSeat) {
		t.Fatalf("the peer writing the spec: %v, want a refusal", err)
	}
	if _, err := peer.Close("done"); !errors.Is(err, ErrBadSeat) {
		t.Fatalf("the peer closing: %v, want a refusal", err)
	}
	if _, err := lead.Close("done"); !errors.Is(err, ErrNoSpec) {
		t.Fatalf("close before the spec: %v, want no spec", err)
	}
	if _, err := lead.WriteSpec("# Spec\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := lead.Close("done"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.TakeSeatAsPerson(SeatPeer); !errors.Is(err, ErrClosed) {
		t.Fatalf("taking a seat of a closed room: %v, want closed", err)
	}
	si := personSeat(t, r, SeatLead)
	if si.State != StateAtKeyboard || si.Last != "close_room" || si.Calls != 4 {
		t.Fatalf("the lead after its calls: %+v, want at the keyboard, 4 calls, last close_room", si)
	}
}

func TestPersonRefusesADebateRoom(t *testing.T) {
	r, _, err := Create(t.TempDir(), "debate", CreateOptions{Topic: "T", Mode: "debate", Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.TakeSeatAsPerson(SeatPeer); !errors.Is(err, ErrNotSeatRoom) {
		t.Fatalf("a seat in a debate: %v, want ErrNotSeatRoom", err)
	}
	if _, err := r.TakeSeatAsPerson("moderator"); !errors.Is(err, ErrBadSeat) {
		t.Fatalf("seat moderator: %v", err)
	}
}

func TestPersonKilledWithoutADisconnectLineReadsAsGone(t *testing.T) {
	r := newPersonRoom(t, "killed")
	c := exec.Command(os.Args[0], "-test.run=^$")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	if err := AppendLog(r.Dir(), time.Now(), EventConnect, F("seat", SeatPeer), F("agent", PersonAgent), F("pid", c.Process.Pid)); err != nil {
		t.Fatal(err)
	}
	if si := personSeat(t, r, SeatPeer); si.State != StateDisconnected || si.Agent != PersonAgent {
		t.Fatalf("a killed person's seat reads %+v, want disconnected", si)
	}
	// A person whose process runs is at the keyboard.
	if err := AppendLog(r.Dir(), time.Now(), EventConnect, F("seat", SeatLead), F("agent", PersonAgent), F("pid", os.Getppid())); err != nil {
		t.Fatal(err)
	}
	if si := personSeat(t, r, SeatLead); si.State != StateAtKeyboard {
		t.Fatalf("a live person's seat reads %+v, want at the keyboard", si)
	}
	p, err := r.TakeSeatAsPerson(SeatPeer)
	if err != nil {
		t.Fatalf("the killed person's seat: %v", err)
	}
	_ = p.Release()
}

func TestSeatHeldRefusesAnAgentUnderALockHolder(t *testing.T) {
	r := newPersonRoom(t, "held")
	live := os.Getppid()
	log := func(seat, agent string) {
		t.Helper()
		if err := AppendLog(r.Dir(), time.Now(), EventConnect, F("seat", seat), F("agent", agent), F("pid", live)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.SeatHeld(SeatPeer); err != nil {
		t.Fatalf("a free seat: %v", err)
	}
	log(SeatPeer, PersonAgent)
	err := r.SeatHeld(SeatPeer)
	if !errors.Is(err, ErrSeatTaken) || !strings.Contains(err.Error(), "a person at the keyboard (roundtable watch --take, pid "+strconv.Itoa(live)+")") {
		t.Fatalf("under a person: %v", err)
	}
	log(SeatLead, "roundtable:mock")
	if err := r.SeatHeld(SeatLead); !errors.Is(err, ErrSeatTaken) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(live)+" (roundtable seat)") {
		t.Fatalf("under roundtable seat: %v", err)
	}
	// Another agent's server (a restart, a probe) does not hold the seat
	// against the next one: only lock holders do.
	log(SeatLead, "claude-code")
	if err := r.SeatHeld(SeatLead); err != nil {
		t.Fatalf("under an MCP agent: %v", err)
	}
	// Nor does this process's own line.
	if err := AppendLog(r.Dir(), time.Now(), EventConnect, F("seat", SeatPeer), F("agent", PersonAgent), F("pid", os.Getpid())); err != nil {
		t.Fatal(err)
	}
	if err := r.SeatHeld(SeatPeer); err != nil {
		t.Fatalf("this process's own line: %v", err)
	}
}
