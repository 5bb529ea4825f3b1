package seatcmd

import (
	"fmt"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// The subcommand that plays a seat from roundtable, and its flags beyond
// the seat server's (FlagRoom, FlagSeat, FlagAgent, FlagTopic, FlagBudget,
// FlagSpec and FlagCwd mean the same there, except that --agent names a
// coding agent, "acp:codex", rather than a label).
const (
	SeatSubcommand      = "seat"
	FlagPersona         = "persona"
	FlagProvider        = "provider"
	FlagModel           = "model"
	FlagBaseURL         = "base-url"
	FlagMaxTokens       = "max-tokens"
	FlagAllowAgentTools = "allow-agent-tools"
	FlagTurnTimeout     = "turn-timeout"
	FlagFast            = "fast"
)

// Played is a seat that roundtable plays itself (`roundtable seat`), with
// a model (Provider, Model, BaseURL) or a coding agent over ACP (Agent).
// The new-MCP-room form starts one for each seat it fills that way.
type Played struct {
	// Program starts roundtable (see Program); empty: DefaultProgram.
	Program string
	Room    string
	Seat    string // room.SeatLead, room.SeatPeer or a seat of a council
	// Cwd is the folder holding .roundtable/ (absolute); empty: left out.
	Cwd string
	// Persona is "Name=who they are"; empty: left out.
	Persona string
	// Provider, Model and BaseURL pick the model; each empty: left out (the
	// environment and defaults decide).
	Provider, Model, BaseURL string
	// Agent is "acp:<preset>" or "acp:<command>"; it replaces the model.
	Agent string
	// AllowAgentTools is "", "write", "exec" or "write,exec".
	AllowAgentTools string
	// TurnTimeout 0: left out.
	TurnTimeout time.Duration
	// Topic, Budget and Spec create the room when it does not exist.
	Topic  string
	Budget int
	Spec   string
	// Fast drops the mock's pause between tokens.
	Fast bool
}

// Args are the arguments after the program: the subcommand, then one
// "--flag=value" token a flag (see Seat.Args for why "=").
func (p Played) Args() []string {
	args := []string{SeatSubcommand, flag(FlagRoom, p.Room), flag(FlagSeat, p.Seat)}
	add := func(name, value string) {
		if value != "" {
			args = append(args, flag(name, value))
		}
	}
	add(FlagCwd, p.Cwd)
	add(FlagPersona, p.Persona)
	if p.Agent != "" {
		add(FlagAgent, p.Agent)
		add(FlagAllowAgentTools, p.AllowAgentTools)
	} else {
		add(FlagProvider, p.Provider)
		add(FlagModel, p.Model)
		add(FlagBaseURL, p.BaseURL)
	}
	if p.TurnTimeout > 0 {
		add(FlagTurnTimeout, p.TurnTimeout.String())
	}
	add(FlagTopic, p.Topic)
	if p.Budget > 0 {
		add(FlagBudget, fmt.Sprint(p.Budget))
	}
	if p.Spec != "" && p.Spec != room.DefaultSpec(p.Room) {
		add(FlagSpec, p.Spec)
	}
	if p.Fast {
		args = append(args, "--"+FlagFast)
	}
	return args
}

// Command is the argv that starts the seat.
func (p Played) Command() []string {
	prog := p.Program
	if prog == "" {
		prog = DefaultProgram
	}
	return append([]string{prog}, p.Args()...)
}
