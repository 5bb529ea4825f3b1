package room

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestRunLock: one run of a room's debate at a time; the lock says who
// holds it while held, and nobody once let go.
func TestRunLock(t *testing.T) {
	r, _, err := Create(t.TempDir(), "run", CreateOptions{Topic: "Runs", Budget: 2, Mode: ModeDebate})
	if err != nil {
		t.Fatal(err)
	}
	if h := RunHolder(r.Dir()); h.Known || h.Live {
		t.Fatalf("a room never run: %+v", h)
	}
	l, err := r.LockRun()
	if err != nil {
		t.Fatal(err)
	}
	if h := RunHolder(r.Dir()); !h.Live || h.PID != os.Getpid() {
		t.Fatalf("while held: %+v", h)
	}
	_, err = r.LockRun()
	var running *RunningError
	if !errors.As(err, &running) || !errors.Is(err, ErrRunning) || running.PID != os.Getpid() {
		t.Fatalf("a second run: %v, want a RunningError naming pid %d", err, os.Getpid())
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if h := RunHolder(r.Dir()); !h.Known || h.Live || h.PID != 0 {
		t.Fatalf("let go: %+v", h)
	}
}

// TestSeatsGoneFromTheLock: a roundtable seat parked in server.log is
// disconnected for readers once its lock names no live holder (killed:
// its pid left behind, the process gone), and parked while it does.
func TestSeatsGoneFromTheLock(t *testing.T) {
	r, _, err := Create(t.TempDir(), "gone", CreateOptions{Topic: "Gone", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	holder := exec.Command("sleep", "60")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Process.Kill() }()
	pid := holder.Process.Pid
	if err := os.MkdirAll(SeatsDir(r.Dir()), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(SeatsDir(r.Dir()), "peer.lock"), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = r.Log(EventConnect, F("seat", "peer"), F("agent", PlayedPrefix+"mock"), F("pid", pid), F("waits", WaitsLogged))
	_ = r.Log(EventCall, F("seat", "peer"), F("tool", WaitTool))
	peer := func() SeatInfo {
		seats, err := ReadSeats(r.Dir())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range seats {
			if s.Seat == SeatPeer {
				return s
			}
		}
		t.Fatal("no peer seat")
		return SeatInfo{}
	}
	if s := peer(); s.State != StateParked {
		t.Fatalf("a live roundtable seat: %q", s.State)
	}
	_ = holder.Process.Kill()
	_ = holder.Wait()
	if s := peer(); s.State != StateDisconnected {
		t.Errorf("a killed roundtable seat: %q, want %q", s.State, StateDisconnected)
	}
	// A lock let go (emptied) by another holder since: gone too.
	if err := os.WriteFile(filepath.Join(SeatsDir(r.Dir()), "peer.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if s := peer(); s.State != StateDisconnected {
		t.Errorf("a roundtable seat whose lock is free: %q", s.State)
	}
}
