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

// LockSeat takes seat, one of the room's seats (ErrBadSeat otherwise), for
// this process, or returns a *SeatTakenError naming the process that holds
// it. Release it with Unlock. The lock is seats/<SeatFile(seat)>.lock.
func (r *Room) LockSeat(seat string) (*SeatLock, error) {
	if err := r.checkSeat(seat); err != nil {
		return nil, err
	}
	dir := SeatsDir(r.dir)
	if err := mkdirNoLink(dir); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	l, pid, err := lockHolder(seatLockFile(r.dir, seat))
	if err != nil {
		return nil, fmt.Errorf("lock the %s seat of room %s: %w", seat, r.cfg.Room, err)
	}
	if l == nil {
		return nil, r.seatTaken(seat, pid)
	}
	return l, nil
}

// lockHolder takes the flock on path for this process and writes its pid
// there. When another process holds it, it returns a nil lock and that
// process's pid (0 when it could not be read).
func lockHolder(path string) (*SeatLock, int, error) {
	// flock creates a missing file 0600, which would lock a second user
	// out of the seat: create it as every room file is created.
	if f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, fileMode); err == nil {
		f.Close()
	}
	fl := flock.New(path)
	ok, err := fl.TryLock()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	pidFile := holderFile(path)
	if !ok {
		return nil, readHolder(pidFile), nil
	}
	if err := writeHolder(pidFile, os.Getpid()); err != nil {
		_ = fl.Unlock()
		return nil, 0, fmt.Errorf("write this process's pid to %s: %w", pidFile, err)
	}
	return &SeatLock{fl: fl, pid: pidFile}, 0, nil
}

// Holder is who a lock file says holds a seat or a room's run.
type Holder struct {
	// Known is false when there is no lock file: nobody ever took it (or
	// the room was written before locks were).
	Known bool
	// PID is the process the file names; 0 when it names none (its holder
	// let it go).
	PID int
	// Live reports whether that process still runs. A holder killed
	// without unlocking leaves its pid behind, but the kernel has freed
	// its lock, so it holds nothing.
	Live bool
}

// readLock says who holds the lock at path, without taking it.
func readLock(path string) Holder {
	if _, err := os.Lstat(path); err != nil {
		return Holder{}
	}
	h := Holder{Known: true}
	data, err := os.ReadFile(holderFile(path))
	if err != nil {
		return h
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return h
	}
	h.PID = pid
	h.Live = pid == os.Getpid() || processAlive(pid)
	return h
}

// SeatHolder says who holds seat of the room in dir by its lock: a person
// at the keyboard, a `roundtable seat`, or an agent's seat server.
func SeatHolder(dir, seat string) Holder {
	if !validSeatName(seat) {
		return Holder{}
	}
	return readLock(seatLockFile(dir, seat))
}

// seatLockFile is the lock of seat in the room in dir.
func seatLockFile(dir, seat string) string {
	return filepath.Join(SeatsDir(dir), SeatFile(seat)+".lock")
}

// RunFile is the lock a debate's run holds in its room while it runs.
const RunFile = "run.lock"

// ErrRunning marks a room whose debate another live process runs.
var ErrRunning = errors.New("the debate is running")

// RunningError refuses a second run of a room's debate: PID is the
// process running it (0 when it could not be read).
type RunningError struct {
	Room string
	PID  int
}

func (e *RunningError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("room %s is still open: process %d runs its debate; stop it first (esc in its screen, or kill %d)", e.Room, e.PID, e.PID)
	}
	return fmt.Sprintf("room %s is still open: another process runs its debate; stop it first (esc in its screen)", e.Room)
}

// Unwrap makes errors.Is(err, ErrRunning) hold.
func (e *RunningError) Unwrap() error { return ErrRunning }

// LockRun takes the room's run lock for this process: the one process
// running its debate. It returns a *RunningError naming the holder when
// another process holds it. Release it with Unlock; if the
// process dies instead, the kernel frees it, and RunHolder says so.
func (r *Room) LockRun() (*SeatLock, error) {
	l, pid, err := lockHolder(filepath.Join(r.dir, RunFile))
	if err != nil {
		return nil, fmt.Errorf("lock the debate of room %s: %w", r.cfg.Room, err)
	}
	if l == nil {
		return nil, &RunningError{Room: r.cfg.Room, PID: pid}
	}
	return l, nil
}

// RunHolder says who runs the debate of the room in dir, by its run lock.
func RunHolder(dir string) Holder { return readLock(filepath.Join(dir, RunFile)) }

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
