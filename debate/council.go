package debate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// A Council is a room of two to eight seats and the mind in each: a
// model or a coding agent roundtable plays, an MCP agent the user
// starts, or a person at the keyboard (issue 24). Its first seat is the
// lead, who writes the spec and closes.
type Council struct {
	Room   string        `toml:"room"`
	Topic  string        `toml:"topic"`
	Budget int           `toml:"budget"`
	Spec   string        `toml:"spec"`
	Seats  []CouncilSeat `toml:"seat"`
}

// CouncilSeat is one seat and its mind: "mcp" (an agent the user starts
// and connects over MCP), "person" (roundtable watch --take), "acp:<agent>"
// (a coding agent roundtable drives over ACP) or "model:<provider>[/<model>]"
// (a model roundtable plays, e.g. model:mock, model:openrouter/openai/gpt-4o-mini).
type CouncilSeat struct {
	Name string `toml:"name"`
	Mind string `toml:"mind"`
}

// The minds a council seat may have besides acp: and model:.
const (
	MindMCP    = "mcp"
	MindPerson = "person"
)

// Council sizes.
const (
	MinCouncilSeats = 2
	MaxCouncilSeats = 8
)

// errCouncil marks a council that cannot be run as given.
var errCouncil = errors.New("bad council")

// ParseCouncilSeat reads a --seat value, "name=mind".
func ParseCouncilSeat(s string) (CouncilSeat, error) {
	name, mind, ok := strings.Cut(s, "=")
	name, mind = strings.TrimSpace(name), strings.TrimSpace(mind)
	if !ok || name == "" || mind == "" {
		return CouncilSeat{}, fmt.Errorf("%w: --seat %q: give name=mind, e.g. critic=acp:codex, security=model:mock, peer=mcp or reviewer=person", errCouncil, s)
	}
	cs := CouncilSeat{Name: name, Mind: mind}
	return cs, cs.check()
}

// check refuses a mind that is none of the four kinds.
func (cs CouncilSeat) check() error {
	switch {
	case cs.Mind == MindMCP, cs.Mind == MindPerson:
		return nil
	case strings.HasPrefix(cs.Mind, "acp:"):
		_, err := ParseAgent(cs.Mind)
		return err
	case strings.HasPrefix(cs.Mind, "model:"):
		if strings.TrimPrefix(cs.Mind, "model:") == "" {
			return fmt.Errorf("%w: seat %s: model: needs a provider, e.g. model:mock or model:openrouter/openai/gpt-4o-mini", errCouncil, cs.Name)
		}
		return nil
	}
	hint := ""
	if name, _, _ := strings.Cut(cs.Mind, "/"); slices.Contains(Providers(), name) {
		hint = fmt.Sprintf(" (did you mean model:%s?)", cs.Mind)
	} else if a, err := ParseAgent(AgentPrefix + cs.Mind); err == nil && a.Preset != "" {
		hint = fmt.Sprintf(" (did you mean acp:%s?)", cs.Mind)
	}
	return fmt.Errorf("%w: seat %s: mind %q is none of mcp, person, acp:<agent> or model:<provider>[/<model>]%s", errCouncil, cs.Name, cs.Mind, hint)
}

// played reports whether roundtable plays the seat (a model or an agent).
func (cs CouncilSeat) played() bool {
	return strings.HasPrefix(cs.Mind, "acp:") || strings.HasPrefix(cs.Mind, "model:")
}

// provider is a model seat's provider settings: "model:openrouter/x/y" is
// provider openrouter, model x/y.
func (cs CouncilSeat) provider() ProviderConfig {
	name, model, _ := strings.Cut(strings.TrimPrefix(cs.Mind, "model:"), "/")
	return ProviderConfig{Name: name, Model: model}
}

// LoadCouncil reads a council file (TOML):
//
//	room = "cache-design"
//	topic = "Should the cache be write-through?"
//	budget = 4
//	[[seat]]
//	name = "lead"
//	mind = "mcp"
//	[[seat]]
//	name = "critic"
//	mind = "acp:codex"
func LoadCouncil(path string) (Council, error) {
	var c Council
	md, err := toml.DecodeFile(path, &c)
	if err != nil {
		return c, fmt.Errorf("%w: read the council file %s: %v", errCouncil, path, err)
	}
	if extra := md.Undecoded(); len(extra) > 0 {
		return c, fmt.Errorf("%w: the council file %s has %q, which is none of room, topic, budget, spec and [[seat]] name, mind", errCouncil, path, extra[0].String())
	}
	return c, nil
}

