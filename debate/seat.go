package debate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// SeatSettings are what `roundtable seat` plays a seat of an MCP room
// with: the room and seat, and the mind that fills it, a model (Provider)
// or a coding agent over ACP (Agent).
type SeatSettings struct {
	Room string
	Seat string // a seat of the room: lead or peer, or a council's
	Cwd  string // folder holding .roundtable/ (and the spec); "": the working directory
	// Persona, when it has a name, is who the seat speaks as.
	Persona Persona
	// Provider is the model, when Agent is empty. Only what the user gave
	// (flags): the environment is read through Getenv.
	Provider ProviderConfig
	// Agent is "acp:<preset>" or "acp:<command ...>"; empty: a model.
	Agent      string
	AgentTools AgentTools
	AgentEnv   []string
	// TurnTimeout ends a turn whose mind sends nothing for this long; 0:
	// DefaultTurnTimeout.
	TurnTimeout time.Duration
	// Topic, Budget and Spec create the room when it does not exist yet;
	// without a topic a missing room is an error. Budget 0: DefaultSeatBudget.
	Topic  string
	Budget int
	Spec   string
	// DraftEvery is the least time between two writes of the seat's draft
	// while it composes; 0: DefaultDraftEvery.
	DraftEvery time.Duration
	Getenv     func(string) string // nil: os.Getenv
	Stderr     io.Writer           // where an agent's stderr goes; nil: discarded
	// Progress is where the seat says what it does, a line each post and
	// one as the lead starts the spec (one Write a line: see
	// ProgressWriter); nil: nothing.
	Progress io.Writer
	// AloneAfter is how long the seat waits for a seat nobody has taken
	// before it says so on Progress (once a wait); 0: DefaultAloneAfter.
	AloneAfter time.Duration
	// Exe is the roundtable command the lines it prints name (see
	// seatcmd.Program); "": roundtable.
	Exe string
	// council: the seats a council plays in this process, which say an
	// empty seat once between them (nil: a seat played alone).
	council *emptySeats
}

// emptySeats are the seats a council's played seats have said are empty.
type emptySeats struct {
	mu    sync.Mutex
	said  map[string]bool
	asked int // how many times a seat found one empty
}

// first reports whether seat is said empty for the first time.
func (e *emptySeats) first(seat string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked++
	if e.said[seat] {
		return false
	}
	e.said[seat] = true
	return true
}

// Defaults of a played seat.
const (
	DefaultSeatBudget = 12
	// DefaultAloneAfter: a seat left waiting this long for a seat nobody
	// has taken says so, with the line that plays it.
	DefaultAloneAfter = 10 * time.Second
	// DefaultDraftEvery keeps draft writes to at most 20 a second: often
	// enough to read as live, rare enough to cost nothing.
	DefaultDraftEvery = 50 * time.Millisecond
	// AgentLabelPrefix starts the agent label of a seat roundtable plays.
	AgentLabelPrefix = "roundtable:"
)

// closeMark, alone on the last line of a lead's post, says the lead has
// converged and wants to close before the budget is spent.
const closeMark = "CLOSE"

// IsSeatUsage reports whether PlaySeat failed on what the user asked for
// (a command line exits 2): bad settings, a closed room, a seat already
// played, a bad room name or seat.
func IsSeatUsage(err error) bool {
	return IsUsage(err) || errors.Is(err, room.ErrClosed) || errors.Is(err, room.ErrSeatTaken) ||
		errors.Is(err, room.ErrBadName) || errors.Is(err, room.ErrBadSeat)
}

// ParseSeatPersona reads a --persona value, "Name=who they are".
func ParseSeatPersona(s string) (Persona, error) {
	name, desc, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(desc) == "" {
		return Persona{}, fmt.Errorf("%w: --persona %q needs a name and a description, like --persona %q", ErrBadPersona, s, "Security Reviewer=assumes every new surface will be attacked")
	}
	return Persona{Name: name, Persona: desc}.Validate()
}

