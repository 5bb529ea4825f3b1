package debate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// LoadPersonaFile reads a persona file. The format is TOML:
//
//	# Optional: switch the built-in trio off (they stay in the list, off).
//	replace_defaults = false
//
//	[[persona]]
//	name    = "Cost Optimizer"                                    # required
//	persona = "a finance-minded reviewer who scrutinizes spend and ROI" # required
//	stance  = "against"        # optional: for | against | neutral
//	model   = "openai/gpt-4o"  # optional: this persona's model
//	color   = "#FFB86C"        # optional: #RRGGBB, #RGB or an ANSI number
//	enabled = true             # optional, default true: starts switched on
//	agent   = ["acp:claude"]   # optional: a coding agent speaks for this persona over ACP
//	                           # (a preset: claude, codex, gemini, qwen, opencode; or an argv like ["qwen", "--acp"])
//
//	[moderator]                # optional: replaces the moderator's persona
//	persona = "a blunt CTO who wants one decision and a date"
//	model   = "anthropic/claude-sonnet-4"
//	agent   = ["acp:codex"]    # optional: the moderator may be an agent too
//
//	[prices."openai/gpt-4o"]   # optional: what a model costs, for the cost shown
//	prompt     = 2.50          # US dollars per million prompt tokens
//	completion = 10.00         # US dollars per million completion tokens
//
// A price is used where the provider reports no cost of its own
// (OpenRouter does); the model is named as the debate labels it.
//
// Unknown keys are refused (they are usually typos), and so is a persona
// that fails Persona.Validate.
func LoadPersonaFile(path string) (PersonaFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return PersonaFile{}, fmt.Errorf("%w: cannot read the persona file %s (%w); pass a readable TOML file", ErrBadPersona, path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPersonaFile+1))
	if err != nil {
		return PersonaFile{}, fmt.Errorf("%w: cannot read the persona file %s (%w); pass a readable TOML file", ErrBadPersona, path, err)
	}
	if len(data) > maxPersonaFile {
		return PersonaFile{}, fmt.Errorf("%w: persona file %s is larger than %d KiB", ErrBadPersona, path, maxPersonaFile>>10)
	}
	return ParsePersonaFile(path, data)
}

// maxPersonaFile bounds how much of a persona file is read.
const maxPersonaFile = 1 << 20

// PersonaFile is a parsed persona file.
type PersonaFile struct {
	ReplaceDefaults bool
	Personas        []PersonaChoice
	Moderator       *Persona // nil when the file has no [moderator]
	Prices          PriceTable
}

type rawPersona struct {
	Name    string   `toml:"name"`
	Persona string   `toml:"persona"`
	Stance  string   `toml:"stance"`
	Model   string   `toml:"model"`
	Color   string   `toml:"color"`
	Enabled *bool    `toml:"enabled"`
	Agent   []string `toml:"agent"`
}

type rawFile struct {
	ReplaceDefaults bool         `toml:"replace_defaults"`
	Persona         []rawPersona `toml:"persona"`
	Moderator       *rawPersona  `toml:"moderator"`
	Prices          PriceTable   `toml:"prices"`
}

// ParsePersonaFile parses the TOML text of a persona file; name is used in
// error messages only.
func ParsePersonaFile(name string, data []byte) (PersonaFile, error) {
	var raw rawFile
	md, err := toml.Decode(string(data), &raw)
	if err != nil {
		return PersonaFile{}, fmt.Errorf("%w: %s is not valid TOML: %v", ErrBadPersona, name, err)
	}
	if extra := md.Undecoded(); len(extra) > 0 {
		keys := make([]string, len(extra))
		for i, k := range extra {
			keys[i] = k.String()
		}
		return PersonaFile{}, fmt.Errorf("%w: %s has unknown keys %s; a persona has name, persona, stance, model, color, enabled and agent; a price has prompt and completion",
			ErrBadPersona, name, strings.Join(keys, ", "))
	}
	if err := checkPrices(name, raw.Prices); err != nil {
		return PersonaFile{}, err
	}
	out := PersonaFile{ReplaceDefaults: raw.ReplaceDefaults, Prices: raw.Prices}
	lines := personaLines(data, len(raw.Persona))
	// at is where persona i is in the file; where names the file too.
	at := func(i int) string {
		if lines != nil {
			return fmt.Sprintf("line %d", lines[i])
		}
		return fmt.Sprintf("persona %d", i+1)
	}
	where := func(i int) string {
		if lines != nil {
			return name + " " + at(i)
		}
		return name + ", " + at(i)
	}
	seen := map[string]int{}
	for i, r := range raw.Persona {
		p, err := Persona{Name: r.Name, Persona: r.Persona, Stance: r.Stance, Model: r.Model, Color: r.Color, Agent: r.Agent}.Validate()
		if err != nil {
			return PersonaFile{}, fmt.Errorf("%s: %w", where(i), err)
		}
		// Two personas of one name would silently become one (or seat
		// the same voice twice): refuse, pointing at both.
		key := strings.ToLower(p.Name)
		if first, dup := seen[key]; dup {
			return PersonaFile{}, fmt.Errorf("%w: %s: a second persona named %q (the first is at %s); give each persona its own name",
				ErrBadPersona, where(i), p.Name, at(first))
		}
		seen[key] = i
		enabled := r.Enabled == nil || *r.Enabled
		out.Personas = append(out.Personas, PersonaChoice{Persona: p, Enabled: enabled, Source: name})
	}
	if raw.Moderator != nil {
		m, err := mergeModerator(DefaultModerator(), *raw.Moderator)
		if err != nil {
			return PersonaFile{}, fmt.Errorf("%s, [moderator]: %w", name, err)
		}
		out.Moderator = &m
	}
	return out, nil
}