// NameRoom names the room of a council given none after its topic, as the
// new-room form does: the topic's slug ("council" when it has no letter or
// digit), or the next free name like it (room.FreeName) when a room under
// cwd has that name, so a council named this way is always a new room.
func (c *Council) NameRoom(cwd string) {
	if c.Room != "" {
		return
	}
	name := room.Slug(c.Topic)
	if name == "" {
		name = "council"
	}
	if cwd == "" {
		cwd = "."
	}
	if _, err := os.Lstat(room.Dir(cwd, name)); err == nil {
		name = room.FreeName(cwd, name)
	}
	c.Room = name
}

// Normalize puts the lead first (a council given without a lead gets one
// played over MCP, the user's own agent) and checks the council: 2 to 8
// seats, each named once, each mind one of the four kinds.
func (c *Council) Normalize() error {
	if c.Room == "" {
		return fmt.Errorf("%w: name the council's room (--room or room = \"…\"), or give it a topic to name it after", errCouncil)
	}
	if i := slices.IndexFunc(c.Seats, func(s CouncilSeat) bool { return s.Name == room.SeatLead }); i > 0 {
		lead := c.Seats[i]
		c.Seats = append([]CouncilSeat{lead}, slices.Delete(c.Seats, i, i+1)...)
	} else if i < 0 {
		c.Seats = append([]CouncilSeat{{Name: room.SeatLead, Mind: MindMCP}}, c.Seats...)
	}
	if n := len(c.Seats); n < MinCouncilSeats || n > MaxCouncilSeats {
		return fmt.Errorf("%w: a council has %d to %d seats, the lead included; this one has %d", errCouncil, MinCouncilSeats, MaxCouncilSeats, n)
	}
	seen := map[string]bool{}
	for _, s := range c.Seats {
		if seen[s.Name] {
			return fmt.Errorf("%w: the seat %q is given twice", errCouncil, s.Name)
		}
		seen[s.Name] = true
		if err := s.check(); err != nil {
			return err
		}
	}
	return nil
}

// SeatNames are the council's seats in turn order.
func (c Council) SeatNames() []string {
	out := make([]string, len(c.Seats))
	for i, s := range c.Seats {
		out[i] = s.Name
	}
	return out
}

// CouncilOptions say where a council runs and what its played seats share.
type CouncilOptions struct {
	Cwd        string
	AgentTools AgentTools
	Getenv     func(string) string // nil: os.Getenv
	// Setup is where the lines for the seats the user starts go (an MCP
	// agent's server command, a person's watch --take) before play.
	Setup io.Writer
	// Stderr is where the played agents' stderr goes (nil: discarded).
	Stderr io.Writer
	// Exe is the roundtable command the setup lines name; "": roundtable.
	Exe string
	// AloneAfter is how long the played seats wait for a seat nobody has
	// taken before one says so; 0: DefaultAloneAfter.
	AloneAfter time.Duration
	empty      *emptySeats // the seats said empty (nil: a new set); a test's to look at
}

