package debate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// AgentProvider is a Provider backed by coding agents over ACP: one agent
// process, and one ACP session in it, per speaker (persona name) it is
// asked to speak for, started on that speaker's first Stream. Create it
// with NewAgentProvider and Close it when the debate (or seat) ends: Close
// leaves no agent process, nor anything an agent started, running.
type AgentProvider struct {
	spec AgentSpec
	opts AgentOptions

	mu     sync.Mutex
	slots  map[string]*agentSlot
	closed bool
}

// agentSlot is one speaker's agent. Its mutex is held for a whole Stream
// (start-up included), so a speaker's turns never overlap while different
// speakers' agents start and speak at once (a blind opening).
type agentSlot struct {
	mu   sync.Mutex
	proc *agentProc // nil until started, and again after a failed or cancelled turn; guarded by AgentProvider.mu
}

// ErrProviderClosed is returned by Stream after Close.
var ErrProviderClosed = errors.New("the agent provider is closed")

// NewAgentProvider returns a Provider backed by one agent process per
// speaker (persona name) it is asked to speak for, started lazily on the
// first Stream for that speaker; one ACP session each, cwd = opts.Cwd. Each
// Stream sends what that speaker has not yet seen (req.Info /
// req.Messages): the first time the system and user messages whole; then
// the turns of req.Info.Transcript it has not seen with the request's
// instructions, or, when req.Info.Transcript is empty (a caller writing
// its own prompt), the user messages whole. It streams agent_message_chunk
// text to onDelta, and reports
// tool calls, plans and refused permissions through req.OnActivity. It
// fails at once, wrapping ErrAgentMissing, when the agent's command is not
// installed.
func NewAgentProvider(spec AgentSpec, opts AgentOptions) (*AgentProvider, error) {
	if _, err := spec.Check(); err != nil {
		return nil, err
	}
	cwd := opts.Cwd
	if cwd == "" {
		cwd = "."
	}
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return nil, fmt.Errorf("%w: --cwd %s: %v", ErrBadConfig, cwd, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w: --cwd %s is not a folder; create it or point --cwd elsewhere", ErrBadConfig, cwd)
	}
	opts.Cwd = abs
	if opts.Grace <= 0 {
		opts.Grace = DefaultAgentGrace
	}
	return &AgentProvider{spec: spec, opts: opts, slots: map[string]*agentSlot{}}, nil
}

// Name is "acp".
func (p *AgentProvider) Name() string { return "acp" }

// Model is the label shown and saved as the turn's model: "acp:claude" or
// "acp:<command>".
func (p *AgentProvider) Model() string { return p.spec.Label() }

// fixedModel marks that a persona's model field does not change the
// agent's: the label is always the agent's.
func (p *AgentProvider) fixedModel() {}

// Stream speaks one turn for req.Info.Speaker through that speaker's agent,
// starting it first if needed. A turn that fails or is cancelled
// (ctx done: session/cancel, then the agent's process group is killed after
// the grace period) leaves the speaker without an agent; a later Stream
// starts a fresh one, which is sent the whole debate again.
func (p *AgentProvider) Stream(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	speaker := req.Info.Speaker.Name
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return Usage{}, ErrProviderClosed
	}
	slot := p.slots[speaker]
	if slot == nil {
		slot = &agentSlot{}
		p.slots[speaker] = slot
	}
	p.mu.Unlock()

	slot.mu.Lock()
	defer slot.mu.Unlock()
	p.mu.Lock()
	proc := slot.proc
	p.mu.Unlock()
	if proc == nil || proc.isDead() {
		np, err := startAgent(ctx, p.spec, p.opts, speaker)
		if err != nil {
			return Usage{}, err
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			np.stop(false)
			return Usage{}, ErrProviderClosed
		}
		slot.proc = np
		p.mu.Unlock()
		proc = np
	}
	u, err := proc.turn(ctx, req, onDelta)
	if err != nil {
		// Whatever failed, this agent is done (session/cancel first, in
		// case it is still working): a later turn gets a fresh one.
		proc.stop(true)
		p.mu.Lock()
		if slot.proc == proc {
			slot.proc = nil
		}
		p.mu.Unlock()
	}
	return u, err
}

// Close stops every agent: session/cancel for a turn in progress, stdin
// closed, then after the grace period the process group killed, so no
// agent, nor an MCP server or tool it started, is left running. It waits
// until they are gone. Close is idempotent; Stream fails after it.
func (p *AgentProvider) Close() error {
	p.mu.Lock()
	p.closed = true
	var procs []*agentProc
	for _, s := range p.slots {
		if s.proc != nil {
			procs = append(procs, s.proc)
			s.proc = nil
		}
	}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, pr := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr.stop(true)
		}()
	}
	wg.Wait()
	return nil
}

// Pids lists the process ids of the running agents (each leads its own
// process group), for tests and diagnostics.
func (p *AgentProvider) Pids() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []int
	for _, s := range p.slots {
		if s.proc != nil && s.proc.cmd.Process != nil && !s.proc.isDead() {
			out = append(out, s.proc.cmd.Process.Pid)
		}
	}
	return out
}
