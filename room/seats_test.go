package room

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room/roomtest"
)

// logAt builds server.log content: each entry is seconds after base and the
// rest of the line.
func logAt(base time.Time, entries ...any) []byte {
	var b strings.Builder
	for i := 0; i+1 < len(entries); i += 2 {
		at := base.Add(time.Duration(entries[i].(float64) * float64(time.Second)))
		fmt.Fprintf(&b, "%s %s\n", formatTime(at), entries[i+1].(string))
	}
	return []byte(b.String())
}

var base = time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)

func sec(s float64) time.Time { return base.Add(time.Duration(s * float64(time.Second))) }

func seatOf(t *testing.T, seats []SeatInfo, name string) SeatInfo {
	t.Helper()
	for _, s := range seats {
		if s.Seat == name {
			return s
		}
	}
	t.Fatalf("no seat %q in %+v", name, seats)
	return SeatInfo{}
}

// TestSeatStateAfterWaits replays logs a seat server of ours writes and
// checks the state, when it began and why the last wait returned.
func TestSeatStateAfterWaits(t *testing.T) {
	connect := "connect seat=peer agent=codex pid=7 waits=logged"
	tests := []struct {
		name      string
		log       []any
		state     string
		since     time.Time
		reason    string
		lastTool  string
		lastAt    time.Time
		calls     int
		originalL string // the original's "last"
	}{
		{
			name:  "parked in its first wait",
			log:   []any{0.0, connect, 1.0, "call seat=peer tool=wait_for_message"},
			state: StateParked, since: sec(1), lastTool: "wait_for_message", lastAt: sec(1), calls: 1, originalL: "wait_for_message",
		},
		{
			name: "the wait returned a message: thinking since the return",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				30.0, "wait_return seat=peer reason=message waited_ms=29000",
			},
			state: StateThinking, since: sec(30), reason: WaitMessage, lastTool: "wait_for_message", lastAt: sec(1), calls: 1, originalL: "wait_for_message",
		},
		{
			name: "reading and posting after the return is still thinking, not parked",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				30.0, "wait_return seat=peer reason=message waited_ms=29000",
				40.0, "call seat=peer tool=read_room",
				200.0, "call seat=peer tool=post",
			},
			state: StateThinking, since: sec(30), reason: WaitMessage, lastTool: "post", lastAt: sec(200), calls: 3, originalL: "post",
		},
		{
			name: "waiting again parks it again, from the new call",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				30.0, "wait_return seat=peer reason=message waited_ms=29000",
				200.0, "call seat=peer tool=post",
				201.0, "call seat=peer tool=wait_for_message",
			},
			state: StateParked, since: sec(201), lastTool: "wait_for_message", lastAt: sec(201), calls: 3, originalL: "wait_for_message",
		},
		{
			name: "idle returns answered at once are one stretch of listening",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				56.0, "wait_return seat=peer reason=idle waited_ms=55000",
				56.2, "call seat=peer tool=wait_for_message",
				111.2, "wait_return seat=peer reason=idle waited_ms=55000",
				112.0, "call seat=peer tool=wait_for_message",
			},
			state: StateParked, since: sec(1), lastTool: "wait_for_message", lastAt: sec(112), calls: 3, originalL: "wait_for_message",
		},
		{
			name: "a wait long after an idle return starts a new stretch",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				56.0, "wait_return seat=peer reason=idle waited_ms=55000",
				120.0, "call seat=peer tool=wait_for_message",
			},
			state: StateParked, since: sec(120), lastTool: "wait_for_message", lastAt: sec(120), calls: 2, originalL: "wait_for_message",
		},
		{
			name: "an idle return not followed by a wait is thinking, with the reason",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				56.0, "wait_return seat=peer reason=idle waited_ms=55000",
			},
			state: StateThinking, since: sec(56), reason: WaitIdle, lastTool: "wait_for_message", lastAt: sec(1), calls: 1, originalL: "wait_for_message",
		},
		{
			name: "a call made while the wait is open leaves it parked",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				5.0, "call seat=peer tool=room_status",
			},
			state: StateParked, since: sec(1), lastTool: "room_status", lastAt: sec(5), calls: 2, originalL: "room_status",
		},
		{
			name: "two waits open: parked until both return",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				2.0, "call seat=peer tool=wait_for_message",
				3.0, "wait_return seat=peer reason=message waited_ms=2000",
			},
			state: StateParked, since: sec(1), lastTool: "wait_for_message", lastAt: sec(2), calls: 2, originalL: "wait_for_message",
		},
		{
			name: "the room closed under the wait",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				9.0, "wait_return seat=peer reason=closed waited_ms=8000",
			},
			state: StateThinking, since: sec(9), reason: WaitClosed, lastTool: "wait_for_message", lastAt: sec(1), calls: 1, originalL: "wait_for_message",
		},
		{
			name: "the client cancelled the wait",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				9.0, "wait_return seat=peer reason=cancelled waited_ms=8000",
			},
			state: StateThinking, since: sec(9), reason: WaitCancelled, lastTool: "wait_for_message", lastAt: sec(1), calls: 1, originalL: "wait_for_message",
		},
		{
			name: "disconnect ends every state",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				9.0, "wait_return seat=peer reason=cancelled waited_ms=8000",
				9.1, "disconnect seat=peer pid=7",
			},
			state: StateDisconnected, since: sec(9.1), lastTool: "wait_for_message", lastAt: sec(9.1), calls: 1, originalL: "wait_for_message",
		},
		{
			name: "a reconnect starts the seat over; the original's calls and last span the whole log",
			log: []any{
				0.0, connect, 1.0, "call seat=peer tool=wait_for_message",
				2.0, "disconnect seat=peer pid=7",
				3.0, "connect seat=peer agent=codex-2 pid=8 waits=logged",
				3.5, "list_tools seat=peer",
			},
			state: StateNotStarted, since: sec(3), lastAt: sec(3), calls: 1, originalL: "wait_for_message",
		},
		{
			name: "an older server's log: a call after a wait means the wait ended",
			log: []any{
				0.0, "connect seat=peer agent=codex pid=7",
				1.0, "call seat=peer tool=wait_for_message",
				30.0, "call seat=peer tool=post",
			},
			state: StateActive, since: sec(30), lastTool: "post", lastAt: sec(30), calls: 2, originalL: "post",
		},
		{
			name: "an older server's log: waits called back to back are one stretch",
			log: []any{
				0.0, "connect seat=peer agent=codex pid=7",
				1.0, "call seat=peer tool=wait_for_message",
				56.0, "call seat=peer tool=wait_for_message",
			},
			state: StateParked, since: sec(1), lastTool: "wait_for_message", lastAt: sec(56), calls: 2, originalL: "wait_for_message",
		},
		{
			name:  "a seat seen only in a list_tools line is there, not started",
			log:   []any{4.0, "list_tools seat=peer"},
			state: StateNotStarted, since: sec(4),
		},
		{
			name: "lines out of time order are replayed in time order",
			log: []any{
				0.0, connect,
				30.0, "wait_return seat=peer reason=message waited_ms=29000",
				1.0, "call seat=peer tool=wait_for_message",
			},
			state: StateThinking, since: sec(30), reason: WaitMessage, lastTool: "wait_for_message", lastAt: sec(1), calls: 1, originalL: "wait_for_message",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := seatOf(t, SeatsFromLog(logAt(base, tt.log...)), SeatPeer)
			if p.State != tt.state || !p.Since.Equal(tt.since) || p.WaitReturn != tt.reason {
				t.Errorf("state %q since %v reason %q, want %q since %v reason %q", p.State, p.Since, p.WaitReturn, tt.state, tt.since, tt.reason)
			}
			if p.LastTool != tt.lastTool || !p.LastAt.Equal(tt.lastAt) {
				t.Errorf("last tool %q at %v, want %q at %v", p.LastTool, p.LastAt, tt.lastTool, tt.lastAt)
			}
			if p.Calls != tt.calls || p.Last != tt.originalL {
				t.Errorf("calls %d last %q, want %d %q", p.Calls, p.Last, tt.calls, tt.originalL)
			}
		})
	}
}

