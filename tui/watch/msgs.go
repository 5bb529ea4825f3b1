package watch

import (
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// The watch screen's messages. Each carries the id of the screen that asked
// for it, so two screens (the home screen may open several in turn) never
// act on each other's results.

// openedMsg: the room exists; its feed is started, and st and drafts are
// what it held then; runGone: a debate room that no process runs.
type openedMsg struct {
	id      int64
	r       *room.Room
	st      room.State
	drafts  []room.Draft
	runGone bool
	err     error
	from    phase // what the screen was doing: opening or waiting
}

// waitingMsg: the room does not exist (or its room.json cannot be read yet:
// note says why); next fires when its folders change.
type waitingMsg struct {
	id   int64
	note string
	next <-chan struct{}
}

// retryMsg: something changed where the room should appear; try again.
type retryMsg struct{ id int64 }

// feedMsg is what the room's next changes touched, read off the Update
// loop: its state, its drafts, whether its debate's process is gone
// (each nil when untouched).
type feedMsg struct {
	id     int64
	state  *stateMsg
	drafts *draftsMsg
	run    *runMsg
}

// stateMsg is the room's state after a change.
type stateMsg struct {
	id  int64
	st  room.State
	err error
}

// seatsMsg is what server.log says now; sig identifies the log's content.
type seatsMsg struct {
	id    int64
	seats []room.SeatInfo
	err   error
	sig   string
}

// runMsg says whether the debate shown has lost its process (gone: the
// room is open and nothing runs it) or has one again.
type runMsg struct {
	id   int64
	gone bool
}

// tickMsg moves the clock of the elapsed time and the seats' "ago".
type tickMsg struct {
	id  int64
	gen int // the tick it answers; an earlier one, replaced, is dropped
	now time.Time
}

// specMsg is the room's spec file, read and rendered at width.
type specMsg struct {
	id       int64
	path     string
	width    int
	rendered string
	err      error
}

// DoneMsg is sent instead of quitting when the screen is embedded
// (Options.Embedded) and the user presses q: the parent screen takes over.
type DoneMsg struct{}
