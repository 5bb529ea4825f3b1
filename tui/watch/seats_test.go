package watch

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/roundtable-dev/roundtable/room"
)

// logLine is one server.log line at s seconds after t0.
func logLine(s float64, rest string) string {
	return t0.Add(time.Duration(s*float64(time.Second))).Format(room.TimeLayout) + " " + rest + "\n"
}

// seatsRoom is an open MCP room whose server.log is given.
func seatsRoom(name, log string) func(testing.TB) (string, string) {
	return func(t testing.TB) (string, string) {
		cwd := t.TempDir()
		msgs := []fileMsg{
			{1, at(0), "lead", "opus-5", "brief", "Should the importer stream rows or load the file whole?", 0},
			{2, at(60), "peer", "codex", "answer", "Stream them: the biggest export is 3 GB.", 0},
		}
		writeRoom(t, cwd, name, room.Config{Room: name, Topic: "Importer memory", Budget: 6, Spec: "SPEC-" + name + ".md", CreatedAt: at(-5)}, msgs,
			map[string]string{"server.log": log})
		return cwd, name
	}
}

// thinkingLog: the lead's wait returned the peer's answer; the peer has listened since its post (two idle
// returns answered at once: one stretch of 4m).
var thinkingLog = logLine(-5, "connect seat=lead agent=opus-5 pid=10 waits=logged") +
	logLine(-4, "connect seat=peer agent=codex pid=11 waits=logged") +
	logLine(0, "call seat=lead tool=post") +
	logLine(1, "call seat=lead tool=wait_for_message") +
	logLine(2, "call seat=peer tool=wait_for_message") +
	logLine(2.1, "wait_return seat=peer reason=message waited_ms=100") +
	logLine(60, "call seat=peer tool=post") +
	logLine(61, "wait_return seat=lead reason=message waited_ms=60000") +
	logLine(63, "call seat=peer tool=wait_for_message") +
	logLine(118, "wait_return seat=peer reason=idle waited_ms=55000") +
	logLine(118.1, "call seat=peer tool=wait_for_message") +
	logLine(173.1, "wait_return seat=peer reason=idle waited_ms=55000") +
	logLine(173.2, "call seat=peer tool=wait_for_message")

// thinkingNow is 4m after the lead's wait returned in thinkingLog.
var thinkingNow = t0.Add(61*time.Second + 4*time.Minute + 5*time.Second)

// goneLog: both seats came and left; the room is still open.
var goneLog = logLine(-5, "connect seat=lead agent=opus-5 pid=10 waits=logged") +
	logLine(-4, "connect seat=peer agent=codex pid=11 waits=logged") +
	logLine(61, "call seat=peer tool=wait_for_message") +
	logLine(90, "disconnect seat=peer pid=11") +
	logLine(95, "disconnect seat=lead pid=10")

// TestSeatStatesOnScreen checks the words and times of each seat state.
func TestSeatStatesOnScreen(t *testing.T) {
	cwd, name := seatsRoom("importer", thinkingLog)(t)
	m := openModelAt(t, cwd, name, 120, 30, thinkingNow)
	view := flat(m)
	for _, want := range []string{
		"lead an agent over MCP (opus-5) thinking · 4m since its wait returned a message",
		"peer an agent over MCP (codex) parked · 4m, listening for the lead",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("%q missing from the screen:\n%s", want, plain(m))
		}
	}
	if strings.Contains(view, "BOTH SEATS") {
		t.Error("the seats-gone banner shows while both seats are connected")
	}

	// The clock moves with the tick alone: no read of server.log.
	m, _ = m.Update(tickMsg{id: m.id, gen: m.tickGen, now: thinkingNow.Add(time.Minute)})
	if view := flat(m); !strings.Contains(view, "thinking · 5m") || !strings.Contains(view, "parked · 5m") {
		t.Errorf("a minute later:\n%s", plain(m))
	}
}

