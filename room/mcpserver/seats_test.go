package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// logLines returns the parsed lines of a room's server.log with the given
// event.
func logLines(t *testing.T, dir, event string) []room.LogLine {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, room.LogFile))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []room.LogLine
	for _, l := range strings.Split(string(data), "\n") {
		if ll, ok := room.ParseLogLine(l); ok && ll.Event == event {
			out = append(out, ll)
		}
	}
	return out
}

// seatNow is what server.log says about one seat now.
func seatNow(t *testing.T, dir, who string) room.SeatInfo {
	t.Helper()
	seats, err := room.ReadSeats(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		if s.Seat == who {
			return s
		}
	}
	t.Fatalf("no seat %s in %+v", who, seats)
	return room.SeatInfo{}
}

// eventually polls cond until it holds or 10 s pass: for lines another
// process writes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWaitReturnsAreLogged drives two seat processes and checks that every
// way a wait ends (a message, the timeout, the close, a cancel) is written
// to server.log before the seat's next call, that the seat reads as
// thinking then, and that the original's reading of the same log counts
// no extra calls.
func TestWaitReturnsAreLogged(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "waits", "lead", "--budget", "3")
	peer := hosttest.StartSeat(t, cwd, "waits", "peer")
	dir := filepath.Join(cwd, ".roundtable", "waits")

	for _, l := range logLines(t, dir, room.EventConnect) {
		if l.Fields["waits"] != room.WaitsLogged {
			t.Errorf("connect line without waits=logged: %+v", l)
		}
	}

	// Parked, then woken by a message.
	woke := make(chan map[string]any, 1)
	go func() { woke <- peer.OK("wait_for_message", map[string]any{"timeout_seconds": 30}) }()
	eventually(t, "the peer parks", func() bool { return seatNow(t, dir, "peer").State == room.StateParked })
	lead.OK("post", map[string]any{"text": "the brief"})
	<-woke
	returns := logLines(t, dir, room.EventWaitReturn)
	if len(returns) != 1 || returns[0].Fields["seat"] != "peer" || returns[0].Fields["reason"] != room.WaitMessage {
		t.Fatalf("wait_return lines after a message: %+v", returns)
	}
	if _, ok := returns[0].Fields["waited_ms"]; !ok {
		t.Errorf("wait_return without waited_ms: %+v", returns[0])
	}
	p := seatNow(t, dir, "peer")
	if p.State != room.StateThinking || p.WaitReturn != room.WaitMessage || !p.Since.Equal(returns[0].At) {
		t.Fatalf("peer after its wait returned a message: %+v", p)
	}
	// The return is logged before the reply leaves, so before the next call.
	peer.OK("read_room", nil)
	calls := logLines(t, dir, room.EventCall)
	if last := calls[len(calls)-1]; last.Fields["tool"] != "read_room" || last.At.Before(returns[0].At) {
		t.Fatalf("read_room logged at %v, before the wait's return at %v", last.At, returns[0].At)
	}
	if p := seatNow(t, dir, "peer"); p.State != room.StateThinking || p.LastTool != "read_room" {
		t.Fatalf("peer reading after the return: %+v", p)
	}

	// The timeout.
	peer.OK("post", map[string]any{"text": "the answer"})
	if out := lead.OK("wait_for_message", map[string]any{"timeout_seconds": 30}); out["messages"] == nil {
		t.Fatalf("lead's wait: %v", out)
	}
	if out := peer.OK("wait_for_message", map[string]any{"timeout_seconds": 1}); out["idle"] != true {
		t.Fatalf("peer's short wait: %v", out)
	}
	if r := logLines(t, dir, room.EventWaitReturn); r[len(r)-1].Fields["reason"] != room.WaitIdle || r[len(r)-1].Fields["seat"] != "peer" {
		t.Fatalf("last wait_return after a timeout: %+v", r[len(r)-1])
	}

	// The close, while the peer is parked.
	go func() { woke <- peer.OK("wait_for_message", map[string]any{"timeout_seconds": 30}) }()
	eventually(t, "the peer parks again", func() bool { return seatNow(t, dir, "peer").State == room.StateParked })
	lead.OK("write_spec", map[string]any{"text": "# Spec"})
	lead.OK("close_room", map[string]any{"reason": "done"})
	if out := <-woke; out["closed"] != true {
		t.Fatalf("parked wait at the close: %v", out)
	}
	if p := seatNow(t, dir, "peer"); p.State != room.StateThinking || p.WaitReturn != room.WaitClosed {
		t.Fatalf("peer after the close: %+v", p)
	}

	// The original's reading: the wait_return lines are no calls.
	data, err := os.ReadFile(filepath.Join(dir, room.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range roomtest.OriginalSeats(data) {
		ours := seatNow(t, dir, o.Seat)
		if ours.Calls != o.Calls || ours.Last != o.Last || ours.Agent != o.Agent {
			t.Errorf("seat %s: ours calls %d last %q agent %q, the original's %+v", o.Seat, ours.Calls, ours.Last, ours.Agent, o)
		}
	}
	if peerCalls := strings.Count(string(data), "call seat=peer tool="); seatNow(t, dir, "peer").Calls != peerCalls {
		t.Errorf("peer calls %d, the log has %d call lines", seatNow(t, dir, "peer").Calls, peerCalls)
	}
}

// TestCancelledWaitIsLogged: a client that cancels a parked wait
// (notifications/cancelled, as an agent does when its user interrupts it)
// leaves a wait_return with reason cancelled.
func TestCancelledWaitIsLogged(t *testing.T) {
	cwd := t.TempDir()
	c := startRaw(t, hosttest.Binary(), "--room", "cancel", "--seat", "peer", "--cwd", cwd)
	c.initialize(t)
	dir := filepath.Join(cwd, ".roundtable", "cancel")
	c.tool("wait_for_message", map[string]any{"timeout_seconds": 50})
	eventually(t, "the peer parks", func() bool { return seatNow(t, dir, "peer").State == room.StateParked })
	c.mu.Lock()
	id := c.nextID
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": id, "reason": "user interrupted"}})
	_, err := c.in.Write(append(data, '\n'))
	c.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "a cancelled wait_return line", func() bool {
		r := logLines(t, dir, room.EventWaitReturn)
		return len(r) == 1 && r[0].Fields["reason"] == room.WaitCancelled
	})
	if p := seatNow(t, dir, "peer"); p.State != room.StateThinking || p.WaitReturn != room.WaitCancelled {
		t.Fatalf("peer after the cancel: %+v", p)
	}
}

