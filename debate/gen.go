package debate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// A gen is one reply being generated: a goroutine runs the provider and
// queues its deltas, and the engine takes them in order. Keeping the two
// apart lets the blind opening generate every turn at once while the events
// still come out in speaking order, and lets the watchdog and the token cap
// act on the provider, not on a slow consumer.
type gen struct {
	mu        sync.Mutex
	buf       []piece
	done      bool
	usage     Usage
	err       error
	truncated bool

	ready  chan struct{} // signaled (never blocking) after each change
	cancel context.CancelCauseFunc
}

// piece is what a gen queues: a delta of the reply, the news that the
// provider is about to ask again (retry not nil), or what an agent is doing
// (activity not nil).
type piece struct {
	text     string
	retry    *Retry
	activity *Activity
}

var (
	// errCapped stops a provider that passed Config.MaxTurnTokens.
	errCapped = errors.New("token cap reached")
	// errStalled is the watchdog's cause when a provider went quiet.
	errStalled = errors.New("stalled")
)

// startGen runs p.Stream for req in a new goroutine tracked by wg. The
// watchdog cancels it when no delta (keep-alives included) arrives for
// timeout; after maxTokens deltas it is stopped and marked truncated.
func startGen(ctx context.Context, wg *sync.WaitGroup, p Provider, req Request, timeout time.Duration, maxTokens int) *gen {
	g := &gen{ready: make(chan struct{}, 1)}
	gctx, cancel := context.WithCancelCause(ctx)
	g.cancel = cancel
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer cancel(nil)
		timer := time.AfterFunc(timeout, func() { cancel(errStalled) })
		// A provider waiting to retry is alive: its notice restarts the
		// watchdog, and is queued in order with the deltas.
		req.OnRetry = func(rt Retry) {
			timer.Reset(timeout + rt.Wait)
			g.pushRetry(rt)
		}
		// An agent reading files or planning is alive too, and what it
		// does is queued in order with its words.
		req.OnActivity = func(a Activity) {
			timer.Reset(timeout)
			g.pushPiece(piece{activity: &a})
		}
		n := 0
		usage, err := p.Stream(gctx, req, func(d string) error {
			if gctx.Err() != nil {
				return context.Cause(gctx)
			}
			timer.Reset(timeout)
			if d == "" {
				return nil
			}
			if n++; n > maxTokens {
				return errCapped
			}
			g.push(d)
			return nil
		})
		timer.Stop()
		truncated := false
		if err != nil {
			switch cause := context.Cause(gctx); {
			case errors.Is(err, errCapped):
				err, truncated = nil, true
			case errors.Is(cause, errStalled):
				err = fmt.Errorf("%w: no token for %s; the provider stalled (raise --turn-timeout if the model is only slow)", ErrTurnTimeout, timeout)
			}
		}
		g.finish(usage, err, truncated)
	}()
	return g
}

func (g *gen) signal() {
	select {
	case g.ready <- struct{}{}:
	default:
	}
}

func (g *gen) push(d string) {
	g.mu.Lock()
	g.buf = append(g.buf, piece{text: d})
	g.mu.Unlock()
	g.signal()
}

func (g *gen) pushRetry(rt Retry) { g.pushPiece(piece{retry: &rt}) }

func (g *gen) pushPiece(pc piece) {
	g.mu.Lock()
	g.buf = append(g.buf, pc)
	g.mu.Unlock()
	g.signal()
}

func (g *gen) finish(u Usage, err error, truncated bool) {
	g.mu.Lock()
	g.done, g.usage, g.err, g.truncated = true, u, err, truncated
	g.mu.Unlock()
	g.signal()
}

// take returns the queued pieces and whether the reply is finished (then
// every piece has been returned). spare, a slice the caller is done with,
// becomes the new queue, so a steady stream allocates nothing.
func (g *gen) take(spare []piece) (deltas []piece, done bool) {
	g.mu.Lock()
	deltas, g.buf = g.buf, spare[:0]
	done = g.done
	g.mu.Unlock()
	return deltas, done
}

// result is the outcome of a finished gen.
func (g *gen) result() (u Usage, truncated bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.usage, g.truncated, g.err
}
