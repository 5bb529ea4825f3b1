package home

import "time"

// The home screen's messages. Each carries the id of the screen that asked
// for it, so a screen opened again never acts on the old one's results.

// roomsMsg is the list as read now, or the error reading it.
type roomsMsg struct {
	id    int64
	rooms []Room
	err   error
	at    time.Time
}

// changedMsg: something changed under .roundtable; read the list again.
type changedMsg struct{ id int64 }

// OpenMsg asks the parent to open a room: a finished debate as a replay,
// an MCP room (or a debate still running) in the watch screen.
type OpenMsg struct{ Room Room }

// NewDebateMsg asks the parent for the new-debate form.
type NewDebateMsg struct{}

// NewRoomMsg asks the parent for the new-MCP-room form.
type NewRoomMsg struct{}