// seatProvider is the mind of a seat and how to let it go.
type seatProvider struct {
	Provider
	close func() error
}

// newSeatAgent starts the agent provider of a seat; tests swap it.
var newSeatAgent = func(spec AgentSpec, opts AgentOptions) (seatProvider, error) {
	p, err := NewAgentProvider(spec, opts)
	if err != nil {
		return seatProvider{}, err
	}
	return seatProvider{Provider: p, close: p.Close}, nil
}

// SeatGame is a seat taken and ready to play: the room opened, the seat
// locked, the mind ready. Play it once, then Close it.
type SeatGame struct {
	s     SeatSettings
	r     *room.Room
	lock  *room.SeatLock
	p     seatProvider
	label string
	pid   int
	cap   int // deltas a reply may stream (TurnTokenCap)
}

// PlaySeat takes the seat and plays it until the room closes or ctx ends.
// Stopped by ctx, it returns a *StoppedError (errors.Is context.Canceled)
// after clearing its draft and logging its disconnect.
func PlaySeat(ctx context.Context, s SeatSettings) error {
	g, err := TakeSeat(s)
	if err != nil {
		return err
	}
	defer g.Close()
	return g.Play(ctx)
}

// TakeSeat checks s, opens the room (creating it when s has a topic and
// it does not exist), refuses a closed room or a debate, locks the seat
// and builds the seat's mind. A refusal writes nothing to the room.
func TakeSeat(s SeatSettings) (*SeatGame, error) {
	if s.Getenv == nil {
		s.Getenv = os.Getenv
	}
	if err := room.ValidateName(s.Room); err != nil {
		return nil, err
	}
	if err := room.ValidateSeatName(s.Seat); err != nil {
		return nil, err
	}
	pc, spec, err := s.mind()
	if err != nil {
		return nil, err
	}
	if s.Persona.Name != "" {
		if s.Persona, err = s.Persona.Validate(); err != nil {
			return nil, err
		}
	}
	if s.TurnTimeout < 0 {
		return nil, seatUsage("--turn-timeout %s is not a positive duration; give one like 2m", s.TurnTimeout)
	}
	if s.TurnTimeout == 0 {
		s.TurnTimeout = DefaultTurnTimeout
	}
	if s.DraftEvery <= 0 {
		s.DraftEvery = DefaultDraftEvery
	}
	r, created, err := s.openRoom()
	if err != nil {
		return nil, err
	}
	// Any seat of the room: lead or peer, or a council's (the room says
	// which it has).
	if err := r.Config().CheckSeat(s.Seat); err != nil {
		if created {
			_ = room.DiscardNew(r, s.Seat)
			return nil, fmt.Errorf("%w; a seat played here creates a room of lead and peer: create a council first (roundtable seed --seats, or roundtable council)", err)
		}
		return nil, err
	}
	// A room this call created and cannot play goes again: a failed start
	// leaves no room behind that lists as open.
	discard := func() {
		if created {
			_ = room.DiscardNew(r, s.Seat)
		}
	}
	lock, err := r.LockSeat(s.Seat)
	if err != nil {
		discard()
		return nil, err
	}
	g := &SeatGame{s: s, r: r, lock: lock, pid: os.Getpid(), cap: TurnTokenCap(pc.MaxTokens)}
	if s.Agent != "" {
		cwd := s.Cwd
		if cwd == "" {
			cwd = r.Cwd()
		}
		g.p, err = newSeatAgent(spec, AgentOptions{
			Cwd: cwd, Tools: s.AgentTools, Env: s.AgentEnv, Stderr: s.Stderr,
			Sessions: seatSessions{r: r, seat: s.Seat, agent: spec.Label()},
		})
	} else {
		var p Provider
		p, err = NewProvider(pc)
		g.p = seatProvider{Provider: p}
	}
	if err != nil {
		_ = lock.Unlock()
		discard()
		return nil, err
	}
	g.label = AgentLabelPrefix + g.p.Model()
	return g, nil
}

