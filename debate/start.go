package debate

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// Settings are everything a debate starts from, as a person gave them on
// the command line or in a form. Start is the one place that checks them,
// so the headless command and the TUI start the same debate, in the same
// kind of room, from the same settings.
type Settings struct {
	// Config is the debate: topic, panel, rounds and options. Start fills
	// its defaults (Config.Normalize) and, when MaxTurnTokens is 0, sets it
	// from the provider's max_tokens (TurnTokenCap).
	Config Config
	// Provider is the provider as given (flags, a form); Start completes it
	// from the environment (ResolveProvider). Its Pace is the mock's pause
	// between tokens: 0 for none, DefaultPace for a lively screen.
	Provider ProviderConfig
	// Cwd is the folder whose .roundtable/ holds the room; empty: the
	// working directory.
	Cwd string
	// Room names the room; empty: made from the topic and the time
	// (RoomName). A name given must be valid and new.
	Room string
	// Getenv reads the environment; nil: os.Getenv.
	Getenv func(string) string
	// AgentTools is what the personas' coding agents may do beyond
	// reading (--allow-agent-tools): read-only by default.
	AgentTools AgentTools
	// AgentEnv is added to the environment of every agent (KEY=VALUE):
	// tests isolate HOME and the agents' config here.
	AgentEnv []string
	// AgentGrace is how long a stopped agent has to exit before its
	// process group is killed; 0: DefaultAgentGrace.
	AgentGrace time.Duration
}

// WithPanel is s with the panel's personas that are switched on, in
// speaking order, and its moderator.
func (s Settings) WithPanel(p Panel) Settings {
	s.Config.Personas = p.Enabled()
	s.Config.Moderator = p.Moderator
	s.Config.Prices = p.Prices
	return s
}

// Plan is a debate whose settings passed every check: its provider
// resolved and built, its config normalized. Nothing has been created yet.
type Plan struct {
	cfg    Config
	pc     ProviderConfig
	prov   Provider
	cwd    string
	room   string
	agents map[string]AgentSpec // by persona name: who a coding agent speaks for
	aopts  AgentOptions
}

// Prepare checks s and resolves it without creating anything or touching
// the network. Errors for which IsUsage holds come from the settings (a
// command line exits 2 on them); ErrMissingKey means the provider's key
// variable is not set.
func Prepare(s Settings) (*Plan, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	pc, err := ResolveProvider(s.Provider, getenv)
	if err != nil {
		return nil, err
	}
	cfg := s.Config
	if cfg.MaxTurnTokens == 0 {
		cfg.MaxTurnTokens = TurnTokenCap(pc.MaxTokens)
	}
	cfg, err = cfg.Normalize()
	if err != nil {
		return nil, err
	}
	if err := CheckCostSource(cfg, pc); err != nil {
		return nil, err
	}
	prov, err := NewProvider(pc)
	if err != nil {
		return nil, err
	}
	cwd := s.Cwd
	if cwd == "" {
		cwd = "."
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w: --cwd %s is not a folder; create it or point --cwd elsewhere", ErrBadConfig, cwd)
	}
	if s.Room != "" {
		if err := room.ValidateName(s.Room); err != nil {
			return nil, fmt.Errorf("%w: --room: %w", ErrBadConfig, err)
		}
	}
	specs, err := agentSpecs(cfg)
	if err != nil {
		return nil, err
	}
	aopts := AgentOptions{Cwd: cwd, Tools: s.AgentTools, Env: s.AgentEnv, Grace: s.AgentGrace}
	cfg.Provider, cfg.Model = pc.Name, pc.Model
	return &Plan{cfg: cfg, pc: pc, prov: prov, cwd: cwd, room: s.Room, agents: specs, aopts: aopts}, nil
}

