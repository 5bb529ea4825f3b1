package room

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// The server.log events that seat states are derived from. A line is
// "<time> <event> key=value ...": see ParseLogLine.
const (
	// EventConnect: a seat server started (fields seat, agent, pid, and
	// waits=logged from servers that write EventWaitReturn lines, and
	// lock=held from those that hold the seat's lock, LockField).
	EventConnect = "connect"
	// EventListTools: the seat's client listed its tools (field seat).
	EventListTools = "list_tools"
	// EventCall: the seat called a tool (fields seat, tool).
	EventCall = "call"
	// EventWaitReturn: a wait_for_message call returned (fields seat,
	// reason, waited_ms). The original server does not write it; its
	// reader ignores it, because the line has no tool or agent field.
	EventWaitReturn = "wait_return"
	// EventDisconnect: the seat server stopped (fields seat, pid).
	EventDisconnect = "disconnect"
)

// WaitTool is the tool a seat parks in while it listens for the other.
const WaitTool = "wait_for_message"

// LockField is the connect line's field saying that the seat's process
// holds the seat's lock (room.LockSeat) until its disconnect, with value
// LockHeldValue: readers then decide from the lock whether it is gone. A
// person and a roundtable seat always hold it (LockHeld).
const (
	LockField     = "lock"
	LockHeldValue = "held"
)

// WaitsLogged is the value of the waits field of a connect line from a
// server that logs every wait's return, so a reader knows that a wait with
// no wait_return line after it is still open.
const WaitsLogged = "logged"

// Why a wait_for_message call returned: the reason field of a wait_return
// line.
const (
	WaitMessage   = "message"   // the other seat posted
	WaitIdle      = "idle"      // the timeout passed with nothing new
	WaitClosed    = "closed"    // the room closed
	WaitCancelled = "cancelled" // the client cancelled the call or went away
	WaitFailed    = "error"     // the room could not be read
)

// Seat states derived from server.log.
const (
	StateNotStarted   = "connected, not started"
	StateParked       = "parked, listening"
	StateThinking     = "thinking"
	StateActive       = "active"
	StateDisconnected = "disconnected"
	StateAbsent       = "never connected"
	// StateAtKeyboard (person.go): a seat a person plays.
)

// rewaitWithin is how soon after an idle return a new wait continues the
// same stretch of listening: an agent that calls again at once never
// stopped listening, so "parked for" should not restart every 55 s.
const rewaitWithin = 10 * time.Second

// SeatInfo is what server.log says about one seat.
//
// The first four keys are the original server's `seats` output, with its
// meaning, so scripts written for it keep working: calls counts every tool
// call of the seat in the whole log and last names the latest. The rest
// describe the seat's current connection.
type SeatInfo struct {
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	Calls int    `json:"calls"`
	Last  string `json:"last,omitempty"`

	PID   int    `json:"pid,omitempty"`
	State string `json:"state"`
	// Since is when the state began: the connect, the first of a run of
	// waits (parked), the wait's return (thinking), the first call
	// (active) or the disconnect.
	Since time.Time `json:"since,omitzero"`
	// WaitReturn is why the seat's latest wait returned (a Wait* reason),
	// while it is thinking.
	WaitReturn string    `json:"wait_return,omitempty"`
	LastTool   string    `json:"last_tool,omitempty"`
	LastAt     time.Time `json:"last_at,omitzero"`
	// Transport and Remote say how the current connection reaches the
	// room: "http" and the client's address for a seat served by
	// roundtable host; empty for a stdio seat.
	Transport string `json:"transport,omitempty"`
	Remote    string `json:"remote,omitempty"`
	// Locked: the current connection holds the seat's lock (its connect
	// line says lock=held, or its agent is one that always does).
	Locked bool `json:"-"`
}

// Connected reports whether the seat appears in server.log at all (the
// original's `seats` lists only those).
func (s SeatInfo) Connected() bool { return s.State != StateAbsent }

// ReadSeats reads server.log and returns the lead and the peer's state (and
// any other seat that appears), lead first. A missing log means no seat has
// connected yet.
func ReadSeats(dir string) ([]SeatInfo, error) {
	data, err := readRegular(filepath.Join(dir, LogFile), 64<<20)
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, LogFile), err)
	}
	return seatsGone(dir, SeatsFromLog(data)), nil
}

// seatTrack is one seat's state while the log is replayed.
type seatTrack struct {
	info SeatInfo
	open int // waits called and not yet returned, this connection
	// exact: this connection logs wait returns, so open is exact and a call
	// made while a wait is open does not end the wait.
	exact bool
	// idleAt is when the latest wait returned idle, and parked when the
	// stretch of listening that it ended began; zero otherwise.
	idleAt, parked time.Time
}

