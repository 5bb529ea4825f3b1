package debate

import (
	"context"

	"github.com/roundtable-dev/roundtable/room"
)

// followRun is the event stream a Session hands its front ends: the
// debate as its room holds it (FollowStore), not the engine's own events,
// so a screen in this process draws exactly what one in another process,
// or on another machine, draws from the same room. raw is the recorded
// engine stream (Record), started by start once the room is read; it is
// read to its end here, and gives the one thing the store does not hold:
// the final event, with its cause (Event.Err) for errors.Is; when the
// room could not be saved (ErrSave) the store never shows an end.
//
// A resumed run (resumed) sends session_start, then only what the run
// adds: its screen already shows the room's history.
//
// The returned stream ends after raw has: once it is closed the debate is
// saved and every agent stopped, as Session.Events promises. A room that
// cannot be followed (its folder unreadable) is an error, and nothing is
// started: every event comes from the room.
func followRun(r *room.Room, resumed bool, start func() <-chan Event) (<-chan Event, error) {
	// The feed's watch lives until the stream ends; ctx ends the waits
	// on it first, so the last look still reads a watched room.
	watchCtx, stopWatch := context.WithCancel(context.Background())
	follow, first, err := FollowStore(watchCtx, r)
	if err != nil {
		stopWatch()
		return nil, err
	}
	// The run starts once the room is read: what it writes is all news.
	raw := start()
	if resumed {
		first = first[:1]
		follow.r.t.round = 0 // the resumed round starts again
	}
	ctx, cancel := context.WithCancel(watchCtx)
	out := make(chan Event, eventBuffer)

	// The reader delivers every batch it read: after a cancel, the loop
	// below takes batches until the reader is done. A room it cannot read
	// any more ends it: the last look, or the engine's final event, says
	// the rest.
	batches := make(chan []Event)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			evs, err := follow.Next(ctx)
			if err != nil {
				return
			}
			batches <- evs
			if follow.Ended() {
				return
			}
		}
	}()

	ended := make(chan Event, 1)
	go func() {
		var final Event
		for ev := range raw {
			if ev.IsTerminal() {
				final = ev
			}
		}
		ended <- final
	}()

	go func() {
		defer close(out)
		defer stopWatch()
		defer follow.Close()
		defer cancel()
		for _, ev := range first {
			out <- ev
		}
		// The final event is the engine's own (the same ending, with its
		// cause in Err); the store's stands in only if the engine sent
		// none.
		var storeFinal *Event
		take := func(evs []Event) {
			for _, ev := range evs {
				if ev.IsTerminal() {
					storeFinal = &ev
					continue
				}
				out <- ev
			}
		}
		for {
			select {
			case b := <-batches:
				take(b)
			case final := <-ended:
				cancel()
				for draining := true; draining; {
					select {
					case b := <-batches:
						take(b)
					case <-readerDone:
						draining = false
					}
				}
				// The last look: everything the run saved is on disk now.
				if storeFinal == nil {
					if evs, err := follow.Poll(); err == nil {
						take(evs)
					}
				}
				switch {
				case final.Type != "":
					out <- final
				case storeFinal != nil:
					out <- *storeFinal
				}
				return
			}
		}
	}()
	return out, nil
}
