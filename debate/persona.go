package debate

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Persona is one voice of a debate. Adding one is data, not code: a name and
// a description of who they are, what they watch for and what they will not
// accept. Stance ("for", "against", "neutral" or empty) tilts their reading
// of the topic; Model overrides the provider's model for this persona, so
// one debate can mix models; Color is a display hint ("#RRGGBB" or an ANSI
// color number) for views. Agent, when set, has a coding agent speak for the
// persona over ACP instead of the debate's model: its argv (["qwen",
// "--acp"]) or one "acp:<preset or command>" element (["acp:claude"]).
type Persona struct {
	Name    string   `toml:"name" json:"name"`
	Persona string   `toml:"persona" json:"persona"`
	Stance  string   `toml:"stance,omitempty" json:"stance,omitempty"`
	Model   string   `toml:"model,omitempty" json:"model,omitempty"`
	Color   string   `toml:"color,omitempty" json:"color,omitempty"`
	Agent   []string `toml:"agent,omitempty" json:"agent,omitempty"`
}

// AgentSpec is the agent that speaks for p; ok is false when a model
// does. Call it on a validated persona.
func (p Persona) AgentSpec() (spec AgentSpec, ok bool, err error) {
	if len(p.Agent) == 0 {
		return AgentSpec{}, false, nil
	}
	spec, err = agentFromArgv(p.Agent)
	return spec, err == nil, err
}

// DefaultAgentPersona is the description of a persona given on the command
// line as only an agent ("Claude=acp:claude").
const DefaultAgentPersona = "an experienced engineer with the project's code at hand. " +
	"You read the code that bears on the decision before you argue, cite the files and lines you rely on, " +
	"and judge every claim by what the code and its history show rather than by what sounds good. " +
	"You will not accept a plan that ignores how the system is actually built."

// Stances a persona may take.
const (
	StanceFor     = "for"
	StanceAgainst = "against"
	StanceNeutral = "neutral"
)

// Limits on persona fields, so a file cannot flood a prompt or a screen.
const (
	MaxNameLen    = 40
	MaxPersonaLen = 4000
)

// ErrBadPersona marks a persona that cannot take part (bad name, empty
// description, unknown stance...). The wrapped message says what to fix.
var ErrBadPersona = errors.New("bad persona")

// DefaultPersonas is the default trio. Each one has goals that pull against
// the others', so they disagree for real.
func DefaultPersonas() []Persona {
	return []Persona{
		{
			Name: "Product Manager",
			Persona: "a product manager who owns the roadmap and answers to users and the business. " +
				"You push to ship value soon, in small slices whose effect you can measure, and you judge " +
				"every idea by what it does for users, adoption and time to market. You watch for gold-plating, " +
				"rewrites nobody asked for and process that slows the team down. You will not accept a plan " +
				"that delays user value for months without a measurable reason.",
			Color: "#7AA2F7",
		},
		{
			Name: "Software Architect",
			Persona: "a software architect responsible for the long-term shape of the system. " +
				"You weigh complexity, coupling, operability, performance and the cost of change over years, " +
				"not sprints. You watch for accidental complexity, new moving parts the team cannot run, " +
				"and decisions that are hard to reverse. You will not accept a choice made for novelty or a " +
				"deadline alone, without a migration path and a way back.",
			Color: "#9ECE6A",
		},
		{
			Name: "Security Reviewer",
			Persona: "a security reviewer who assumes every new surface will be attacked. " +
				"You look for new attack surface, gaps in authentication and authorization, data exposure, " +
				"supply-chain risk and compliance duties. You will not accept shipping without a threat model, " +
				"safe defaults, and a way to detect and roll back abuse; when the risk is not under control " +
				"you say no, plainly.",
			Color: "#F7768E",
		},
	}
}

// DefaultModerator is the neutral voice that reads the whole debate and
// gives the verdict.
func DefaultModerator() Persona {
	return Persona{
		Name: "Moderator",
		Persona: "a neutral moderator and seasoned engineering director. You read the whole debate, " +
			"weigh the arguments rather than count voices, keep real dissent visible instead of papering " +
			"over it, and end with a decision someone can act on tomorrow.",
		Color: "#E0AF68",
	}
}

// reservedNames are seat names of the room format; a persona named like one
// would be confused with it.
var reservedNames = []string{"moderator", "lead", "peer"}

var colorRE = regexp.MustCompile(`^(#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{3}|[0-9]{1,3})$`)