// personaLines finds, for each of the n [[persona]] tables of a persona
// file in order, the line of its name key (or of its header when it has
// none), counting from 1. It reads the text line by line, skipping
// multi-line strings; it returns nil when what it finds does not add up to
// n tables (personas written as an inline array), and messages then count
// personas instead.
func personaLines(data []byte, n int) []int {
	var out []int
	in := false    // inside a [[persona]] table
	named := false // its name key was seen
	quote := ""    // the delimiter of the multi-line string being skipped
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if quote != "" {
			if strings.Count(t, quote)%2 == 1 {
				quote = ""
			}
			continue
		}
		for _, q := range []string{`"""`, "'''"} {
			if strings.Count(t, q)%2 == 1 {
				quote = q
			}
		}
		switch {
		case strings.HasPrefix(t, "[["):
			head := strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], " \t[]"))
			in = head == "persona" || head == `"persona"`
			named = false
			if in {
				out = append(out, i+1)
			}
		case strings.HasPrefix(t, "["):
			in = false
		case in && !named:
			if k, _, ok := strings.Cut(t, "="); ok && strings.Trim(strings.TrimSpace(k), `"'`) == "name" {
				out[len(out)-1] = i + 1
				named = true
			}
		}
	}
	if len(out) != n {
		return nil
	}
	return out
}

func mergeModerator(m Persona, r rawPersona) (Persona, error) {
	if s := strings.TrimSpace(r.Name); s != "" {
		m.Name = s
	}
	if s := strings.TrimSpace(r.Persona); s != "" {
		m.Persona = s
	}
	m.Model = strings.TrimSpace(r.Model)
	m.Agent = r.Agent
	if s := strings.TrimSpace(r.Color); s != "" {
		m.Color = s
	}
	// Validate with a neutral name: "Moderator" is reserved for personas.
	check := m
	check.Name = "x"
	if _, err := check.Validate(); err != nil {
		return m, err
	}
	if len([]rune(m.Name)) > MaxNameLen || strings.ContainsAny(m.Name, "\n\r\t") {
		return m, fmt.Errorf("%w: the moderator's name %q is too long or has line breaks", ErrBadPersona, m.Name)
	}
	return m, nil
}

// UserPersonaFile is the user's own persona file,
// <user config dir>/roundtable/personas.toml (on Linux usually
// ~/.config/roundtable/personas.toml); empty when there is no user config
// folder. The file need not exist.
func UserPersonaFile() string {
	dir, err := os.UserConfigDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, "roundtable", "personas.toml")
}

// PersonaChoice is one persona of a panel, switched on or off, with where
// it came from ("default", a file path, or "--agent").
type PersonaChoice struct {
	Persona
	Enabled bool
	Source  string
}

// Sources of a PersonaChoice that are not files.
const (
	SourceDefault = "default"
	SourceFlag    = "--agent"
)

// Panel is everything a debate form offers: every known persona, each
// switched on or off, and the moderator.
type Panel struct {
	Personas  []PersonaChoice
	Moderator Persona
	// Prices are the persona files' price tables, merged (a later file's
	// price of a model wins).
	Prices PriceTable
}

// PanelOptions say where personas come from.
type PanelOptions struct {
	UserFile string   // usually UserPersonaFile(); read when present, skipped when missing
	File     string   // --personas: must exist; its personas become the panel
	Agents   []string // --agent values, "Name=who they are"
}