// SeatsFromLog derives seat states from server.log content. Lines from
// several processes are not strictly in time order, so they are sorted
// first (stably: one process's lines with the same time keep their order).
func SeatsFromLog(data []byte) []SeatInfo {
	var lines []LogLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if ll, ok := ParseLogLine(sc.Text()); ok {
			lines = append(lines, ll)
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].At.Before(lines[j].At) })
	seats := map[string]*seatTrack{
		SeatLead: {info: SeatInfo{Seat: SeatLead, State: StateAbsent}},
		SeatPeer: {info: SeatInfo{Seat: SeatPeer, State: StateAbsent}},
	}
	order := []string{SeatLead, SeatPeer}
	for _, ll := range lines {
		seat := ll.Fields["seat"]
		if seat == "" {
			continue
		}
		t, ok := seats[seat]
		if !ok {
			t = &seatTrack{info: SeatInfo{Seat: seat, State: StateAbsent}}
			seats[seat] = t
			order = append(order, seat)
		}
		t.apply(ll)
	}
	out := make([]SeatInfo, 0, len(order))
	for _, k := range order {
		out = append(out, seats[k].info)
	}
	return out
}

// apply replays one line of the seat's.
func (t *seatTrack) apply(ll LogLine) {
	s := &t.info
	if s.State == StateAbsent {
		// Any line of a seat's (list_tools, skip, ...) shows it is there.
		s.State, s.Since = StateNotStarted, ll.At
	}
	switch ll.Event {
	case EventConnect:
		s.Agent = ll.Fields["agent"]
		s.PID, _ = strconv.Atoi(ll.Fields["pid"])
		s.Transport, s.Remote = ll.Fields["transport"], ll.Fields["remote"]
		s.Locked = ll.Fields[LockField] == LockHeldValue || LockHeld(s.Agent)
		s.State, s.Since, s.WaitReturn, s.LastTool, s.LastAt = StateNotStarted, ll.At, "", "", ll.At
		t.open, t.exact, t.idleAt, t.parked = 0, ll.Fields["waits"] == WaitsLogged, time.Time{}, time.Time{}
		if s.Agent == PersonAgent {
			s.State = StateAtKeyboard
		}
	case EventCall:
		if tool := ll.Fields["tool"]; tool != "" {
			t.call(tool, ll.At)
		}
	case EventWaitReturn:
		t.waitReturned(ll.Fields["reason"], ll.At)
	case EventDisconnect:
		s.State, s.Since, s.LastAt, s.WaitReturn = StateDisconnected, ll.At, ll.At, ""
		t.open = 0
	}
}

func (t *seatTrack) call(tool string, at time.Time) {
	s := &t.info
	s.Calls++
	s.Last, s.LastTool, s.LastAt = tool, tool, at
	if s.State == StateAtKeyboard {
		return // a person stays at the keyboard whatever they do
	}
	if tool == WaitTool {
		t.open++
		if s.State != StateParked {
			s.Since = at
			// An idle return and a prompt new wait are one stretch of
			// listening: keep counting from where it began.
			if !t.parked.IsZero() && at.Sub(t.idleAt) <= rewaitWithin {
				s.Since = t.parked
			}
			s.State = StateParked
		}
		s.WaitReturn = ""
		return
	}
	switch {
	case s.State == StateParked && t.exact && t.open > 0:
		// A call made while a wait is still open: the seat still listens.
	case s.State == StateThinking:
		// Still out of its wait; the last tool says what it did since.
	case s.State != StateActive:
		// Old logs say nothing of a wait's return: a later call is the
		// first sign that it ended.
		s.State, s.Since = StateActive, at
		t.open = 0
	}
}

func (t *seatTrack) waitReturned(reason string, at time.Time) {
	s := &t.info
	t.exact = true
	t.open = max(t.open-1, 0)
	if t.open > 0 {
		return // another wait of the seat's is still open
	}
	if reason == WaitIdle {
		if s.State == StateParked {
			t.parked = s.Since
		}
		t.idleAt = at
	} else {
		t.idleAt, t.parked = time.Time{}, time.Time{}
	}
	s.State, s.Since, s.WaitReturn = StateThinking, at, reason
}

// ConnectedSeats keeps the seats that appear in server.log, in order:
// what the original's `seats` lists. It is never nil, so it encodes as []
// when no seat has connected.
func ConnectedSeats(seats []SeatInfo) []SeatInfo {
	out := make([]SeatInfo, 0, len(seats))
	for _, s := range seats {
		if s.Connected() {
			out = append(out, s)
		}
	}
	return out
}
