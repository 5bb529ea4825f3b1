package room

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gofrs/flock"
)

// ErrSeatTaken marks a seat that another process already plays.
var ErrSeatTaken = errors.New("seat taken")

// SeatTakenError refuses a second player for a seat: PID is the process
// holding it (0 when it could not be read).
type SeatTakenError struct {
	Room string
	Seat string
	PID  int
	// Agent is the holder's agent label from its server.log connect line
	// ("person", "claude-code", "roundtable:…"); empty when unknown, which
	// reads as a roundtable seat.
	Agent string
}

func (e *SeatTakenError) Error() string {
	return fmt.Sprintf("the %s seat of room %s is already played by %s; stop it first", e.Seat, e.Room, e.holder())
}

// Unwrap makes errors.Is(err, ErrSeatTaken) hold.
func (e *SeatTakenError) Unwrap() error { return ErrSeatTaken }

// SeatsDir is the folder holding the seat locks of the room in roomDir.
func SeatsDir(roomDir string) string { return filepath.Join(roomDir, "seats") }

// SeatLock is a seat held by this process: one seat, one player. It is an
// flock on <room>/seats/<seat>.lock, so the kernel frees the seat when its
// holder dies, however it dies; the file says which pid holds it.
type SeatLock struct {
	fl  *flock.Flock
	pid string // where the holder's pid is written (see seatlock_*.go)
}

// LockSeat takes seat for this process, or returns a *SeatTakenError naming
// the process that holds it. Release it with Unlock.
func (r *Room) LockSeat(seat string) (*SeatLock, error) {
	if err := ValidateSeat(seat); err != nil {
		return nil, err
	}
	dir := SeatsDir(r.dir)
	if err := mkdirNoLink(dir); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, seat+".lock")
	// flock creates a missing file 0600, which would lock a second user
	// out of the seat: create it as every room file is created.
	if f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, fileMode); err == nil {
		f.Close()
	}
	fl := flock.New(path)
	ok, err := fl.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock the %s seat of room %s (%s): %w", seat, r.cfg.Room, path, err)
	}
	pidFile := holderFile(path)
	if !ok {
		return nil, r.seatTaken(seat, readHolder(pidFile))
	}
	if err := writeHolder(pidFile, os.Getpid()); err != nil {
		_ = fl.Unlock()
		return nil, fmt.Errorf("write the pid of the %s seat of room %s: %w", seat, r.cfg.Room, err)
	}
	return &SeatLock{fl: fl, pid: pidFile}, nil
}

// Unlock frees the seat. It is idempotent.
func (l *SeatLock) Unlock() error {
	if l == nil || !l.fl.Locked() {
		return nil
	}
	clearHolder(l.pid)
	return l.fl.Unlock()
}

// readHolder reads the pid the holder wrote. The holder writes it just
// after taking the lock, so a reader that comes in between sees an empty
// file for a moment: it looks again briefly before giving up.
func readHolder(path string) int {
	for range 20 {
		data, err := os.ReadFile(path)
		if err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
				return pid
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	return 0
}