// RunCouncil creates the council's room with its seats (or opens it, if it
// has those seats), writes every seat's prompt, says how to start the
// seats the user plays, then plays the model and agent seats in this
// process until the room closes or ctx ends.
func RunCouncil(ctx context.Context, c Council, o CouncilOptions) error {
	if err := c.Normalize(); err != nil {
		return err
	}
	if c.Budget <= 0 {
		c.Budget = DefaultSeatBudget
	}
	cwd := o.Cwd
	if cwd == "" {
		cwd = "."
	}
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return err
	}
	res, err := room.Seed(abs, c.Room, room.CreateOptions{Topic: c.Topic, Budget: c.Budget, Spec: c.Spec, Seats: c.SeatNames()})
	if err != nil {
		return err
	}
	r, err := room.Open(abs, c.Room)
	if err != nil {
		return err
	}
	if got := r.Config().Seats(); !slices.Equal(got, c.SeatNames()) {
		return fmt.Errorf("%w: room %q exists with the seats %s, not %s; pick another --room", errCouncil, c.Room, strings.Join(got, ", "), strings.Join(c.SeatNames(), ", "))
	}
	exe := o.Exe
	if exe == "" {
		exe = "roundtable"
	}
	if o.Setup != nil {
		writeCouncilSetup(o.Setup, c, res, abs, exe)
	}
	// A seat that cannot play stops the others: the council cannot go on
	// without it.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	errs := make([]error, len(c.Seats))
	// The played seats say an empty seat once between them, and what they
	// post on the setup's writer, one whole line at a time.
	empty := o.empty
	if empty == nil {
		empty = &emptySeats{said: map[string]bool{}}
	}
	var progress io.Writer
	if o.Setup != nil {
		progress = ProgressWriter(o.Setup, "  ")
	}
	played := 0
	for i, s := range c.Seats {
		if !s.played() {
			continue
		}
		played++
		set := SeatSettings{Room: c.Room, Seat: s.Name, Cwd: abs, Getenv: o.Getenv, Stderr: o.Stderr, Progress: progress, AloneAfter: o.AloneAfter, council: empty}
		if strings.HasPrefix(s.Mind, "acp:") {
			set.Agent, set.AgentTools = s.Mind, o.AgentTools
		} else {
			set.Provider = s.provider()
		}
		wg.Go(func() {
			if err := PlaySeat(ctx, set); err != nil && ctx.Err() == nil {
				errs[i] = fmt.Errorf("seat %s (%s): %w", s.Name, s.Mind, err)
				stop()
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if o.Setup != nil && played > 0 && ctx.Err() == nil {
		writeCouncilEnd(o.Setup, r, exe)
	}
	return nil
}

// writeCouncilEnd says how a council whose played seats have all stopped
// ended: the room's close, its spec, and the line that reads it all.
func writeCouncilEnd(w io.Writer, r *room.Room, exe string) {
	st, err := r.Refresh()
	if err != nil || st.Closed == nil {
		return
	}
	cfg := r.Config()
	fmt.Fprintf(w, "Council %s closed (%s) after %d messages; the spec is %s.\n", cfg.Room, st.Closed.Reason, len(st.Messages), room.SpecFor(cfg, st.Closed))
	fmt.Fprintf(w, "  read it all: %s transcript --room %s --cwd %s\n", exe, seatcmd.Quote(cfg.Room), seatcmd.Quote(r.Cwd()))
}

// writeCouncilSetup says, for each seat the user starts, how: an MCP
// agent's server command and prompt, a person's watch --take.
func writeCouncilSetup(w io.Writer, c Council, res room.SeedResult, cwd, exe string) {
	prompt := func(seat string) string {
		for _, p := range res.Prompts {
			if strings.TrimSuffix(filepath.Base(p), ".md") == room.SeatFile(seat) {
				return p
			}
		}
		return ""
	}
	fmt.Fprintf(w, "Council %s: %s\n", c.Room, strings.Join(c.SeatNames(), " → "))
	for _, s := range c.Seats {
		switch s.Mind {
		case MindMCP:
			// The lines of the new-room form (room/seatcmd): the same
			// server names and flags, each seat a server of its own.
			seat := seatcmd.Seat{Program: exe, Room: c.Room, Seat: s.Name, Cwd: cwd}
			fmt.Fprintf(w, "  %s: an MCP agent you start. Give it this server, then its prompt:\n", s.Name)
			fmt.Fprintf(w, "    %s\n", seatcmd.ClaudeCode.Text(seat))
			fmt.Fprintf(w, "    %s\n", seatcmd.Codex.Text(seat))
			fmt.Fprintf(w, "    (other agent CLIs: roundtable tui, m, shows their lines; docs/agents/)\n")
			if p := prompt(s.Name); p != "" {
				fmt.Fprintf(w, "    prompt: %s\n", p)
			}
		case MindPerson:
			fmt.Fprintf(w, "  %s: you, at the keyboard: %s watch --room %s --take %s --cwd %s\n", s.Name, exe, c.Room, seatcmd.Quote(s.Name), seatcmd.Quote(cwd))
		default:
			fmt.Fprintf(w, "  %s: played here by %s\n", s.Name, s.Mind)
		}
	}
}

// ProgressWriter is where played seats (SeatSettings.Progress) say what they
// do: each line written goes to w whole, after prefix, whichever of the
// seats a process plays wrote it.
func ProgressWriter(w io.Writer, prefix string) io.Writer {
	return &lineWriter{w: w, prefix: prefix}
}

type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := io.WriteString(l.w, l.prefix); err != nil {
		return 0, err
	}
	return l.w.Write(p)
}
