package debate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// Play plays the seat until the room closes (nil), ctx ends (a
// *StoppedError) or something fails. It follows an MCP seat's rules and
// leaves the same server.log lines, so `roundtable seats` and watch show
// it: connect, a wait_for_message call per turn (the lead's first turn
// excepted, as an MCP lead posts its brief at once) with its wait_return,
// one post per turn, and for the lead write_spec and close_room once the
// budget is spent or it has converged; disconnect when it stops.
func (g *SeatGame) Play(ctx context.Context) (err error) {
	n := room.Watch(ctx, g.r)
	defer n.Close()
	seat := g.s.Seat
	hold, err := g.r.HoldLocked(seat, g.lock, room.HoldOptions{
		Agent: g.label, Fields: []room.Field{room.F("waits", room.WaitsLogged)}, Lenient: true,
	})
	if err != nil {
		return err
	}
	defer func() {
		// Whatever stops the seat, its half-written turn is not left to
		// look like one in progress.
		_ = g.r.ClearDraft(seat)
		_ = hold.Release()
		if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled) || errors.Is(err, ctx.Err())) {
			err = &StoppedError{Msg: fmt.Sprintf("stopped: the %s seat of room %s is free again; nothing half-written was posted", seat, g.r.Config().Room)}
		}
	}()
	st, err := g.r.Refresh()
	if err != nil {
		return err
	}
	first, converged := true, false
	for {
		if st.Closed != nil {
			return nil
		}
		// Every turn starts with a wait, which returns at once when the
		// turn is already the seat's, except an empty room's first: the
		// lead posts its brief straight away.
		if !first || seat != room.SeatLead || len(st.Messages) > 0 {
			if st, err = g.wait(ctx, n); err != nil {
				return err
			}
			if st.Closed != nil {
				return nil
			}
		}
		first = false
		switch {
		case seat == room.SeatLead && converged:
			return g.close(ctx, st, "agreement reached")
		case seat == room.SeatLead && st.OutOfBudget:
			return g.close(ctx, st, "budget spent")
		}
		purpose := PurposeSeatPeer
		if seat == room.SeatLead {
			purpose = PurposeSeatLead
		}
		// A small model now and then ends its reply at once (or after
		// the kind line): the seat asks again before it gives up.
		var kind, body string
		var closeAfter bool
		var act []room.Activity
		for attempt := 0; ; attempt++ {
			text, a, err := g.compose(ctx, purpose, st, attempt)
			if err != nil {
				if attempt < emptyRetries && errors.Is(err, errNothingSaid) {
					// An agent that failed before saying anything is asked
					// again; the person running the seat sees why it waits.
					var refused *turnRefusedError
					if g.s.Stderr != nil && errors.As(err, &refused) {
						fmt.Fprintf(g.s.Stderr, "roundtable: %s before saying anything; asking again (try %d of %d)\n",
							strings.TrimSuffix(refused.Error(), "."), attempt+2, emptyRetries+1)
					}
					continue
				}
				return err
			}
			kind, body, closeAfter = parsePost(seat, text)
			act = a
			if body != "" || closeAfter || attempt >= emptyRetries {
				break
			}
		}
		if body != "" {
			g.call("post")
			_, st, err = g.r.PostMessage(room.Post{Seat: seat, Agent: g.label, Kind: kind, Text: body, Activity: act})
			_ = g.r.ClearDraft(seat)
			if errors.Is(err, room.ErrClosed) {
				return nil // the room ended while the seat composed
			}
			if err != nil {
				return fmt.Errorf("post to room %s: %w", g.r.Config().Room, err)
			}
			g.posted(kind, body, st)
		} else if !closeAfter {
			_ = g.r.ClearDraft(seat)
			return fmt.Errorf("the %s's %s sent an empty reply %d times in a row; nothing was posted (run roundtable seat again to retry)", seat, g.p.Model(), emptyRetries+1)
		}
		if closeAfter && body == "" {
			return g.close(ctx, st, "agreement reached")
		}
		// A lead that converged hears the peer's last word before it
		// writes the spec, as it does when the budget is spent: the spec's
		// dissent is the peer's own.
		converged = closeAfter
	}
}

