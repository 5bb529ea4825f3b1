package debateview

import (
	"context"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// The screen's messages. Each carries the id of the screen (and, for a
// debate's events, of the run) that asked for it, so two screens, or a
// debate and the one run again after it, never act on each other's results.

// startedMsg: the room was created and the engine is running; events is
// its recorded event stream (debate.Record), cancel stops it.
type startedMsg struct {
	id       int64
	run      int
	room     *room.Room
	cfg      debate.Config
	events   <-chan debate.Event
	cancel   context.CancelFunc
	sess     *debate.Session // for the person's notes (Interject, Continue)
	provider string          // the provider label, as resolved; empty: unchanged
	err      error
}

// eventsMsg is every event that was queued when the reader woke up, in
// order; closed reports that the stream ended after them.
type eventsMsg struct {
	id     int64
	run    int
	events []debate.Event
	closed bool
}

// renderedMsg: the finished texts asked for are now in the renderer's
// cache at the widths asked for.
type renderedMsg struct {
	id  int64
	gen int
}

// growTickMsg: time to render the growing turn again.
type growTickMsg struct {
	id int64
}

// animTickMsg moves the spinner and the elapsed-time clock.
type animTickMsg struct {
	id  int64
	now time.Time
}

// BackMsg asks the parent screen to take over again, when the screen is
// embedded (Options.Embedded): sent by esc when no debate is running, and
// by q (once a running debate is stopped and saved).
type BackMsg struct{}
