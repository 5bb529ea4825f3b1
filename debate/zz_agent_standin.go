package debate

// This file is a stand-in for the acp part's agent provider (see
// notes/acp-contract.md), so that `roundtable seat --agent` compiles before
// that part is merged. The lead deletes this file at merge; every name in
// it is defined by debate/agent*.go there.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// AgentSpec is a coding agent driven over ACP.
type AgentSpec struct {
	Command []string
	Preset  string
}

// ParseAgent reads "acp:<preset>" or "acp:<command ...>".
func ParseAgent(s string) (AgentSpec, error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "acp:")
	if !ok {
		return AgentSpec{}, fmt.Errorf("%w: %q is not an agent; write acp:<preset> or acp:<command>", ErrBadPersona, s)
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return AgentSpec{}, fmt.Errorf("%w: %q names no agent; write acp:<preset> or acp:<command>", ErrBadPersona, s)
	}
	return AgentSpec{Command: f}, nil
}

// AgentTools is what an agent may do beyond reading.
type AgentTools uint8

// Tools an agent may be allowed.
const (
	AllowWrite AgentTools = 1 << iota
	AllowExec
)

// ParseAgentTools reads "", "write", "exec", "write,exec".
func ParseAgentTools(s string) (AgentTools, error) {
	var t AgentTools
	for _, p := range strings.Split(s, ",") {
		switch strings.TrimSpace(p) {
		case "":
		case "write":
			t |= AllowWrite
		case "exec":
			t |= AllowExec
		default:
			return 0, fmt.Errorf("%w: --allow-agent-tools %q; use write, exec or write,exec", ErrBadConfig, s)
		}
	}
	return t, nil
}

// AgentOptions configure every agent of a debate or seat.
type AgentOptions struct {
	Cwd    string
	Tools  AgentTools
	Env    []string
	Stderr io.Writer
	Grace  time.Duration
}

// AgentProvider is a Provider backed by agent processes.
type AgentProvider struct{}

var errAgentStandIn = errors.New("the ACP agent provider is not built yet")

// NewAgentProvider returns the provider for spec.
func NewAgentProvider(AgentSpec, AgentOptions) (*AgentProvider, error) {
	return nil, errAgentStandIn
}

// Name is "acp".
func (*AgentProvider) Name() string { return "acp" }

// Model is the agent's label.
func (*AgentProvider) Model() string { return "acp" }

// Stream is not built yet.
func (*AgentProvider) Stream(context.Context, Request, func(string) error) (Usage, error) {
	return Usage{}, errAgentStandIn
}

// Close does nothing.
func (*AgentProvider) Close() error { return nil }
