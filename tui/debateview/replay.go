package debateview

import (
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// NewReplay shows a debate saved as a room, read-only: its personas'
// turns in their columns, the verdict below, how it ended. st is the
// room's state, read by the caller off the Update loop.
//
// It is the room's feed read once (applyRoom, feed.go): a room still open
// is shown as it was when read.
//
// rerun, when not nil, is the same debate ready to run again (r), usually
// built with debate.ConfigFromRoom and the provider configured now.
func NewReplay(opts Options, r *room.Room, st room.State, rerun *Launch) Model {
	m := newRoomModel(opts, r, rerun)
	m.applyRoom(Snapshot{State: st})
	m.syncKeys()
	return m
}

func parseTime(s string) (t time.Time, err error) { return time.Parse(time.RFC3339Nano, s) }
