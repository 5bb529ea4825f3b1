package app

import "github.com/roundtable-dev/roundtable/room"

// The app's own messages; the screens' messages that switch screens are
// theirs (home.OpenMsg, forms.StartMsg, debateview.BackMsg, ...).

// replayMsg is a debate room read for a replay, or why it could not be.
type replayMsg struct {
	r   *room.Room
	st  room.State
	err error
}
