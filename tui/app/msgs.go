package app

import (
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/tui/debateview"
)

// The app's own messages; the screens' messages that switch screens are
// theirs (home.OpenMsg, forms.StartMsg, debateview.BackMsg, ...).

// replayMsg is a debate room read for a replay, or why it could not be.
type replayMsg struct {
	r   *room.Room
	st  room.State
	err error
}

// liveMsg is a debate room another process runs, opened for the debate
// screen to follow, or why it could not be.
type liveMsg struct {
	feed debateview.RoomFeed
	err  error
}
