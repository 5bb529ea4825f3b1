package seatproc

import (
	"fmt"
	"strings"
)

// This file builds the `roundtable seat` command line from the flags the
// issue's contract fixes. It stands in for the builder the seat part adds
// to room/seatcmd; once that lands, Spec.Argv should call it.

// The `roundtable seat` flags (see the contract in the issue).
const (
	flagRoom     = "room"
	flagSeat     = "seat"
	flagCwd      = "cwd"
	flagPersona  = "persona"
	flagProvider = "provider"
	flagModel    = "model"
	flagBaseURL  = "base-url"
	flagAgent    = "agent"
)

// Presets are the ACP agents a seat offers by name, in the order a screen
// shows them ("acp:<preset>").
var Presets = []string{"claude", "codex", "gemini", "qwen", "opencode"}

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
}

// Argv is the command that starts the seat, program first, each flag one
// "--flag=value" token so no value is ever read as a flag.
func (s Spec) Argv() []string {
	argv := []string{s.Program, "seat", flag(flagRoom, s.Room), flag(flagSeat, s.Seat)}
	if s.Cwd != "" {
		argv = append(argv, flag(flagCwd, s.Cwd))
	}
	if s.Persona != "" {
		argv = append(argv, flag(flagPersona, s.Persona))
	}
	if s.Agent != "" {
		return append(argv, flag(flagAgent, s.Agent))
	}
	argv = append(argv, flag(flagProvider, s.Provider))
	if s.Model != "" {
		argv = append(argv, flag(flagModel, s.Model))
	}
	if s.BaseURL != "" {
		argv = append(argv, flag(flagBaseURL, s.BaseURL))
	}
	return argv
}

func flag(name, value string) string { return "--" + name + "=" + value }

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
// goes to.
func LogName(seat string) string { return "seat-" + seat + ".log" }

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
	return "acp:" + c, nil
}