// wait parks until it is the seat's turn or the room closes, on the
// room's change notifications, logged as an MCP seat's wait_for_message.
func (g *SeatGame) wait(ctx context.Context, n *room.Notifier) (room.State, error) {
	g.call(room.WaitTool)
	// The seat is about to sit idle for the other seat's whole turn,
	// minutes with a real model: give the garbage of start-up and of the
	// turn just composed (prompts, the reply, HTTP buffers) back to the
	// system now, rather than keep it resident until the scavenger gets to
	// it. One collection per turn costs a few milliseconds.
	debug.FreeOSMemory()
	start := time.Now()
	turn, told := "", false // whose turn it is, as last read; the lone seat said
	opts := room.ParkOptions{}
	if g.s.Progress != nil {
		opts.Every = cmp.Or(g.s.AloneAfter, DefaultAloneAfter)
		opts.OnTick = func() {
			if !told && turn != "" && !g.seatLive(turn) {
				told = true
				g.sayEmpty(turn)
			}
		}
	}
	st, reason, err := room.Park(ctx, n, g.r.State, func(st room.State) bool {
		turn = st.Turn
		return st.Closed != nil || st.Turn == g.s.Seat
	}, opts)
	g.log(room.EventWaitReturn, room.F("seat", g.s.Seat), room.F("reason", reason), room.F("waited_ms", time.Since(start).Milliseconds()))
	return st, err
}

// sayEmpty says, on Progress, that the seat whose turn it is has been
// taken by nobody, and how to fill it: the line that plays it, for a seat
// played alone; for a council's seats, which wait together, once between
// them, pointing to the setup printed above.
func (g *SeatGame) sayEmpty(seat string) {
	if g.s.council != nil {
		if g.s.council.first(seat) {
			g.progress("the %s seat is still empty: start it as the setup above says\n", seat)
		}
		return
	}
	argv := []string{cmp.Or(g.s.Exe, seatcmd.DefaultProgram), "seat", "--room", g.r.Config().Room, "--seat", seat, "--provider", "mock"}
	if wd, err := os.Getwd(); err != nil || wd != g.r.Cwd() {
		argv = append(argv, "--cwd", g.r.Cwd())
	}
	g.progress("%s waits for the %s seat, which nobody has taken: play it with %s (or another model or agent), or connect an agent to it\n",
		g.s.Seat, seat, seatcmd.Shell(argv))
}

// seatLive reports whether server.log shows seat connected, by a process
// that still runs (a seat played here, a person, an agent's server); a log
// that cannot be read counts as live, so nothing is said on a guess.
func (g *SeatGame) seatLive(seat string) bool {
	live, err := room.LiveSeats(g.r.Dir())
	if err != nil {
		return true
	}
	return slices.ContainsFunc(live, func(si room.SeatInfo) bool { return si.Seat == seat })
}

// emptyRetries is how many times a seat asks again after an empty reply,
// or after its agent failed the turn before saying anything.
const emptyRetries = 2

// errNothingSaid marks a turn that failed before a word of it came: an
// agent's model whose stream ended empty, which asking again may mend.
var errNothingSaid = errors.New("nothing said")

// nothingSaid is err, marked errNothingSaid without a change of wording.
type nothingSaid struct{ error }

func (e nothingSaid) Unwrap() error      { return e.error }
func (nothingSaid) Is(target error) bool { return target == errNothingSaid }

// close asks the lead's mind for the spec, writes it where the room says
// and closes the room.
func (g *SeatGame) close(ctx context.Context, st room.State, reason string) error {
	g.progress("%s is writing the spec (%s)\n", g.s.Seat, reason)
	var text string
	for attempt := 0; ; attempt++ {
		t, _, err := g.compose(ctx, PurposeSeatSpec, st, attempt)
		if err != nil {
			return err
		}
		text = t
		if strings.TrimSpace(text) != "" || attempt >= emptyRetries {
			break
		}
	}
	g.call("write_spec")
	if _, err := g.r.WriteSpec(strings.TrimSpace(text) + "\n"); err != nil {
		_ = g.r.ClearDraft(g.s.Seat)
		return fmt.Errorf("write the spec of room %s: %w", g.r.Config().Room, err)
	}
	_ = g.r.ClearDraft(g.s.Seat)
	g.call("close_room")
	if _, err := g.r.Close(room.CloseOptions{Reason: reason, RequireSpec: true}); err != nil && !errors.Is(err, room.ErrClosed) {
		return fmt.Errorf("close room %s: %w", g.r.Config().Room, err)
	}
	return nil
}

// posted says what the seat posted, in the room st is after the post.
func (g *SeatGame) posted(kind, body string, st room.State) {
	budget := g.r.Config().Budget
	if kind == room.KindPass {
		g.progress("%s passes in round %d of %d\n", g.s.Seat, st.Round, budget)
		return
	}
	g.progress("%s posted its %s in round %d of %d (%d words)\n", g.s.Seat, kind, st.Round, budget, len(strings.Fields(body)))
}