// mind checks the choice of model or agent: one of them, well formed.
func (s SeatSettings) mind() (ProviderConfig, AgentSpec, error) {
	if s.Agent != "" {
		if s.Provider.Name != "" || s.Provider.Model != "" || s.Provider.BaseURL != "" {
			return ProviderConfig{}, AgentSpec{}, seatUsage("give --provider (a model) or --agent (a coding agent), not both")
		}
		spec, err := ParseAgent(s.Agent)
		return ProviderConfig{MaxTokens: DefaultMaxTokens}, spec, err
	}
	if s.AgentTools != 0 {
		return ProviderConfig{}, AgentSpec{}, seatUsage("--allow-agent-tools is for a seat played by --agent, not by a model")
	}
	pc, err := ResolveProvider(s.Provider, s.Getenv)
	return pc, AgentSpec{}, err
}

// openRoom opens the room, or creates it when there is a topic to create
// it with, and refuses a room no seat can play.
func (s SeatSettings) openRoom() (r *room.Room, created bool, err error) {
	r, err = room.Open(s.Cwd, s.Room)
	if errors.Is(err, room.ErrNoRoom) && s.Topic != "" {
		budget := s.Budget
		if budget <= 0 {
			budget = DefaultSeatBudget
		}
		// Created as `seed` creates it, prompts included, so an agent
		// joining the other seat by hand has its brief at hand.
		if _, created, err = room.SeedNew(s.Cwd, s.Room, room.CreateOptions{Topic: s.Topic, Budget: budget, Spec: s.Spec}); err == nil {
			r, err = room.Open(s.Cwd, s.Room)
		}
	}
	if errors.Is(err, room.ErrNoRoom) {
		return nil, false, seatcmd.NoRoomError(s.Cwd, s.Room)
	}
	if err != nil {
		return nil, false, err
	}
	cfg := r.Config()
	if cfg.Mode != "" {
		return nil, false, seatUsage("room %s is a persona debate, not an MCP room; a seat can only be played in a room of two seats", s.Room)
	}
	st, err := r.Refresh()
	if err != nil {
		return nil, false, err
	}
	if st.Closed != nil {
		return nil, false, &seatError{msg: fmt.Sprintf("room %s is closed (%s); start a new room to play a seat, such as %s", s.Room, st.Closed.Reason, room.FreeName(r.Cwd(), s.Room)), is: room.ErrClosed}
	}
	return r, created, nil
}

// Room is the room the seat plays in.
func (g *SeatGame) Room() *room.Room { return g.r }

// Label is the agent label the seat posts and logs under:
// "roundtable:<model>" or "roundtable:acp:<agent>".
func (g *SeatGame) Label() string { return g.label }

// Close lets the mind go (agents are stopped) and frees the seat. It is
// idempotent.
func (g *SeatGame) Close() error {
	var err error
	if g.p.close != nil {
		err = g.p.close()
		g.p.close = nil
	}
	if oi, ok := g.p.Provider.(interface{ closeIdle() }); ok {
		oi.closeIdle()
	}
	return errors.Join(err, g.lock.Unlock())
}

// seatError is a sentence for the user that matches a sentinel (is).
type seatError struct {
	msg string
	is  error
}

func (e *seatError) Error() string { return e.msg }
func (e *seatError) Unwrap() error { return e.is }

// seatUsage is a sentence about settings the user gave (IsSeatUsage).
func seatUsage(format string, args ...any) error {
	return &seatError{msg: fmt.Sprintf(format, args...), is: ErrBadConfig}
}

// seatSessions keeps a played seat's agent session in its room
// (room.SeatSession), so the seat started again resumes it.
type seatSessions struct {
	r     *room.Room
	seat  string
	agent string
}

func (s seatSessions) Session(string) string { return s.r.SeatSession(s.seat, s.agent) }

func (s seatSessions) SaveSession(_, id string) {
	_ = s.r.SaveSeatSession(s.seat, s.agent, id) // without it the next start opens a new session, as before
}
