package room

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// PersonAgent is the agent label a person at the keyboard plays a seat
// under (`roundtable watch --take`): server.log's connect line says
// "connect seat=peer agent=person pid=N", so `roundtable seats` and every
// watcher know the seat is a person's.
const PersonAgent = "person"

// PersonLabel words a seat a person plays, for people.
const PersonLabel = "a person (at the keyboard)"

// StateAtKeyboard is the state of a seat a person plays, from its connect
// to its disconnect: a person neither parks nor calls tools.
const StateAtKeyboard = "at the keyboard"

// ErrNotSeatRoom refuses to seat a person in a persona debate, which has
// no lead or peer to take.
var ErrNotSeatRoom = errors.New("not a room of two seats")

// holder words who holds a seat, for SeatTakenError. The agent label comes
// from server.log, written by other processes: anything but plain
// characters is quoted, so it cannot carry control characters to a
// terminal.
func (e *SeatTakenError) holder() string {
	pid := ""
	if e.PID > 0 {
		pid = "pid " + strconv.Itoa(e.PID)
	}
	with := func(s string) string {
		if pid == "" {
			return s
		}
		return s + ", " + pid
	}
	switch {
	case e.Agent == PersonAgent:
		return "a person at the keyboard (" + with("roundtable watch --take") + ")"
	case e.Agent != "" && !strings.HasPrefix(e.Agent, PlayedPrefix):
		return "an agent over MCP (" + with(logValue(e.Agent)) + ")"
	case pid != "":
		return pid + " (roundtable seat)"
	default:
		return "another process (roundtable seat)"
	}
}

// seatTaken is the refusal of a seat whose lock pid holds, naming the
// holder's agent when server.log's current connect line for the seat is
// that process's.
func (r *Room) seatTaken(seat string, pid int) *SeatTakenError {
	e := &SeatTakenError{Room: r.cfg.Room, Seat: seat, PID: pid}
	if pid <= 0 {
		return e
	}
	if seats, err := ReadSeats(r.dir); err == nil {
		for _, s := range seats {
			if s.Seat == seat && s.PID == pid && s.State != StateDisconnected {
				e.Agent = s.Agent
			}
		}
	}
	return e
}

// Person is a seat a person at the keyboard plays: the seat's lock is held
// (the one `roundtable seat` takes), and server.log says who plays it. The
// person posts under the same rules as any seat. Release gives the seat up;
// if the process dies instead, the kernel frees the lock.
type Person struct {
	r    *Room
	seat string
	hold *SeatHold // the seat's lock and its connect line
}

// TakeSeatAsPerson seats a person in seat. It refuses (writing nothing to
// the room) a bad seat, a persona debate (ErrNotSeatRoom), a closed room
// (*ClosedError), a seat another process holds (a *SeatTakenError naming
// it: a person, a `roundtable seat`), and a seat that server.log shows an
// agent over MCP connected to whose process still runs (a *SeatTakenError
// naming the agent). Then it logs the person's connect line.
func (r *Room) TakeSeatAsPerson(seat string) (*Person, error) {
	check := ValidateSeat
	if r.cfg.IsCouncil() {
		check = r.checkSeat // any seat of a council
	}
	if err := check(seat); err != nil {
		return nil, err
	}
	if r.cfg.Mode != "" {
		return nil, fmt.Errorf("%w: room %s is a persona debate, not an MCP room; it has no lead or peer to take", ErrNotSeatRoom, r.cfg.Room)
	}
	st, err := r.Refresh()
	if err != nil {
		return nil, err
	}
	if st.Closed != nil {
		return nil, &ClosedError{Reason: st.Closed.Reason}
	}
	lock, err := r.LockSeat(seat)
	if err != nil {
		return nil, err
	}
	// An MCP seat server holds no lock: server.log says whether one is
	// connected, and signal 0 whether its process still runs (a server
	// killed without its disconnect line does not hold the seat forever).
	live, err := LiveSeats(r.dir)
	if err != nil {
		_ = lock.Unlock()
		return nil, err
	}
	for _, s := range live {
		if s.Seat == seat {
			_ = lock.Unlock()
			return nil, &SeatTakenError{Room: r.cfg.Room, Seat: seat, PID: s.PID, Agent: s.Agent}
		}
	}
	hold, err := r.HoldLocked(seat, lock, HoldOptions{Agent: PersonAgent})
	if err != nil {
		return nil, err
	}
	return &Person{r: r, seat: seat, hold: hold}, nil
}

// Seat is the seat the person plays.
func (p *Person) Seat() string { return p.seat }

// Room is the room the person sits in.
func (p *Person) Room() *Room { return p.r }

// Released reports whether Release has run.
func (p *Person) Released() bool {
	return p.hold.Released()
}

// errReleased refuses to act for a person who gave the seat up.
func (p *Person) errReleased() error {
	return fmt.Errorf("%w: the %s seat of room %s was given up; take it again to act in it", ErrBadSeat, p.seat, p.r.cfg.Room)
}