// runSeats runs `roundtable seats` and returns its stdout, failing on a
// non-zero exit.
func runSeats(t *testing.T, cwd, name string) []byte {
	t.Helper()
	out, errOut, code := hosttest.Run(t, "seats", "--room", name, "--cwd", cwd)
	if code != 0 {
		t.Fatalf("seats exit %d: %s", code, errOut)
	}
	return []byte(out)
}

// TestSeatsCommandKeepsTheOriginalsShape runs the built binary's `seats`
// and checks that a script written for the original's output finds what
// the original prints: a JSON array of the seats in server.log, each
// starting with seat, agent, calls and last, with the original's values.
func TestSeatsCommandKeepsTheOriginalsShape(t *testing.T) {
	cwd := roomtest.CopyTree(t, filepath.Join(roomtest.ReferenceRooms(), "cache-design"))
	out := runSeats(t, cwd, "cache-design")
	// The first keys of each entry, as the original prints them for this
	// log (14 lead calls ending with close_room, 11 peer calls ending with a
	// wait: counted by hand from the fixture).
	for _, want := range []string{
		"[\n  {\n    \"seat\": \"lead\",\n    \"agent\": \"opus-5\",\n    \"calls\": 14,\n    \"last\": \"close_room\",\n",
		"  {\n    \"seat\": \"peer\",\n    \"agent\": \"codex\",\n    \"calls\": 11,\n    \"last\": \"wait_for_message\",\n",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("seats output lacks %q:\n%s", want, out)
		}
	}
	checkOriginalKeys(t, out, filepath.Join(cwd, ".roundtable", "cache-design", room.LogFile))

	// Ours too: the state of each seat.
	var full []room.SeatInfo
	if err := json.Unmarshal(out, &full); err != nil {
		t.Fatal(err)
	}
	if len(full) != 2 || full[0].State != room.StateDisconnected || full[1].State != room.StateDisconnected || full[0].Since.IsZero() {
		t.Errorf("our keys: %+v", full)
	}

	// A room no seat has joined: the original prints [].
	bare := t.TempDir()
	if _, _, err := room.Create(bare, "empty", room.CreateOptions{Topic: "t", Budget: 2}); err != nil {
		t.Fatal(err)
	}
	if out := runSeats(t, bare, "empty"); string(out) != "[]\n" {
		t.Errorf("seats of a room without server.log: %q, want \"[]\\n\"", out)
	}
}

// TestSeatsCommandOnALiveRoom: one seat connected (the peer never came):
// only it is listed, as the original does, and its calls and last match
// the original's reading of the log our servers wrote.
func TestSeatsCommandOnALiveRoom(t *testing.T) {
	cwd := t.TempDir()
	lead := hosttest.StartSeat(t, cwd, "live", "lead")
	lead.OK("room_status", nil)
	lead.OK("post", map[string]any{"text": "brief"})
	if out := lead.OK("wait_for_message", map[string]any{"timeout_seconds": 1}); out["idle"] != true {
		t.Fatalf("wait: %v", out)
	}
	out := runSeats(t, cwd, "live")
	checkOriginalKeys(t, out, filepath.Join(cwd, ".roundtable", "live", room.LogFile))
	var full []room.SeatInfo
	if err := json.Unmarshal(out, &full); err != nil {
		t.Fatal(err)
	}
	if len(full) != 1 || full[0].Seat != "lead" || full[0].State != room.StateThinking || full[0].WaitReturn != room.WaitIdle || full[0].Calls != 3 || full[0].Last != "wait_for_message" {
		t.Fatalf("seats of a live room: %s", out)
	}
}