// progress writes a line of the seat's progress, when it is wanted.
func (g *SeatGame) progress(format string, args ...any) {
	if g.s.Progress != nil {
		fmt.Fprintf(g.s.Progress, format, args...)
	}
}

// compose streams the mind's reply, keeping the seat's draft up to date
// (at most one write per DraftEvery, the latest text always written), and
// returns the whole reply. A failed reply posts nothing.
func (g *SeatGame) compose(ctx context.Context, purpose Purpose, st room.State, attempt int) (string, []room.Activity, error) {
	req, err := g.seatRequest(purpose, st, attempt)
	if err != nil {
		return "", nil, err
	}
	// What an agent did while composing (files read, refusals) goes with
	// the post as metadata, as a debate turn's does, never into its text.
	var act []room.Activity
	write := g.r.WriteDraft
	if purpose == PurposeSeatSpec {
		// The spec is no turn: a draft would read as one (a round past
		// the budget, in the lead's column), and could outlive the close.
		write = func(room.Draft) error { return nil }
	}
	d := newDrafter(write, room.Draft{Seat: g.s.Seat, Agent: g.label, StartedAt: time.Now()}, g.s.DraftEvery)
	var wg sync.WaitGroup
	gn := startGen(ctx, &wg, g.p, req, g.s.TurnTimeout, g.cap)
	var text strings.Builder
	var spare []piece
	for {
		<-gn.ready
		pieces, done := gn.take(spare)
		for _, p := range pieces {
			text.WriteString(p.text)
			if p.activity != nil && len(act) < maxSavedActivity {
				act = append(act, room.Activity{Kind: p.activity.Kind, Text: p.activity.Text})
			}
		}
		if len(pieces) > 0 {
			d.set(text.String())
		}
		spare = pieces
		if done {
			break
		}
	}
	wg.Wait()
	d.stop()
	_, _, err = gn.result()
	if err != nil {
		_ = g.r.ClearDraft(g.s.Seat)
		if ctx.Err() != nil {
			return "", nil, context.Cause(ctx)
		}
		var refused *turnRefusedError
		if strings.TrimSpace(text.String()) == "" && errors.As(err, &refused) {
			err = nothingSaid{err}
		}
		return "", nil, fmt.Errorf("the %s's %s failed: %w; nothing was posted (run roundtable seat again to retry)", g.s.Seat, g.p.Model(), err)
	}
	return text.String(), act, nil
}

// call logs a tool call as an MCP seat's would be.
func (g *SeatGame) call(tool string) {
	g.log(room.EventCall, room.F("seat", g.s.Seat), room.F("tool", tool))
}

func (g *SeatGame) log(event string, fields ...room.Field) {
	// server.log is for diagnosis: a failed write must not stop the seat.
	_ = g.r.Log(event, fields...)
}

// drafter writes a seat's draft from its own goroutine, so a fast stream
// is never slowed by the disk: set records the latest text, and the
// goroutine writes it at most once per interval, always ending on the
// latest.
type drafter struct {
	write func(room.Draft) error
	every time.Duration
	wake  chan struct{}
	done  chan struct{}
	quit  chan struct{}

	mu    sync.Mutex
	d     room.Draft
	dirty bool
}

func newDrafter(write func(room.Draft) error, d room.Draft, every time.Duration) *drafter {
	w := &drafter{write: write, every: every, d: d, wake: make(chan struct{}, 1), done: make(chan struct{}), quit: make(chan struct{})}
	go w.run()
	return w
}

func (w *drafter) set(text string) {
	w.mu.Lock()
	w.d.Text, w.dirty = text, true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// stop writes what is pending and ends the goroutine.
func (w *drafter) stop() {
	close(w.quit)
	<-w.done
}

func (w *drafter) flush() {
	w.mu.Lock()
	d, dirty := w.d, w.dirty
	w.dirty = false
	w.mu.Unlock()
	if dirty {
		_ = w.write(d) // a draft is a view: failing to write one is not failing the turn
	}
}

func (w *drafter) run() {
	defer close(w.done)
	t := time.NewTimer(0)
	<-t.C
	for {
		select {
		case <-w.quit:
			w.flush()
			return
		case <-w.wake:
		}
		w.flush()
		t.Reset(w.every)
		select {
		case <-w.quit:
			t.Stop()
			w.flush()
			return
		case <-t.C:
		}
	}
}