// TestOriginalReaderIsNotConfused writes a log the way our seat servers do,
// wait_return lines included, and checks that the original's reading of
// it (calls, last, agent, which seats) matches ours, and that the new line
// moves none of the original's figures.
func TestOriginalReaderIsNotConfused(t *testing.T) {
	dir := t.TempDir()
	write := func(s float64, event string, fields ...Field) {
		if err := AppendLog(dir, sec(s), event, fields...); err != nil {
			t.Fatal(err)
		}
	}
	write(0, EventConnect, F("seat", "lead"), F("agent", "opus-5"), F("pid", 10), F("waits", WaitsLogged))
	write(0.5, EventConnect, F("seat", "peer"), F("agent", "codex"), F("pid", 11), F("waits", WaitsLogged))
	write(1, EventListTools, F("seat", "lead"))
	write(2, EventCall, F("seat", "peer"), F("tool", WaitTool))
	write(3, EventCall, F("seat", "lead"), F("tool", "post"))
	write(3.1, EventWaitReturn, F("seat", "peer"), F("reason", WaitMessage), F("waited_ms", 1100))
	write(3.2, EventCall, F("seat", "lead"), F("tool", WaitTool))
	write(60, EventCall, F("seat", "peer"), F("tool", "read_room"))
	data, err := os.ReadFile(filepath.Join(dir, LogFile))
	if err != nil {
		t.Fatal(err)
	}
	orig := roomtest.OriginalSeats(data)
	ours := SeatsFromLog(data)
	if len(orig) != 2 {
		t.Fatalf("the original sees %d seats: %+v", len(orig), orig)
	}
	for _, o := range orig {
		s := seatOf(t, ours, o.Seat)
		if s.Agent != o.Agent || s.Calls != o.Calls || s.Last != o.Last {
			t.Errorf("seat %s: ours agent %q calls %d last %q, the original's %q %d %q", o.Seat, s.Agent, s.Calls, s.Last, o.Agent, o.Calls, o.Last)
		}
	}
	if p := orig[1]; p.Seat != SeatPeer || p.Calls != 2 || p.Last != "read_room" {
		t.Errorf("the original counts the peer's calls as %d, last %q: the wait_return line was read as a call", p.Calls, p.Last)
	}
	// What the original could not tell, ours does.
	if p := seatOf(t, ours, SeatPeer); p.State != StateThinking || !p.Since.Equal(sec(3.1)) {
		t.Errorf("peer = %+v, want thinking since its wait returned", p)
	}
	if l := seatOf(t, ours, SeatLead); l.State != StateParked {
		t.Errorf("lead = %+v, want parked", l)
	}
}

