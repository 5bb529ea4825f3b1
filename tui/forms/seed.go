package forms

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// seedResult is a created room and everything to paste.
type seedResult struct {
	room.SeedResult
	Topic      string
	Budget     int
	LeadAgent  string
	PeerAgent  string
	Cwd        string
	LeadPrompt string
	PeerPrompt string
	// Program starts roundtable in the commands: "roundtable", or this
	// binary's absolute path when that is not the roundtable on PATH.
	Program string
}

// seed creates the room (or opens it when it exists: room.json is never
// rewritten), writes its seat prompts and settles how the commands start
// roundtable (program, or seatcmd.Program when empty); it runs in a
// command.
func seed(cwd, name string, opt room.CreateOptions, lead, peer, program string) (seedResult, bool, error) {
	existed := false
	if _, err := room.Open(cwd, name); err == nil {
		existed = true
	} else if !errors.Is(err, room.ErrNoRoom) {
		return seedResult{}, false, err
	}
	res, err := room.Seed(cwd, name, opt)
	var closed *room.ClosedRoomError
	if errors.As(err, &closed) {
		return seedResult{}, false, err // it names the room and a free name
	}
	if err != nil {
		return seedResult{}, false, fmt.Errorf("create room %q: %w", name, err)
	}
	r, err := room.Open(cwd, name)
	if err != nil {
		return seedResult{}, existed, err
	}
	if program == "" {
		program = seatcmd.Program(exec.LookPath, os.Executable)
	}
	cfg := r.Config()
	out := seedResult{
		SeedResult: res, Topic: cfg.Topic, Budget: cfg.Budget,
		LeadAgent: lead, PeerAgent: peer, Cwd: r.Cwd(), Program: program,
	}
	for i, p := range res.Prompts {
		data, err := os.ReadFile(p)
		if err != nil {
			return out, existed, fmt.Errorf("read the prompt %s: %w", p, err)
		}
		if i == 0 {
			out.LeadPrompt = string(data)
		} else {
			out.PeerPrompt = string(data)
		}
	}
	return out, existed, nil
}

// seat is one seat of the room as its server is started.
func (res seedResult) seat(seat string) seatcmd.Seat {
	agent := res.LeadAgent
	if seat == room.SeatPeer {
		agent = res.PeerAgent
	}
	return seatcmd.Seat{
		Program: res.Program, Room: res.Room, Seat: seat, Agent: agent,
		Topic: res.Topic, Budget: res.Budget, Spec: res.Spec, Cwd: res.Cwd,
	}
}
