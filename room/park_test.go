package room

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestPark: the one park loop returns at once when the seat can go on,
// wakes on a post by another handle on the room, says idle after its
// timeout or its stop, cancelled with the context's cause, and closed for
// a closed room; it tells the caller once that it parked, and ticks.
func TestPark(t *testing.T) {
	cwd := t.TempDir()
	r, _, err := Create(cwd, "park", CreateOptions{Topic: "t", Budget: 4})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	n := Watch(ctx, r)
	defer n.Close()
	peerTurn := func(st State) bool { return st.Closed != nil || st.Turn == SeatPeer }

	// The lead's turn: the peer parks until the lead posts (another handle).
	var parked, ticks atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		other, err := Open(cwd, "park")
		if err != nil {
			t.Error(err)
			return
		}
		if _, _, err := other.PostMessage(Post{Seat: SeatLead, Agent: "a", Text: "brief"}); err != nil {
			t.Error(err)
		}
	}()
	st, why, err := Park(ctx, n, r.Refresh, peerTurn, ParkOptions{
		OnPark: func() { parked.Add(1) }, OnTick: func() { ticks.Add(1) }, Every: 10 * time.Millisecond,
	})
	<-done
	if err != nil || why != WaitMessage || st.Turn != SeatPeer || len(st.Messages) != 1 {
		t.Fatalf("parked for the lead's post: %q, turn %q, %d messages, %v", why, st.Turn, len(st.Messages), err)
	}
	if parked.Load() != 1 || ticks.Load() == 0 {
		t.Errorf("OnPark called %d times (want 1), OnTick %d (want some)", parked.Load(), ticks.Load())
	}

	// Already the peer's turn: at once, without parking.
	parked.Store(0)
	if _, why, _ := Park(ctx, n, r.Refresh, peerTurn, ParkOptions{OnPark: func() { parked.Add(1) }}); why != WaitMessage || parked.Load() != 0 {
		t.Errorf("ready at once: %q, parked %d times", why, parked.Load())
	}

	leadTurn := func(st State) bool { return st.Closed != nil || st.Turn == SeatLead }
	if _, why, err := Park(ctx, n, r.Refresh, leadTurn, ParkOptions{Timeout: 50 * time.Millisecond}); why != WaitIdle || err != nil {
		t.Errorf("timeout: %q, %v; want idle", why, err)
	}
	stop := make(chan struct{})
	close(stop)
	if _, why, _ := Park(ctx, n, r.Refresh, leadTurn, ParkOptions{Stop: stop}); why != WaitIdle {
		t.Errorf("stop: %q; want idle", why)
	}
	cause := errors.New("hung up")
	cctx, cancel := context.WithCancelCause(ctx)
	cancel(cause)
	if _, why, err := Park(cctx, n, r.Refresh, leadTurn, ParkOptions{}); why != WaitCancelled || !errors.Is(err, cause) {
		t.Errorf("cancelled: %q, %v; want cancelled with the cause", why, err)
	}
	failed := errors.New("unreadable")
	if _, why, err := Park(ctx, n, func() (State, error) { return State{}, failed }, leadTurn, ParkOptions{}); why != WaitFailed || !errors.Is(err, failed) {
		t.Errorf("read error: %q, %v; want error", why, err)
	}
	if _, err := r.Close(CloseOptions{Reason: "done"}); err != nil {
		t.Fatal(err)
	}
	if st, why, _ := Park(ctx, n, r.Refresh, leadTurn, ParkOptions{}); why != WaitClosed || st.Closed == nil {
		t.Errorf("closed room: %q; want closed", why)
	}
}
