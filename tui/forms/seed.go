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
	Topic  string
	Budget int
	// Seats are the room's seats in turn order; Agents labels each (the
	// agent the user starts, or what roundtable plays it with), and
	// PromptTexts is each one's prompt, the file res.Prompts names.
	Seats       []string
	Agents      []string
	PromptTexts []string
	Cwd         string
	// Program starts roundtable in the commands: "roundtable", or this
	// binary's absolute path when that is not the roundtable on PATH.
	Program string
}

// seed creates the room (or opens it when it exists: room.json is never
// rewritten), writes its seat prompts and settles how the commands start
// roundtable (program, or seatcmd.Program when empty); it runs in a
// command. agents label the seats of opt.Seats, in order.
func seed(cwd, name string, opt room.CreateOptions, agents []string, program string) (seedResult, bool, error) {
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
		SeedResult: res, Topic: cfg.Topic, Budget: cfg.Budget, Seats: cfg.TurnOrder(),
		Agents: agents, Cwd: r.Cwd(), Program: program,
	}
	for _, p := range res.Prompts {
		data, err := os.ReadFile(p)
		if err != nil {
			return out, existed, fmt.Errorf("read the prompt %s: %w", p, err)
		}
		out.PromptTexts = append(out.PromptTexts, string(data))
	}
	return out, existed, nil
}

// agent is seat i's label ("" when it has none).
func (res seedResult) agent(i int) string {
	if i < len(res.Agents) {
		return res.Agents[i]
	}
	return ""
}

// prompt is seat i's prompt file and its text.
func (res seedResult) prompt(i int) (path, text string) {
	if i < len(res.Prompts) {
		path = res.Prompts[i]
	}
	if i < len(res.PromptTexts) {
		text = res.PromptTexts[i]
	}
	return path, text
}

// seat is seat i of the room as its server is started.
func (res seedResult) seat(i int) seatcmd.Seat {
	return seatcmd.Seat{
		Program: res.Program, Room: res.Room, Seat: res.Seats[i], Agent: res.agent(i),
		Topic: res.Topic, Budget: res.Budget, Spec: res.Spec, Cwd: res.Cwd,
	}
}