// checkOriginalKeys compares the original's keys of each entry of a seats
// output with what the original reads from the log: same seats, same
// values, same JSON types.
func checkOriginalKeys(t *testing.T, out []byte, logPath string) {
	t.Helper()
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	want := roomtest.OriginalSeats(data)
	var raw []map[string]any
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatalf("seats output is not a JSON array: %v\n%s", err, out)
	}
	var got []roomtest.OriginalSeat
	for _, e := range raw {
		seat, okS := e["seat"].(string)
		agent, okA := e["agent"].(string)
		calls, okC := e["calls"].(float64)
		if !okS || !okA || !okC {
			t.Fatalf("entry without the original's seat/agent/calls types: %v", e)
		}
		o := roomtest.OriginalSeat{Seat: seat, Agent: agent, Calls: int(calls)}
		if last, ok := e["last"]; ok {
			s, isString := last.(string)
			if !isString {
				t.Fatalf("last is not a string: %v", e)
			}
			o.Last = s
		}
		got = append(got, o)
	}
	// The original lists seats in the order they first appear; ours lists
	// the lead first. Scripts select by seat, so compare as sets.
	byName := func(l []roomtest.OriginalSeat) map[string]roomtest.OriginalSeat {
		m := map[string]roomtest.OriginalSeat{}
		for _, s := range l {
			m[s.Seat] = s
		}
		return m
	}
	if !reflect.DeepEqual(byName(got), byName(want)) || len(got) != len(want) {
		t.Fatalf("seats output, original keys: %+v\nthe original reads: %+v", got, want)
	}
}

// TestNoRoomUntilInitialize: a seat process that is given EOF, garbage or
// only a ping on stdin creates nothing; the room and its connect line
// appear when initialize arrives.
func TestNoRoomUntilInitialize(t *testing.T) {
	inputs := map[string]string{
		"EOF at once":  "",
		"garbage":      "hello\n{not json\n\x00\xff\n[1,2,3]\n",
		"a ping":       `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		"notification": `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n",
	}
	for name, input := range inputs {
		for _, args := range [][]string{nil, {"--room", "r", "--seat", "lead"}} {
			t.Run(name+" "+strings.Join(args, " "), func(t *testing.T) {
				cwd := t.TempDir()
				cmd := exec.Command(hosttest.Binary(), args...)
				cmd.Dir = cwd // bare roundtable uses the working directory
				cmd.Env = os.Environ()
				cmd.Stdin = strings.NewReader(input)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("exit: %v\nstderr: %s", err, stderr.String())
				}
				if entries, _ := os.ReadDir(cwd); len(entries) != 0 {
					t.Fatalf("left %v in the folder (stdout %q)", names(entries), stdout.String())
				}
				for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
					if line != "" && !json.Valid([]byte(line)) {
						t.Errorf("stdout carries a line that is not JSON-RPC: %q", line)
					}
				}
			})
		}
	}

	// The same process, given initialize, creates the room at once.
	cwd := t.TempDir()
	c := startRaw(t, hosttest.Binary(), "--room", "late", "--seat", "peer", "--cwd", cwd)
	<-c.send("ping", map[string]any{})
	if _, err := os.Stat(filepath.Join(cwd, ".roundtable")); !os.IsNotExist(err) {
		t.Fatalf("a ping created .roundtable (%v)", err)
	}
	c.initialize(t)
	dir := filepath.Join(cwd, ".roundtable", "late")
	if _, err := os.Stat(filepath.Join(dir, "room.json")); err != nil {
		t.Fatalf("no room.json after initialize: %v", err)
	}
	if got := logLines(t, dir, room.EventConnect); len(got) != 1 || got[0].Fields["seat"] != "peer" {
		t.Fatalf("connect lines after initialize: %+v", got)
	}
	c.close()
	if got := logLines(t, dir, room.EventDisconnect); len(got) != 1 {
		t.Fatalf("disconnect lines after EOF: %+v", got)
	}
}

// TestRoomThatCannotBeCreatedFailsInitialize: the room's folder cannot be
// made; initialize fails with a sentence naming the seat and what to do,
// and the process keeps serving.
func TestRoomThatCannotBeCreatedFailsInitialize(t *testing.T) {
	cwd := t.TempDir()
	// A file where the .roundtable folder should be: no user, root
	// included, can create the room under it.
	if err := os.WriteFile(filepath.Join(cwd, ".roundtable"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startRaw(t, hosttest.Binary(), "--room", "blocked", "--seat", "lead", "--cwd", cwd)
	resp := <-c.send("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
	e, ok := resp["error"].(map[string]any)
	if !ok {
		t.Fatalf("initialize with an unusable cwd answered %v", resp)
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, "seat lead of room \"blocked\" cannot start") || !strings.Contains(msg, "restart the agent") {
		t.Fatalf("error message %q", msg)
	}
	// Still serving: a ping answers.
	if resp := <-c.send("ping", map[string]any{}); resp["result"] == nil {
		t.Fatalf("ping after the failed start: %v", resp)
	}
}

func names(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
