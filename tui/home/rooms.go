package home

import (
	"fmt"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
)

// Room modes as the list shows them.
const (
	ModeDebate = "debate"
	ModeMCP    = "MCP"
)

// Room is one room of the list: what its room.json and its files say now.
// Every string comes from files other processes write: show it through
// mdrender.Inline.
type Room struct {
	Name   string
	Mode   string // ModeDebate or ModeMCP
	Topic  string
	Closed bool
	// Reason is closed.json's reason ("complete", "cancelled", "failed:
	// ..." for debates; the agents' words for MCP rooms).
	Reason string
	// Used and Budget are rounds: held of planned for a debate, lead posts
	// of the budget for an MCP room.
	Used, Budget int
	Messages     int
	// Last is the room's last activity: its newest message, its closing,
	// or its creation.
	Last time.Time
	// Err says why the room could not be read; the other fields may be
	// partial.
	Err string
	// Junk: unreadable, or no message and closed or long unused (isJunk).
	Junk bool
	// Abandoned: an open debate whose process is gone (its run lock free):
	// opening it closes it as failed, and R resumes it.
	Abandoned bool
	// Paused: an open debate waiting between two rounds for its person.
	Paused bool
}

// Status is a one-word state: open, paused, closed, done, stopped, failed
// or junk.
func (r Room) Status() string {
	switch {
	case r.failedEmpty():
		return "failed" // junk, but why it failed is worth a look
	case r.Junk:
		return "junk"
	case !r.Closed && r.Abandoned:
		return "failed"
	case !r.Closed && r.Paused:
		return "paused"
	case !r.Closed:
		return "open"
	case r.Mode != ModeDebate:
		return "closed"
	case debate.IsComplete(r.Reason):
		return "done"
	case r.Reason == debate.ReasonCancelled:
		return "stopped"
	case strings.HasPrefix(r.Reason, "failed"):
		return "failed"
	}
	return "closed"
}

// List reads every room under cwd/.roundtable through the store
// (room.List), newest activity first (then by name). A folder without
// room.json is not a room and is left out; a room that cannot be read is
// listed with Err set. No .roundtable folder is an empty list, not an
// error.
func List(cwd string) ([]Room, error) {
	sums, err := room.List(cwd)
	if err != nil {
		return nil, err
	}
	out := make([]Room, len(sums))
	for i, s := range sums {
		out[i] = fromSummary(s)
		if s.Debate && !s.Closed && s.Err == nil {
			// An open debate's run lock says whether a process still runs
			// it: one killed outright leaves the room open.
			out[i].Abandoned = !room.RunHolder(room.Dir(cwd, s.Name)).Live
		}
	}
	return out, nil
}

// fromSummary is a room of the list from the store's summary, with its
// problems worded for the screen.
func fromSummary(s room.Summary) Room {
	r := Room{
		Name: s.Name, Mode: ModeMCP, Topic: s.Topic, Closed: s.Closed, Reason: s.Reason,
		Used: s.Used, Budget: s.Budget, Messages: s.Messages, Last: s.Last, Paused: s.Paused,
	}
	if s.Debate {
		r.Mode = ModeDebate
	}
	switch {
	case s.Err != nil:
		r.Err = s.Err.Error()
	case s.Skipped > 0:
		r.Err = fmt.Sprintf("%d message files could not be read", s.Skipped)
	}
	return r
}

// failedEmpty reports a debate that failed before anything was said (a
// provider refusing its first request): junk, but its status and hint say
// it failed, so the reason (enter shows it) is not taken for nothing.
func (r Room) failedEmpty() bool {
	return r.Junk && r.Err == "" && r.Closed && r.Mode == ModeDebate && strings.HasPrefix(r.Reason, "failed")
}
