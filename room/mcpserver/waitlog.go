package mcpserver

import (
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// logWaitReturn writes when and why a wait_for_message call returned, so
// that a reader of server.log can tell a seat that listens from one that
// is thinking. It runs before the reply is sent, so the line precedes the
// seat's next call. The line has no tool or agent field: the original
// server's `seats` counts lines with a tool field as calls.
func (s *Seat) logWaitReturn(start time.Time, reason string) {
	s.log(room.EventWaitReturn,
		room.F("seat", s.opt.Seat),
		room.F("reason", reason),
		room.F("waited_ms", time.Since(start).Milliseconds()))
}