// TestSeatStateWording covers each reason a wait returns and the other
// states, one seat at a time.
func TestSeatStateWording(t *testing.T) {
	connect := logLine(0, "connect seat=peer agent=codex pid=11 waits=logged") + logLine(1, "call seat=peer tool=wait_for_message")
	now := t0.Add(10 * time.Minute)
	tests := []struct {
		name, log, want string
	}{
		{"message", connect + logLine(60, "wait_return seat=peer reason=message waited_ms=59000"), "thinking · 9m since its wait returned a message"},
		{
			"message then tools", connect + logLine(60, "wait_return seat=peer reason=message waited_ms=59000") + logLine(540, "call seat=peer tool=post"),
			"thinking · 9m since its wait returned a message, then post 1m ago",
		},
		{"idle", connect + logLine(56, "wait_return seat=peer reason=idle waited_ms=55000"), "thinking · 9m since its wait timed out; it has not waited again"},
		{"closed", connect + logLine(300, "wait_return seat=peer reason=closed waited_ms=299000"), "told the room closed · 5m ago"},
		{"cancelled", connect + logLine(300, "wait_return seat=peer reason=cancelled waited_ms=299000"), "not listening · 5m: its client cancelled the wait"},
		{"error", connect + logLine(300, "wait_return seat=peer reason=error waited_ms=299000"), "thinking · 5m since its wait failed to read the room"},
		{"parked", connect, "parked · 9m, listening for the lead"},
		{"old server: parked", logLine(0, "connect seat=peer agent=codex pid=11") + logLine(1, "call seat=peer tool=wait_for_message"), "parked · 9m, listening"},
		{"old server: working", logLine(0, "connect seat=peer agent=codex pid=11") + logLine(540, "call seat=peer tool=post"), "working, last tool post · 1m ago"},
		{"not started", logLine(0, "connect seat=peer agent=codex pid=11"), "connected but never started: it has not been given its brief · 10m ago"},
		{"disconnected", connect + logLine(540, "disconnect seat=peer pid=11"), "disconnected, last tool wait_for_message · 1m ago"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd, name := seatsRoom(fmt.Sprintf("words-%d", i), tt.log)(t)
			m := openModelAt(t, cwd, name, 140, 30, now)
			if view := flat(m); !strings.Contains(view, "peer an agent over MCP (codex) "+tt.want) {
				t.Errorf("want %q on the peer's line:\n%s", tt.want, plain(m))
			}
		})
	}
}

// TestSeatsGoneBanner: both seats disconnected from an open room brings the
// banner; one seat left, a closed room or a debate does not.
func TestSeatsGoneBanner(t *testing.T) {
	tests := []struct {
		name   string
		log    string
		closed bool
		want   bool
	}{
		{"both gone", goneLog, false, true},
		{"one left", logLine(-5, "connect seat=lead agent=opus-5 pid=10") + logLine(-4, "connect seat=peer agent=codex pid=11") + logLine(90, "disconnect seat=peer pid=11"), false, false},
		{"one never came", logLine(-5, "connect seat=lead agent=opus-5 pid=10") + logLine(90, "disconnect seat=lead pid=10"), false, false},
		{"both gone, room closed", goneLog, true, false},
		{"lead came back", goneLog + logLine(100, "connect seat=lead agent=opus-5 pid=12"), false, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd, name := seatsRoom(fmt.Sprintf("gone-%d", i), tt.log)(t)
			if tt.closed {
				writeFile(t, room.Dir(cwd, name)+"/closed.json", encode(t, room.Closed{Reason: "done", At: at(100)}))
			}
			m := openModelAt(t, cwd, name, 100, 30, fixedAt)
			view := flat(m)
			got := strings.Contains(view, "BOTH SEATS HAVE DISCONNECTED · the room is still open")
			if got != tt.want {
				t.Fatalf("banner shown %v, want %v:\n%s", got, tt.want, plain(m))
			}
			if got && !strings.Contains(view, "restart both agents (their roundtable entries for room "+name+", lead and peer)") {
				t.Errorf("the banner does not say how to go on:\n%s", plain(m))
			}
		})
	}
	// The banner goes when a seat connects again: a new log read is a
	// message to the screen.
	cwd, name := seatsRoom("back", goneLog)(t)
	m := openModelAt(t, cwd, name, 100, 30, fixedAt)
	if !strings.Contains(flat(m), "BOTH SEATS") {
		t.Fatal("no banner")
	}
	if err := room.AppendLog(room.Dir(cwd, name), t0.Add(200*time.Second), "connect", room.F("seat", "peer"), room.F("agent", "codex"), room.F("pid", 13)); err != nil {
		t.Fatal(err)
	}
	m, _ = m.Update(seatsCmd(m.id, m.sess, m.room.Dir(), m.logSig)())
	if strings.Contains(flat(m), "BOTH SEATS") {
		t.Errorf("banner still shown after the peer came back:\n%s", plain(m))
	}
}

// TestSeatView compares the thinking/parked and the seats-gone screens with
// golden files (refresh with -update).
func TestSeatView(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  string
		now  time.Time
	}{
		{"thinking-parked", thinkingLog, thinkingNow},
		{"seats-gone", goneLog, fixedAt},
	} {
		for _, w := range []int{80, 120} {
			t.Run(fmt.Sprintf("%s-%d", tc.name, w), func(t *testing.T) {
				cwd, name := seatsRoom("importer", tc.log)(t)
				m := openModelAt(t, cwd, name, w, 24, tc.now)
				view := m.View()
				checkFrame(t, view, w, 24)
				golden.RequireEqual(t, view)
			})
		}
	}
}