// LoadPanel combines, in this order: the default trio (on); the user file
// (a persona named like an earlier one replaces it in place, others are
// added; replace_defaults switches the defaults off); the --personas file
// (its personas come last, in the file's order, switched on, and every
// earlier one is switched off, so the file defines the panel); and the --agent flags (added, switched on). The
// speaking order is the list order of the personas switched on. The last
// [moderator] given wins.
func LoadPanel(opt PanelOptions) (Panel, error) {
	panel := Panel{Moderator: DefaultModerator()}
	for _, p := range DefaultPersonas() {
		panel.Personas = append(panel.Personas, PersonaChoice{Persona: p, Enabled: true, Source: SourceDefault})
	}
	if opt.UserFile != "" {
		pf, err := LoadPersonaFile(opt.UserFile)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return Panel{}, fmt.Errorf("%w (your persona file; fix it or move it away)", err)
		default:
			if pf.ReplaceDefaults {
				panel.setAll(false)
			}
			panel.merge(pf)
		}
	}
	if opt.File != "" {
		pf, err := LoadPersonaFile(opt.File)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return Panel{}, fmt.Errorf("%w: no personas file %s; --personas takes the path of a TOML file of [[persona]] tables (docs/debates.md), and --agent \"Name=who they are\" adds one persona", ErrBadPersona, opt.File)
			}
			return Panel{}, err
		}
		if len(pf.Personas) == 0 && pf.Moderator == nil && len(pf.Prices) == 0 {
			return Panel{}, fmt.Errorf("%w: %s defines no [[persona]]", ErrBadPersona, opt.File)
		}
		if len(pf.Personas) > 0 {
			panel.setAll(false)
		}
		for _, c := range pf.Personas {
			panel.remove(c.Name)
			panel.Personas = append(panel.Personas, c)
		}
		if pf.Moderator != nil {
			panel.Moderator = *pf.Moderator
		}
		panel.Prices = mergePrices(panel.Prices, pf.Prices)
	}
	for _, a := range opt.Agents {
		if spec, ok := moderatorAgent(a); ok {
			// "Moderator=acp:claude" hands the verdict to an agent: the
			// moderator keeps who it is (the default's, or a file's).
			if _, err := ParseAgent(spec); err != nil {
				return Panel{}, fmt.Errorf("--agent %q: %w", a, err)
			}
			panel.Moderator.Agent = []string{spec}
			continue
		}
		p, err := ParseAgentFlag(a)
		if err != nil {
			return Panel{}, err
		}
		if len(p.Agent) > 0 {
			// "Security Reviewer=acp:claude" hands a known persona to an
			// agent: it keeps who it is.
			if i := panel.index(p.Name); i >= 0 {
				known := panel.Personas[i].Persona
				known.Agent = p.Agent
				p = known
			}
		}
		panel.upsert(PersonaChoice{Persona: p, Enabled: true, Source: SourceFlag})
	}
	return panel, nil
}

// moderatorAgent reads an --agent value that names the moderator and an
// agent, "Moderator=acp:claude", and returns the agent's value.
func moderatorAgent(s string) (string, bool) {
	name, v, ok := strings.Cut(s, "=")
	v = strings.TrimSpace(v)
	if !ok || !strings.EqualFold(strings.TrimSpace(name), "moderator") || !strings.HasPrefix(v, AgentPrefix) {
		return "", false
	}
	return v, true
}

func (p *Panel) setAll(on bool) {
	for i := range p.Personas {
		p.Personas[i].Enabled = on
	}
}

func (p *Panel) merge(pf PersonaFile) {
	for _, c := range pf.Personas {
		p.upsert(c)
	}
	if pf.Moderator != nil {
		p.Moderator = *pf.Moderator
	}
	p.Prices = mergePrices(p.Prices, pf.Prices)
}

// upsert replaces the persona with c's name (ignoring case) or appends c.
func (p *Panel) upsert(c PersonaChoice) {
	for i := range p.Personas {
		if strings.EqualFold(p.Personas[i].Name, c.Name) {
			p.Personas[i] = c
			return
		}
	}
	p.Personas = append(p.Personas, c)
}

// index is the position of the persona named name (ignoring case), or -1.
func (p *Panel) index(name string) int {
	for i := range p.Personas {
		if strings.EqualFold(p.Personas[i].Name, strings.TrimSpace(name)) {
			return i
		}
	}
	return -1
}

// remove drops the persona named name (ignoring case), if any.
func (p *Panel) remove(name string) {
	for i := range p.Personas {
		if strings.EqualFold(p.Personas[i].Name, name) {
			p.Personas = append(p.Personas[:i], p.Personas[i+1:]...)
			return
		}
	}
}

// Enabled lists the personas switched on, in speaking order.
func (p Panel) Enabled() []Persona {
	var out []Persona
	for _, c := range p.Personas {
		if c.Enabled {
			out = append(out, c.Persona)
		}
	}
	return out
}
