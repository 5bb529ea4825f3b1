package room

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// An agent CLI started in a folder where two seats of a room are
// registered (claude mcp add, qwen mcp add --scope project, one Codex
// config) starts both seat servers: one agent would hold both seats. A
// seat server whose agent also runs another seat server of the room (its
// siblings: room/mcpserver) takes its seat only when the agent first
// calls one of its tools, and first claims the agent for the seat: one
// file per agent in the room's claims/ folder, made at most once. The
// agent then plays that seat alone; its other seat servers refuse their
// tools, and the seats stay free for the agents in other terminals.

// ClaimsDir is the folder of a room's agent claims.
func ClaimsDir(roomDir string) string { return filepath.Join(roomDir, "claims") }

// An AgentClaim is an agent claimed for one seat of a room.
type AgentClaim struct {
	Seat string `json:"seat"`
	// PID is the seat server that claimed it, the claim's owner while it
	// runs.
	PID int `json:"pid"`
}

// OtherSeatError refuses a seat to an agent claimed for another one.
type OtherSeatError struct {
	Room string
	Seat string // the seat the agent plays
}

func (e *OtherSeatError) Error() string {
	return fmt.Sprintf("this agent already plays the %s seat of room %q", e.Seat, e.Room)
}

// ClaimAgent claims the agent agent (an ID of the agent CLI's process) for
// seat, for this process: it succeeds when the agent is unclaimed, claimed
// for seat already, or claimed by a seat server that is gone; it fails
// with *OtherSeatError when a running seat server claimed it for another
// seat. release removes the claim when this process made it.
func (r *Room) ClaimAgent(agent, seat string) (release func(), err error) {
	dir := ClaimsDir(r.dir)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, fmt.Errorf("claim the agent for seat %s: %w", seat, err)
	}
	path := filepath.Join(dir, SeatFile(agent)+".json")
	mine, _ := json.Marshal(AgentClaim{Seat: seat, PID: os.Getpid()})
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
		if err == nil {
			_, werr := f.Write(append(mine, '\n'))
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				_ = os.Remove(path)
				return nil, fmt.Errorf("claim the agent for seat %s: %w", seat, werr)
			}
			return func() { removeIfOwn(path, os.Getpid()) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("claim the agent for seat %s: %w", seat, err)
		}
		var c AgentClaim
		data, rerr := os.ReadFile(path)
		if rerr == nil && json.Unmarshal(data, &c) == nil && c.PID > 0 {
			switch {
			case c.Seat == seat:
				return func() {}, nil // claimed for this seat, by a sibling of the same seat or earlier
			case processAlive(c.PID):
				return nil, &OtherSeatError{Room: r.cfg.Room, Seat: c.Seat}
			}
		}
		// A claim whose seat server is gone, or half written: take it.
		if try > 0 {
			return nil, fmt.Errorf("claim the agent for seat %s: %s keeps coming back", seat, path)
		}
		_ = os.Remove(path)
	}
}

// removeIfOwn removes the claim at path when pid made it.
func removeIfOwn(path string, pid int) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var c AgentClaim
	if json.Unmarshal(data, &c) == nil && c.PID == pid {
		_ = os.Remove(path)
	}
}

// AgentID is the ID ClaimAgent takes for the process pid started at
// start (any stable text of it, "" when unknown).
func AgentID(pid int, start string) string {
	if start == "" {
		return "agent-" + strconv.Itoa(pid)
	}
	return "agent-" + strconv.Itoa(pid) + "-" + start
}