// TestReferenceLogsAsTheOriginalReadsThem: on the logs the original server
// wrote, our calls, last and agents are the original's.
func TestReferenceLogsAsTheOriginalReadsThem(t *testing.T) {
	for _, name := range []string{"cache-design", "open-room"} {
		data, err := os.ReadFile(filepath.Join("testdata/reference-rooms", name, ".roundtable", name, LogFile))
		if err != nil {
			t.Fatal(err)
		}
		ours := SeatsFromLog(data)
		for _, o := range roomtest.OriginalSeats(data) {
			s := seatOf(t, ours, o.Seat)
			if !s.Connected() || s.Agent != o.Agent || s.Calls != o.Calls || s.Last != o.Last {
				t.Errorf("%s seat %s: ours %+v, the original's %+v", name, o.Seat, s, o)
			}
		}
	}
}

func TestSeatsWithoutALog(t *testing.T) {
	seats, err := ReadSeats(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(seats) != 2 || seats[0].Connected() || seats[1].Connected() {
		t.Fatalf("seats of a room without server.log: %+v", seats)
	}
}

// FuzzSeatsFromLog: any server.log content, as hostile or truncated as it
// gets, gives the lead and the peer first, states from the known set, and
// the original's call count never above the number of lines.
func FuzzSeatsFromLog(f *testing.F) {
	f.Add([]byte(logAt(base, 0.0, "connect seat=peer agent=codex pid=7 waits=logged", 1.0, "call seat=peer tool=wait_for_message",
		2.0, "wait_return seat=peer reason=idle waited_ms=1000", 2.1, "call seat=peer tool=wait_for_message")))
	f.Add([]byte("2026-11-30T14:00:00.000Z wait_return seat=lead reason=message\n2026-11-30T14:00:00.000Z wait_return seat=lead\n"))
	f.Add([]byte("2026-11-30T14:00:00.000Z call seat=\"x\\ny\" tool=\"a b\"\nnot a line\n\x00\xff"))
	known := map[string]bool{
		StateNotStarted: true, StateParked: true, StateThinking: true, StateActive: true,
		StateDisconnected: true, StateAbsent: true,
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		seats := SeatsFromLog(data)
		if len(seats) < 2 || seats[0].Seat != SeatLead || seats[1].Seat != SeatPeer {
			t.Fatalf("seats %+v", seats)
		}
		lines := strings.Count(string(data), "\n") + 1
		for _, s := range seats {
			if !known[s.State] {
				t.Fatalf("unknown state %q", s.State)
			}
			if s.Calls < 0 || s.Calls > lines {
				t.Fatalf("%d calls from %d lines", s.Calls, lines)
			}
			if s.WaitReturn != "" && s.State != StateThinking {
				t.Fatalf("wait_return %q kept in state %q", s.WaitReturn, s.State)
			}
		}
	})
}