// Post posts text as the seat, through PostMessage: the same turn, budget,
// size and kind rules as any seat, and the same typed refusals. An empty
// kind is the seat's default. On success the seat's draft is cleared.
func (p *Person) Post(kind, text string) (Message, State, error) {
	if p.Released() {
		return Message{}, State{}, p.errReleased()
	}
	msg, st, err := p.r.PostMessage(Post{Seat: p.seat, Agent: PersonAgent, Kind: kind, Text: text})
	if err != nil {
		return msg, st, err
	}
	_ = p.r.ClearDraft(p.seat)
	p.call("post")
	return msg, st, nil
}

// Draft shows text as the seat's draft to every watcher ("peer is
// writing…"); blank text clears it. started is when the person began this
// text: watchers hide a draft begun before the seat's latest message, so a
// draft write that lands after its post never shows as a new one.
func (p *Person) Draft(text string, started time.Time) error {
	if p.Released() {
		return p.errReleased()
	}
	if strings.TrimSpace(text) == "" {
		return p.r.ClearDraft(p.seat)
	}
	return p.r.WriteDraft(Draft{Seat: p.seat, Agent: PersonAgent, StartedAt: started, Text: text})
}

// WriteSpec writes the room's spec, for a person in the lead seat.
func (p *Person) WriteSpec(text string) (string, error) {
	if err := p.leadOnly("write the spec"); err != nil {
		return "", err
	}
	path, err := p.r.WriteSpec(text)
	if err == nil {
		p.call("write_spec")
	}
	return path, err
}

// Close closes the room, for a person in the lead seat. The spec must be
// written first (a *NoSpecError otherwise), as an MCP lead's close_room
// requires.
func (p *Person) Close(reason string) (Closed, error) {
	if err := p.leadOnly("close the room"); err != nil {
		return Closed{}, err
	}
	c, err := p.r.Close(CloseOptions{Reason: reason, RequireSpec: true})
	if err == nil {
		p.call("close_room")
	}
	return c, err
}

func (p *Person) leadOnly(what string) error {
	if p.Released() {
		return p.errReleased()
	}
	if p.seat != SeatLead {
		return fmt.Errorf("%w: only the lead may %s; you play the %s", ErrBadSeat, what, p.seat)
	}
	return nil
}

// call logs what the person did, as an MCP seat's tool calls are logged.
func (p *Person) call(tool string) {
	_ = p.r.Log(EventCall, F("seat", p.seat), F("tool", tool))
}

// Release gives the seat up: the draft is cleared, the disconnect line
// written and the lock freed. It is idempotent and safe to call from
// several goroutines.
func (p *Person) Release() error {
	if p == nil {
		return nil
	}
	if p.hold.Released() {
		return nil
	}
	_ = p.r.ClearDraft(p.seat)
	return p.hold.Release()
}

// seatsGone marks disconnected each seat held through the seat lock (a
// person at the keyboard, a `roundtable seat`) whose holder is gone
// without its disconnect line (killed, or hung up before it could write
// it): its lock died with it, so the seat is free, and every reader says
// so. The lock decides, not the last log line: the seat is gone unless
// the lock file names the connect line's process and that process runs.
//
// A seat served over HTTP by roundtable host is held by the host process:
// it is gone once that process is (killed: it logged no disconnect).
func seatsGone(dir string, seats []SeatInfo) []SeatInfo {
	for i := range seats {
		s := &seats[i]
		if s.State == StateDisconnected || s.State == StateAbsent {
			continue
		}
		if !s.Locked {
			if s.Transport == "http" && s.PID > 0 && !processAlive(s.PID) {
				s.State, s.Since, s.WaitReturn = StateDisconnected, s.LastAt, ""
			}
			continue
		}
		h := SeatHolder(dir, s.Seat)
		gone := !h.Live || (s.PID > 0 && h.PID != s.PID)
		if !h.Known && s.PID > 0 {
			// A room from before seat locks: the process decides.
			gone = !processAlive(s.PID)
		}
		if gone {
			s.State, s.Since, s.WaitReturn = StateDisconnected, s.LastAt, ""
		}
	}
	return seats
}

// LockHeld reports whether a seat played under agent label agent holds
// the seat lock: a person's, or a `roundtable seat`'s.
func LockHeld(agent string) bool {
	return agent == PersonAgent || strings.HasPrefix(agent, PlayedPrefix)
}

// PlayedPrefix starts the agent label of a seat `roundtable seat` plays.
const PlayedPrefix = "roundtable:"

// SeatHeld refuses an agent's seat server a seat that a lock holder plays:
// a person at the keyboard or `roundtable seat`, whose connect line in
// server.log is current and whose process (not this one) still runs. It
// returns a *SeatTakenError naming the holder, or nil. A server.log that
// cannot be read refuses nothing: it is for diagnosis.
func (r *Room) SeatHeld(seat string) error {
	live, err := LiveSeats(r.dir)
	if err != nil {
		return nil
	}
	for _, s := range live {
		if s.Seat == seat && s.PID > 0 && s.PID != os.Getpid() && (s.Agent == PersonAgent || strings.HasPrefix(s.Agent, PlayedPrefix)) {
			return &SeatTakenError{Room: r.cfg.Room, Seat: seat, PID: s.PID, Agent: s.Agent}
		}
	}
	return nil
}
