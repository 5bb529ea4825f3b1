package room

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestSeatLockOnePlayerPerSeat(t *testing.T) {
	r, _, err := Create(t.TempDir(), "locked", CreateOptions{Topic: "Locks", Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	first, err := r.LockSeat(SeatPeer)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to an open file, so a second lock from this
	// process conflicts as one from another process would.
	_, err = r.LockSeat(SeatPeer)
	var taken *SeatTakenError
	if !errors.As(err, &taken) || !errors.Is(err, ErrSeatTaken) {
		t.Fatalf("second lock of the peer seat: %v, want a SeatTakenError", err)
	}
	if taken.PID != os.Getpid() || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), "stop it first") {
		t.Fatalf("refusal %q (pid %d) does not name pid %d", err, taken.PID, os.Getpid())
	}
	lead, err := r.LockSeat(SeatLead)
	if err != nil {
		t.Fatalf("the lead seat is free but: %v", err)
	}
	if _, err := r.LockSeat("moderator"); !errors.Is(err, ErrBadSeat) {
		t.Fatalf("lock of seat moderator: %v, want ErrBadSeat", err)
	}
	if err := first.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := first.Unlock(); err != nil {
		t.Fatalf("second unlock: %v", err)
	}
	again, err := r.LockSeat(SeatPeer)
	if err != nil {
		t.Fatalf("the peer seat after unlock: %v", err)
	}
	_ = again.Unlock()
	_ = lead.Unlock()
	st, err := r.Refresh()
	if err != nil || len(st.Messages) != 0 || len(st.NewSkipped) != 0 {
		t.Fatalf("seat locks touched the messages: %+v %v", st, err)
	}
}
