package room

import (
	"fmt"
	"os"
	"sync"
)

// A SeatHold is a seat held by this process, whoever plays it: a person
// at the keyboard (TakeSeatAsPerson), a seat roundtable plays
// (debate.SeatGame), an agent's MCP seat server over stdio. It is the one
// record of who holds a seat: the seat's lock (SeatLock) where it has it,
// and the connect line in server.log naming the player, which Release
// answers with the disconnect line before it lets the lock go. A host's
// HTTP sessions are SeatHolds too, several sessions of one seat sharing one
// lock through a SharedLocks (room/mcpserver host.go); a debate's personas
// are held by its run lock (LockRun).
type SeatHold struct {
	r      *Room
	seat   string
	pid    int
	locked bool         // the hold has the seat's lock (its own or a share)
	unlock func() error // lets the lock (or this hold's share of it) go

	mu       sync.Mutex
	released bool
}

// HoldOptions say who holds a seat and how.
type HoldOptions struct {
	// Agent names the player on the connect line: PersonAgent, a
	// `roundtable seat`'s "roundtable:…", an MCP client's name.
	Agent string
	// Fields are more of the connect line, after seat, agent and pid
	// (waits, transport…).
	Fields []Field
	// NeedLock refuses the seat (a *SeatTakenError, or why the lock could
	// not be taken) unless this process gets its lock; without it a seat
	// whose lock cannot be had is held without it (an MCP seat server
	// beside one that holds it).
	NeedLock bool
	// MarkLock puts LockField on the connect line when the lock is held:
	// an MCP seat server's line, whose readers cannot tell otherwise.
	MarkLock bool
	// Lenient holds the seat even when its connect line cannot be
	// written (an MCP seat server's server.log is for diagnosis only).
	Lenient bool
	// Shared takes the lock through a set shared with other holds of this
	// process (a host's sessions of one seat): the first takes it, the
	// last to release lets it go.
	Shared *SharedLocks
}

// SharedLocks are seat locks held by this process on behalf of several
// holds of one seat: a host whose HTTP sessions of one token all play that
// seat. The zero value is ready; it is safe from several goroutines.
type SharedLocks struct {
	mu   sync.Mutex
	held map[string]*sharedLock // by room folder and seat
}

type sharedLock struct {
	lock  *SeatLock
	holds int
}

// take takes seat's lock of r for one more hold, or counts one more hold
// under the lock the set has already.
func (s *SharedLocks) take(r *Room, seat string) (func() error, error) {
	key := r.dir + "\x00" + seat
	s.mu.Lock()
	defer s.mu.Unlock()
	sl := s.held[key]
	if sl == nil {
		lock, err := r.LockSeat(seat)
		if err != nil {
			return nil, err
		}
		if s.held == nil {
			s.held = map[string]*sharedLock{}
		}
		sl = &sharedLock{lock: lock}
		s.held[key] = sl
	}
	sl.holds++
	return func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if sl.holds--; sl.holds > 0 {
			return nil
		}
		delete(s.held, key)
		return sl.lock.Unlock()
	}, nil
}

// HoldSeat takes seat for this process: its lock (see NeedLock), then its
// connect line. On any error nothing is held and nothing written.
func (r *Room) HoldSeat(seat string, o HoldOptions) (*SeatHold, error) {
	if o.Shared != nil {
		unlock, err := o.Shared.take(r, seat)
		if err != nil {
			if o.NeedLock {
				return nil, err
			}
			return r.holdWith(seat, false, noUnlock, o)
		}
		return r.holdWith(seat, true, unlock, o)
	}
	lock, err := r.LockSeat(seat)
	if err != nil {
		if o.NeedLock {
			return nil, err
		}
		return r.holdWith(seat, false, noUnlock, o)
	}
	return r.holdWith(seat, true, lock.Unlock, o)
}

func noUnlock() error { return nil }

// HoldLocked is HoldSeat for a seat whose lock this process took already
// (checking more before it said it plays the seat): it writes the connect
// line, and Release lets lock go.
func (r *Room) HoldLocked(seat string, lock *SeatLock, o HoldOptions) (*SeatHold, error) {
	return r.holdWith(seat, true, lock.Unlock, o)
}

func (r *Room) holdWith(seat string, locked bool, unlock func() error, o HoldOptions) (*SeatHold, error) {
	h := &SeatHold{r: r, seat: seat, pid: os.Getpid(), locked: locked, unlock: unlock}
	fields := append([]Field{F("seat", seat), F("agent", o.Agent), F("pid", h.pid)}, o.Fields...)
	if locked && o.MarkLock {
		fields = append(fields, F(LockField, LockHeldValue))
	}
	if err := r.Log(EventConnect, fields...); err != nil && !o.Lenient {
		_ = unlock()
		return nil, fmt.Errorf("write the %s seat's connect line to server.log of room %s: %w", seat, r.cfg.Room, err)
	}
	return h, nil
}

// Seat is the seat held.
func (h *SeatHold) Seat() string { return h.seat }

// PID is the holding process's pid, as the connect line gives it.
func (h *SeatHold) PID() int { return h.pid }

// Locked reports whether the hold has the seat's lock.
func (h *SeatHold) Locked() bool { return h.locked }

// Released reports whether Release was called.
func (h *SeatHold) Released() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.released
}

// Release writes the seat's disconnect line (with fields after seat and
// pid) and lets its lock go. Only the first call does anything; it is safe
// from several goroutines, and on a nil hold.
func (h *SeatHold) Release(fields ...Field) error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return nil
	}
	h.released = true
	_ = h.r.Log(EventDisconnect, append([]Field{F("seat", h.seat), F("pid", h.pid)}, fields...)...)
	return h.unlock()
}
