package room

import (
	"os"
	"strings"
	"testing"
)

// TestSharedHoldsKeepTheLockUntilTheLast: holds of one seat through one
// SharedLocks (a host's sessions of one token) write a connect line each
// and share one lock; the lock is let go after the last disconnect line,
// not the first.
func TestSharedHoldsKeepTheLockUntilTheLast(t *testing.T) {
	r := newPersonRoom(t, "shared")
	var locks SharedLocks
	opt := HoldOptions{Agent: "remote", MarkLock: true, Shared: &locks}
	a, err := r.HoldSeat(SeatPeer, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.HoldSeat(SeatPeer, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Locked() || !b.Locked() {
		t.Fatalf("two shared holds: locked %v and %v, want both", a.Locked(), b.Locked())
	}
	held := func() bool {
		l, err := r.LockSeat(SeatPeer)
		if err != nil {
			return true
		}
		_ = l.Unlock()
		return false
	}
	if !held() {
		t.Fatal("the seat's lock is free while two holds share it")
	}
	if err := a.Release(F("why", "first")); err != nil {
		t.Fatal(err)
	}
	if !held() {
		t.Fatal("the first release let the lock go while a second hold shares it")
	}
	if si := personSeat(t, r, SeatPeer); si.PID != os.Getpid() {
		t.Fatalf("after one of two releases the seat reads %+v, want still held by pid %d", si, os.Getpid())
	}
	if err := b.Release(F("why", "second")); err != nil {
		t.Fatal(err)
	}
	if held() {
		t.Fatal("the lock is still held after the last shared hold let go")
	}
	// A second release does nothing: the count does not go below zero
	// and a later hold takes the lock afresh.
	_ = b.Release()
	c, err := r.HoldSeat(SeatPeer, opt)
	if err != nil || !c.Locked() {
		t.Fatalf("a hold after all were released: %v, locked %v", err, c != nil && c.Locked())
	}
	defer c.Release()
	data, err := os.ReadFile(r.Dir() + "/" + LogFile)
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	if n := strings.Count(log, "lock=held"); n != 3 {
		t.Errorf("%d connect lines say lock=held, want 3 (one per hold):\n%s", n, log)
	}
	if first, second := strings.Index(log, "why=first"), strings.Index(log, "why=second"); first < 0 || second < first {
		t.Errorf("the disconnect lines are not both there in order:\n%s", log)
	}
}