// Start checks that the provider's server answers (Preflight), creates the
// room and starts the debate, saving it as it goes. Each call starts a new
// debate; with no room name given, each gets a fresh room. ctx bounds the
// debate: cancelling it stops the debate like Session.Stop.
func (p *Plan) Start(ctx context.Context) (*Session, error) {
	return p.launch(ctx, nil, func(cfg Config) (*room.Room, *room.SeatLock, error) {
		r, err := CreateRoom(p.cwd, p.room, cfg)
		if err != nil {
			return nil, nil, err
		}
		lock, err := r.LockRun()
		if err != nil {
			return nil, nil, err
		}
		return r, lock, nil
	})
}

// launch starts the debate from (nil: its start) in the room open gives
// once the provider answers, with the room's run lock (room.LockRun) held:
// it is let go once the debate has ended and its room is closed, and if
// the process dies first, the kernel lets it go, so a reader sees that
// nobody runs the debate any more (Abandoned).
func (p *Plan) launch(ctx context.Context, from *Position, open func(Config) (*room.Room, *room.SeatLock, error)) (*Session, error) {
	rp := &routedProvider{model: p.prov, agents: map[string]*AgentProvider{}}
	for name, spec := range p.agents {
		ap, err := NewAgentProvider(spec, p.aopts)
		if err != nil {
			return nil, err
		}
		rp.agents[name] = ap
	}
	if rp.usesModel(p.cfg) {
		if err := Preflight(ctx, p.pc); err != nil {
			return nil, err
		}
	}
	eng, err := New(p.cfg, rp)
	if err != nil {
		return nil, err
	}
	eng.from = from
	r, lock, err := open(eng.Config())
	if err != nil {
		rp.close()
		return nil, err
	}
	if err := eng.ctl.useRoom(r); err != nil {
		_ = lock.Unlock()
		rp.close()
		return nil, fmt.Errorf("read the notes of room %s: %w", r.Config().Room, err)
	}
	// Every event of the session is its room's, as any reader follows it
	// (FollowStore), read before the run starts so that all it writes is
	// news. A room that cannot be read starts nothing.
	follow, first, err := FollowStore(context.Background(), r)
	if err != nil {
		rp.close()
		_ = lock.Unlock()
		return nil, fmt.Errorf("read room %s to follow its debate: %w", r.Config().Room, err)
	}
	if from != nil {
		// A resumed run's screen shows the room's history already: it
		// gets session_start, then what the run adds.
		// The round it was in stays the round of what comes before the
		// run's first turn (a note while it is still paused, the
		// verdict), and starts again with that turn.
		first = first[:1]
		follow.r.t.again = true
	}
	sctx, cancel := context.WithCancelCause(ctx)
	s := &Session{cfg: eng.Config(), pc: p.pc, room: r, cancel: cancel, ctl: eng.ctl, done: make(chan struct{})}
	// The run's own events are only saved (Recorder); the session keeps
	// how it ended. Its context is released, and every agent stopped (no
	// process of theirs left), before Done closes, so the events channel
	// closes only after that.
	go s.run(record(eng.Run(sctx), NewRecorder(r), func() {
		cancel(nil)
		rp.close()
		_ = lock.Unlock()
	}))
	s.events = follow.Stream(first, s.done, s.endEvent)
	return s, nil
}

// Start is the one way a debate starts: it checks s (Prepare), checks that
// the provider's server answers (Preflight: a local server that is not
// running is one sentence naming it, before anything is created), creates
// the room, and runs the debate, recording every turn as it ends. The
// returned Session carries its events; read them until the channel
// closes.
//
// Errors: IsUsage for settings that cannot run, ErrMissingKey,
// ErrUnreachable or ErrUnknownModel from the preflight, or the room's
// creation failing. On error nothing is running and, unless the room's
// creation itself failed midway, nothing was created.
func Start(ctx context.Context, s Settings) (*Session, error) {
	p, err := Prepare(s)
	if err != nil {
		return nil, err
	}
	return p.Start(ctx)
}
