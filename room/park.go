package room

import (
	"context"
	"time"
)

// Park is the one park-until-my-turn loop, shared by the MCP seat server's
// wait_for_message and a seat roundtable plays (debate.SeatGame): it reads
// the room (read), asks ready whether the waiting seat can go on, and if not
// waits for the notifier's next change and reads again. Taking the change
// channel before reading means no change in between is missed.
//
// It returns the state ready accepted with reason WaitMessage (or
// WaitClosed when the room is closed: ready is asked first, so it decides
// what a closed room means to it); WaitIdle when opts.Timeout passed or
// opts.Stop closed; WaitCancelled when ctx ended (with ctx's cause);
// WaitFailed when the room could not be read. The state returned is the
// last one read.
func Park(ctx context.Context, n *Notifier, read func() (State, error), ready func(State) bool, opts ParkOptions) (State, string, error) {
	var timeout <-chan time.Time
	if opts.Timeout > 0 {
		t := time.NewTimer(opts.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var tick <-chan time.Time
	if opts.OnTick != nil && opts.Every > 0 {
		t := time.NewTicker(opts.Every)
		defer t.Stop()
		tick = t.C
	}
	for first := true; ; first = false {
		changed := n.Changed()
		st, err := read()
		if err != nil {
			return st, WaitFailed, err
		}
		if ready(st) {
			if st.Closed != nil {
				return st, WaitClosed, nil
			}
			return st, WaitMessage, nil
		}
		if first && opts.OnPark != nil {
			opts.OnPark()
		}
		for waiting := true; waiting; {
			select {
			case <-changed:
				waiting = false
			case <-timeout:
				return st, WaitIdle, nil
			case <-opts.Stop:
				return st, WaitIdle, nil
			case <-ctx.Done():
				return st, WaitCancelled, context.Cause(ctx)
			case <-tick:
				opts.OnTick()
			}
		}
	}
}

// ParkOptions are what a Park may do besides waking on a change.
type ParkOptions struct {
	Timeout time.Duration   // return WaitIdle after it; 0: no timeout
	Stop    <-chan struct{} // return WaitIdle when it closes (a host shutting down)
	OnPark  func()          // called once, when the seat first has to wait
	OnTick  func()          // called every Every while parked (progress)
	Every   time.Duration
}
