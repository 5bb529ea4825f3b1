package mcpserver

import (
	"os"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// A seat server's siblings are the other seat servers of its room that
// the same agent CLI started (processes with the same parent, whose
// arguments name the room): an agent started in a folder where two seats
// are registered starts both (room.ClaimAgent says what then happens).

// argsSeat is the room and seat a seat server's arguments name ("" when
// they name none: not a seat server, or one of the flags missing).
func argsSeat(args []string) (roomName, seat string) {
	for i, a := range args {
		for _, f := range []struct {
			name string
			dst  *string
		}{{"--room", &roomName}, {"--seat", &seat}} {
			if v, ok := strings.CutPrefix(a, f.name+"="); ok {
				*f.dst = v
			} else if a == f.name && i+1 < len(args) {
				*f.dst = args[i+1]
			}
		}
	}
	if roomName == "" || seat == "" {
		return "", ""
	}
	return roomName, seat
}

// agentOf is this process's agent (its parent) as room.AgentID takes it,
// and whether the agent runs another seat server of roomName than seat.
func agentOf(roomName, seat string) (agent string, siblings bool) {
	ppid := os.Getppid()
	if ppid <= 1 {
		return "", false // no agent: started by init, or detached
	}
	procs, start := children(ppid)
	for _, args := range procs {
		if r, s := argsSeat(args); r == roomName && s != "" && s != seat {
			siblings = true
		}
	}
	return room.AgentID(ppid, start), siblings
}