// Validate checks p and returns it tidied: trimmed fields and a lower-case
// stance. It refuses an empty or over-long name, a reserved name (moderator,
// lead, peer), control characters in the name, an empty or over-long
// description, an unknown stance and a malformed color.
func (p Persona) Validate() (Persona, error) {
	p.Name = strings.TrimSpace(p.Name)
	p.Persona = strings.TrimSpace(p.Persona)
	p.Stance = strings.ToLower(strings.TrimSpace(p.Stance))
	p.Model = strings.TrimSpace(p.Model)
	p.Color = strings.TrimSpace(p.Color)
	switch {
	case p.Name == "":
		return p, fmt.Errorf("%w: a persona needs a name", ErrBadPersona)
	case utf8.RuneCountInString(p.Name) > MaxNameLen:
		return p, fmt.Errorf("%w: the name %q is longer than %d characters; shorten it", ErrBadPersona, p.Name, MaxNameLen)
	case strings.ContainsFunc(p.Name, unicode.IsControl):
		return p, fmt.Errorf("%w: the name %q contains control characters or a line break", ErrBadPersona, p.Name)
	case isReserved(p.Name):
		return p, fmt.Errorf("%w: %q is reserved for the room's own seats; pick another name", ErrBadPersona, p.Name)
	case p.Persona == "":
		return p, fmt.Errorf("%w: %q needs a description of who they are and what they argue for", ErrBadPersona, p.Name)
	case utf8.RuneCountInString(p.Persona) > MaxPersonaLen:
		return p, fmt.Errorf("%w: the description of %q is longer than %d characters; shorten it", ErrBadPersona, p.Name, MaxPersonaLen)
	case !utf8.ValidString(p.Persona):
		return p, fmt.Errorf("%w: the description of %q is not valid UTF-8", ErrBadPersona, p.Name)
	}
	switch p.Stance {
	case "", StanceFor, StanceAgainst, StanceNeutral:
	default:
		return p, fmt.Errorf("%w: %q has stance %q; use for, against or neutral (or leave it out)", ErrBadPersona, p.Name, p.Stance)
	}
	if strings.ContainsFunc(p.Model, unicode.IsControl) {
		return p, fmt.Errorf("%w: the model of %q contains control characters", ErrBadPersona, p.Name)
	}
	if p.Color != "" && !colorRE.MatchString(p.Color) {
		return p, fmt.Errorf("%w: %q has color %q; use #RRGGBB, #RGB or an ANSI color number", ErrBadPersona, p.Name, p.Color)
	}
	if len(p.Agent) > 0 {
		if _, err := agentFromArgv(p.Agent); err != nil {
			return p, fmt.Errorf("%q: %w", p.Name, err)
		}
	}
	return p, nil
}

func isReserved(name string) bool {
	for _, r := range reservedNames {
		if strings.EqualFold(name, r) {
			return true
		}
	}
	return false
}

// ParseAgentFlag reads one --agent value, "Name=who they are", for example
// "Cost Optimizer=a finance-minded reviewer who scrutinizes spend and ROI",
// or "Name=acp:<preset or command>" for a persona a coding agent speaks for
// ("Claude=acp:claude"), which gets DefaultAgentPersona as its description.
func ParseAgentFlag(s string) (Persona, error) {
	name, desc, ok := strings.Cut(s, "=")
	if ok && strings.HasPrefix(strings.TrimSpace(desc), AgentPrefix) {
		v := strings.TrimSpace(desc)
		if _, err := ParseAgent(v); err != nil {
			return Persona{}, fmt.Errorf("--agent %q: %w", s, err)
		}
		return Persona{Name: name, Persona: DefaultAgentPersona, Agent: []string{v}}.Validate()
	}
	if !ok || strings.TrimSpace(desc) == "" {
		n := strings.TrimSpace(name)
		if n == "" {
			n = "Cost Optimizer"
		}
		return Persona{}, fmt.Errorf("%w: --agent %q needs a name and a description, like --agent %q", ErrBadPersona, s, n+"=a finance-minded reviewer who scrutinizes spend and ROI")
	}
	return Persona{Name: name, Persona: desc}.Validate()
}

// ValidatePersonas checks a debate's panel: at least one persona, at most
// MaxPersonas, each valid, names unique (ignoring case).
func ValidatePersonas(ps []Persona) ([]Persona, error) {
	if len(ps) == 0 {
		return nil, fmt.Errorf("%w: a debate needs at least one persona; enable one or add one with --agent", ErrBadPersona)
	}
	if len(ps) > MaxPersonas {
		return nil, fmt.Errorf("%w: %d personas, more than the %d a debate can seat; disable some", ErrBadPersona, len(ps), MaxPersonas)
	}
	out := make([]Persona, len(ps))
	seen := make(map[string]bool, len(ps))
	for i, p := range ps {
		v, err := p.Validate()
		if err != nil {
			return nil, err
		}
		key := strings.ToLower(v.Name)
		if seen[key] {
			return nil, fmt.Errorf("%w: two personas are named %q; names must be unique", ErrBadPersona, v.Name)
		}
		seen[key] = true
		out[i] = v
	}
	return out, nil
}

// MaxPersonas is the largest panel a debate seats.
const MaxPersonas = 12
