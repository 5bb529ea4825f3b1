package debateview

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/tui/internal/follow"
	"github.com/roundtable-dev/roundtable/tui/mdrender"
)

// maxBatch bounds the events one eventsMsg carries, so a frame never waits
// on an endless stream.
const maxBatch = 4096

// animEvery is the spinner's frame time; the elapsed clock moves with it.
const animEvery = 100 * time.Millisecond

// startCmd creates the room and starts the debate.
func startCmd(ctx context.Context, id int64, run int, tr *Tracker, l Launch, roomName string) tea.Cmd {
	return func() tea.Msg {
		msg, err := start(ctx, tr, l, roomName)
		msg.id, msg.run, msg.err = id, run, err
		return msg
	}
}

// readEventsCmd waits for the debate's next events (follow.Chan: the next
// one, then every event already queued behind it, so a fast stream costs
// one update per frame rather than one per token). The screen re-arms it
// after each batch.
func readEventsCmd(id int64, run int, events <-chan debate.Event) tea.Cmd {
	return follow.Cmd(context.Background(), follow.Chan(events, maxBatch), func(batch []debate.Event, err error) tea.Msg {
		return eventsMsg{id: id, run: run, events: batch, closed: err != nil}
	})
}

// renderJob is a finished text to render at a width.
type renderJob struct {
	text  string
	width int
}

// renderCmd renders finished texts into the renderer's cache, off the
// Update loop.
func renderCmd(id int64, gen int, md *mdrender.Renderer, jobs []renderJob) tea.Cmd {
	return func() tea.Msg {
		for _, j := range jobs {
			md.Render(j.text, j.width)
		}
		return renderedMsg{id: id, gen: gen}
	}
}

// after sends msg(now) after d, or nothing once ctx ends.
func after(ctx context.Context, d time.Duration, msg func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case now := <-t.C:
			return msg(now)
		case <-ctx.Done():
			return nil
		}
	}
}

func growTickCmd(ctx context.Context, id int64, d time.Duration) tea.Cmd {
	return after(ctx, d, func(time.Time) tea.Msg { return growTickMsg{id: id} })
}

func animTickCmd(ctx context.Context, id int64) tea.Cmd {
	return after(ctx, animEvery, func(now time.Time) tea.Msg { return animTickMsg{id: id, now: now} })
}
