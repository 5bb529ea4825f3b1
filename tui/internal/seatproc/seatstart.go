package seatproc

import (
	"fmt"
	"strings"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// This file says what the app starts for a seat roundtable plays; the
// command line itself comes from room/seatcmd (seatcmd.Played), which is
// tested against the real `roundtable seat` flags.

// Presets are the ACP agents a seat offers by name, in the order a screen
// shows them ("acp:<preset>"): debate's presets.
var Presets = debate.AgentPresets()

// Spec is one seat roundtable plays: the room, the seat and the mind that
// fills it, a model (Provider, Model, BaseURL) or an agent (Agent).
type Spec struct {
	// Program is the roundtable binary to run (an absolute path).
	Program string
	// Cwd is the folder holding .roundtable/; Room and Seat name the seat.
	Cwd, Room, Seat string
	// Persona is "Name=description", or empty.
	Persona string
	// Provider, Model and BaseURL choose a model; Model and BaseURL may be
	// empty (the provider's defaults).
	Provider, Model, BaseURL string
	// Agent is "acp:<preset>" or "acp:<command>"; it wins over Provider.
	Agent string
	// AllowAgentTools is what the agent may do beyond reading, as
	// --allow-agent-tools takes it: "", "write", "exec" or "write,exec".
	AllowAgentTools string
}

// Argv is the command that starts the seat, program first, each flag one
// "--flag=value" token so no value is ever read as a flag.
func (s Spec) Argv() []string {
	return seatcmd.Played{
		Program: s.Program, Room: s.Room, Seat: s.Seat, Cwd: s.Cwd, Persona: s.Persona,
		Provider: s.Provider, Model: s.Model, BaseURL: s.BaseURL, Agent: s.Agent,
		AllowAgentTools: s.AllowAgentTools,
	}.Command()
}

// Mind says in a few words what fills the seat: "model openai/gpt-4o-mini",
// "acp:codex".
func (s Spec) Mind() string {
	if s.Agent != "" {
		return s.Agent
	}
	m := "model " + s.Provider
	if s.Model != "" {
		m += "/" + s.Model
	}
	return m
}

// LogName is the file, inside the room's folder, that a seat's stderr
// goes to: "seat-lead.log", "seat-peer.log"; a council's other seats are
// named as their other files are (room.SeatFile), since a seat's name may
// hold anything, a slash or "..", that must not reach a path.
func LogName(seat string) string { return "seat-" + room.SeatFile(seat) + ".log" }

// AgentValue is the --agent value for a preset, or for a custom command
// (preset ""): "acp:codex", "acp:my-agent --acp". An empty command is an
// error that says what to write.
func AgentValue(preset, command string) (string, error) {
	if preset != "" {
		return "acp:" + preset, nil
	}
	c := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(command), "acp:"))
	if c == "" {
		return "", fmt.Errorf("write the agent's command, for example `my-agent --acp`")
	}
	v := "acp:" + c
	if _, err := debate.ParseAgent(v); err != nil {
		return "", err
	}
	return v, nil
}
