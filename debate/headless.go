package debate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// Output formats of the headless command.
const (
	FormatJSONL = "jsonl" // every event as a JSON line, as it happens
	FormatText  = "text"  // readable live text
	FormatMD    = "md"    // the finished transcript in Markdown
)

// HeadlessOptions are the headless command's settings, as given on the
// command line; RunHeadless resolves and checks them.
type HeadlessOptions struct {
	Topic           string
	Rounds          int      // 0: DefaultRounds
	PersonasFile    string   // --personas
	Agents          []string // --agent values
	UserPersonaFile string   // usually UserPersonaFile(); empty: none
	Provider        ProviderConfig
	Format          string // jsonl | md | text; empty: text
	Room            string // empty: made from the topic and time
	Cwd             string // empty: the working directory
	Fast            bool   // no pause between the mock's tokens
	Seed            int64
	BlindOpening    bool
	StopOnConsensus bool
	TurnTimeout     time.Duration // 0: DefaultTurnTimeout
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
}

// Prepared is a headless debate ready to run: resolved provider, panel and
// config. Nothing has been created yet.
type Prepared struct {
	Engine   *Engine
	Provider ProviderConfig
	Format   string
	Room     string
	Cwd      string
}

// PrepareHeadless resolves and checks opts without creating anything.
// Errors for which IsUsage is true come from the settings; ErrMissingKey
// means the provider's key variable is not set.
func PrepareHeadless(opts HeadlessOptions) (*Prepared, error) {
	format := strings.ToLower(strings.TrimSpace(opts.Format))
	switch format {
	case "":
		format = FormatText
	case FormatJSONL, FormatText, FormatMD:
	default:
		return nil, fmt.Errorf("%w: --format %q; use jsonl, md or text", ErrBadConfig, opts.Format)
	}
	if opts.Rounds != 0 && (opts.Rounds < MinRounds || opts.Rounds > MaxRounds) {
		return nil, fmt.Errorf("%w: --rounds %d; choose %d to %d", ErrBadConfig, opts.Rounds, MinRounds, MaxRounds)
	}
	if opts.TurnTimeout < 0 {
		return nil, fmt.Errorf("%w: --turn-timeout %s; give a positive duration like 2m", ErrBadConfig, opts.TurnTimeout)
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	pc := opts.Provider
	switch {
	case opts.Fast || format == FormatMD:
		pc.Pace = 0 // md prints only at the end, so pacing would only wait
	case pc.Pace == 0:
		pc.Pace = DefaultPace
	}
	pc, err := ResolveProvider(pc, getenv)
	if err != nil {
		return nil, err
	}
	panel, err := LoadPanel(PanelOptions{UserFile: opts.UserPersonaFile, File: opts.PersonasFile, Agents: opts.Agents})
	if err != nil {
		return nil, err
	}
	prov, err := NewProvider(pc)
	if err != nil {
		return nil, err
	}
	cfg := Config{
		Topic: opts.Topic, Personas: panel.Enabled(), Moderator: panel.Moderator, Rounds: opts.Rounds,
		Seed: opts.Seed, BlindOpening: opts.BlindOpening, StopOnConsensus: opts.StopOnConsensus,
		TurnTimeout: opts.TurnTimeout, MaxTurnTokens: TurnTokenCap(pc.MaxTokens),
	}
	eng, err := New(cfg, prov)
	if err != nil {
		return nil, err
	}
	cwd := opts.Cwd
	if cwd == "" {
		cwd = "."
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%w: --cwd %s is not a folder; create it or point --cwd elsewhere", ErrBadConfig, cwd)
	}
	if opts.Room != "" {
		if err := room.ValidateName(opts.Room); err != nil {
			return nil, fmt.Errorf("%w: --room: %w", ErrBadConfig, err)
		}
	}
	return &Prepared{Engine: eng, Provider: pc, Format: format, Room: opts.Room, Cwd: cwd}, nil
}

// RunHeadless runs a debate without a screen: it prepares it
// (PrepareHeadless), saves it as a room under opts.Cwd, writes its events to
// stdout in opts.Format, and notes the room on stderr. It returns nil when
// the debate is done and saved, an error wrapping context.Canceled when ctx
// was cancelled (after saving what was said), and the debate's error
// otherwise.
func RunHeadless(ctx context.Context, opts HeadlessOptions, stdout, stderr io.Writer) error {
	p, err := PrepareHeadless(opts)
	if err != nil {
		return err
	}
	return p.Run(ctx, stdout, stderr)
}

// Run creates the room and runs the prepared debate (see RunHeadless).
func (p *Prepared) Run(ctx context.Context, stdout, stderr io.Writer) error {
	if err := Preflight(ctx, p.Provider); err != nil {
		return err
	}
	r, err := CreateRoom(p.Cwd, p.Room, p.Engine.Config())
	if err != nil {
		return err
	}
	rel := r.Dir()
	if wd, err := os.Getwd(); err == nil {
		if x, err := filepath.Rel(wd, rel); err == nil && !strings.HasPrefix(x, "..") {
			rel = x
		}
	}
	name := r.Config().Room
	fmt.Fprintf(stderr, "roundtable: saving the debate in room %s (%s)\n", name, rel)

	bw := bufio.NewWriterSize(stdout, 32<<10)
	out := newOutput(p.Format, bw)
	var last Event
	for ev := range Record(p.Engine.Run(ctx), NewRecorder(r)) {
		out.event(ev)
		if ev.Type == EventToken || ev.Type == EventTurnStart {
			// Live formats show each token as it comes.
			if p.Format != FormatMD {
				_ = bw.Flush()
			}
		}
		last = ev
	}
	out.end()
	_ = bw.Flush()

	switch {
	case last.Type == EventDone:
		fmt.Fprintf(stderr, "roundtable: saved; read it again with: roundtable transcript --room %s\n", name)
		return nil
	case last.Text == CancelledMessage:
		fmt.Fprintf(stderr, "roundtable: cancelled; what was said is saved in room %s\n", name)
		return fmt.Errorf("debate cancelled (saved in room %s): %w", name, context.Canceled)
	default:
		if errors.Is(last.Err, ErrSave) {
			return last.Err
		}
		return fmt.Errorf("%s (what was said is saved in room %s)", last.Text, name)
	}
}

// output writes events in one format.
type output interface {
	event(ev Event)
	end()
}

func newOutput(format string, w io.Writer) output {
	switch format {
	case FormatJSONL:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return &jsonlOutput{enc: enc}
	case FormatMD:
		return &mdOutput{w: w}
	}
	return &textOutput{w: w}
}

type jsonlOutput struct{ enc *json.Encoder }

func (o *jsonlOutput) event(ev Event) { _ = o.enc.Encode(ev) }
func (o *jsonlOutput) end()           {}

type mdOutput struct {
	w io.Writer
	t Transcript
}

func (o *mdOutput) event(ev Event) { o.t.Add(ev) }
func (o *mdOutput) end()           { _ = o.t.WriteMarkdown(o.w) }

// textOutput writes a debate as readable live text.
type textOutput struct {
	w      io.Writer
	rounds int
}

func (o *textOutput) event(ev Event) {
	w := o.w
	switch ev.Type {
	case EventSessionStart:
		o.rounds = ev.Rounds
		fmt.Fprintf(w, "Debate: %s\nPanel:  %s (%d %s, %s)\n", oneLine(ev.Topic), joinNames(ev.Agents), ev.Rounds, plural(ev.Rounds, "round", "rounds"), ev.Provider)
	case EventRoundStart:
		fmt.Fprintf(w, "\n━━━ Round %d of %d ━━━\n", ev.Round, o.rounds)
	case EventTurnStart:
		fmt.Fprintf(w, "\n▌ %s", ev.Agent)
		if ev.Model != "" {
			fmt.Fprintf(w, " · %s", ev.Model)
		}
		fmt.Fprint(w, "\n\n")
	case EventToken:
		fmt.Fprint(w, ev.Text)
	case EventTurnEnd:
		if ev.Incomplete {
			fmt.Fprint(w, " [incomplete]")
		}
		fmt.Fprint(w, "\n")
	case EventRoundEnd:
		if ev.Consensus != nil && *ev.Consensus && ev.Round < o.rounds {
			fmt.Fprintf(w, "\nThe moderator finds consensus after round %d; going to the verdict.\n", ev.Round)
		}
	case EventSummary:
		fmt.Fprintf(w, "\n━━━ Moderator's verdict ━━━\n\n%s\n", strings.TrimSpace(ev.Text))
	case EventDone:
		if ev.Usage != nil {
			fmt.Fprintf(w, "\n%s\n", usageLine(*ev.Usage))
		}
	case EventError:
		fmt.Fprintf(w, "\nThe debate stopped: %s\n", oneLine(ev.Text))
	}
}

func (o *textOutput) end() {}

func usageLine(u Usage) string {
	s := fmt.Sprintf("Tokens: %d prompt, %d completion", u.PromptTokens, u.CompletionTokens)
	if u.Cost > 0 {
		s += fmt.Sprintf(", cost $%.4f", u.Cost)
	}
	return s + "."
}
