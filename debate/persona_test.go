package debate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDefaultPersonasDisagree(t *testing.T) {
	ps := DefaultPersonas()
	want := []string{"Product Manager", "Software Architect", "Security Reviewer"}
	got := make([]string, len(ps))
	for i, p := range ps {
		got[i] = p.Name
		if _, err := p.Validate(); err != nil {
			t.Errorf("default %s: %v", p.Name, err)
		}
		// Each says what it will not accept: the seed of real disagreement.
		if !strings.Contains(p.Persona, "will not accept") {
			t.Errorf("%s's persona says nothing it will not accept", p.Name)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("defaults %v, want %v", got, want)
	}
	// The mock gives each its own voice.
	keys := map[string]bool{}
	for _, p := range ps {
		keys[voiceFor(p).key] = true
	}
	if len(keys) != 3 {
		t.Fatalf("the defaults share voices: %v", keys)
	}
}

func TestPersonaValidate(t *testing.T) {
	tests := []struct {
		name string
		p    Persona
		ok   bool
	}{
		{"fine", Persona{Name: " Cost Optimizer ", Persona: " spend ", Stance: "AGAINST", Color: "#ffb86c"}, true},
		{"ansi color", Persona{Name: "A", Persona: "x", Color: "208"}, true},
		{"short hex", Persona{Name: "A", Persona: "x", Color: "#abc"}, true},
		{"no name", Persona{Persona: "x"}, false},
		{"no persona", Persona{Name: "A"}, false},
		{"newline in name", Persona{Name: "A\nB", Persona: "x"}, false},
		{"escape in name", Persona{Name: "A\x1b[31m", Persona: "x"}, false},
		{"long name", Persona{Name: strings.Repeat("n", MaxNameLen+1), Persona: "x"}, false},
		{"long persona", Persona{Name: "A", Persona: strings.Repeat("p", MaxPersonaLen+1)}, false},
		{"moderator", Persona{Name: "moderator", Persona: "x"}, false},
		{"lead", Persona{Name: "Lead", Persona: "x"}, false},
		{"peer", Persona{Name: "PEER", Persona: "x"}, false},
		{"stance", Persona{Name: "A", Persona: "x", Stance: "maybe"}, false},
		{"color", Persona{Name: "A", Persona: "x", Color: "red"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.p.Validate()
			if (err == nil) != tt.ok {
				t.Fatalf("Validate(%+v) = %v, want ok=%v", tt.p, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrBadPersona) {
				t.Fatalf("error %v does not wrap ErrBadPersona", err)
			}
			if tt.name == "fine" && (got.Name != "Cost Optimizer" || got.Persona != "spend" || got.Stance != StanceAgainst) {
				t.Fatalf("not tidied: %+v", got)
			}
		})
	}
}

func TestParseAgentFlag(t *testing.T) {
	p, err := ParseAgentFlag("Cost Optimizer=a finance-minded reviewer who scrutinizes spend and ROI")
	if err != nil || p.Name != "Cost Optimizer" || p.Persona != "a finance-minded reviewer who scrutinizes spend and ROI" {
		t.Fatalf("got %+v, %v", p, err)
	}
	p, err = ParseAgentFlag("Ops=keeps it up = always")
	if err != nil || p.Name != "Ops" || p.Persona != "keeps it up = always" {
		t.Fatalf("an = in the description: %+v, %v", p, err)
	}
	for _, bad := range []string{"Cost Optimizer", "Cost Optimizer=", "=a reviewer", "", "moderator=x"} {
		if _, err := ParseAgentFlag(bad); !errors.Is(err, ErrBadPersona) {
			t.Errorf("ParseAgentFlag(%q) = %v, want ErrBadPersona", bad, err)
		}
	}
	_, err = ParseAgentFlag("Cost Optimizer")
	if !strings.Contains(err.Error(), `Cost Optimizer=`) {
		t.Errorf("the error %q does not show the right form", err)
	}
}

func TestLoadPersonaFile(t *testing.T) {
	pf, err := LoadPersonaFile(filepath.Join("testdata", "personas", "panel.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pf.Personas) != 3 {
		t.Fatalf("%d personas", len(pf.Personas))
	}
	c := pf.Personas[0]
	if c.Name != "Cost Optimizer" || c.Stance != StanceAgainst || c.Model != "openai/gpt-4o" || c.Color != "#FFB86C" || !c.Enabled {
		t.Errorf("first persona %+v", c)
	}
	if pf.Personas[2].Enabled {
		t.Error("enabled = false was ignored")
	}
	if pf.Moderator == nil || pf.Moderator.Name != "Moderator" || !strings.Contains(pf.Moderator.Persona, "blunt CTO") || pf.Moderator.Model != "anthropic/claude-sonnet-4" {
		t.Errorf("moderator %+v", pf.Moderator)
	}
	for file, want := range map[string]string{
		"typo.toml":      "persnoa",
		"badstance.toml": "sideways",
		"notoml.toml":    "not valid TOML",
		"missing.toml":   "no such file",
	} {
		_, err := LoadPersonaFile(filepath.Join("testdata", "personas", file))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error mentioning %q", file, err, want)
		}
	}
}

func TestLoadPanel(t *testing.T) {
	dir := filepath.Join("testdata", "personas")
	names := func(cs []PersonaChoice) (all, on []string) {
		for _, c := range cs {
			all = append(all, c.Name)
			if c.Enabled {
				on = append(on, c.Name)
			}
		}
		return all, on
	}
	tests := []struct {
		name    string
		opt     PanelOptions
		all, on []string
		mod     string
	}{
		{
			name: "defaults",
			all:  []string{"Product Manager", "Software Architect", "Security Reviewer"},
			on:   []string{"Product Manager", "Software Architect", "Security Reviewer"},
			mod:  "neutral moderator",
		},
		{
			name: "missing user file is fine",
			opt:  PanelOptions{UserFile: filepath.Join(dir, "absent.toml")},
			all:  []string{"Product Manager", "Software Architect", "Security Reviewer"},
			on:   []string{"Product Manager", "Software Architect", "Security Reviewer"},
			mod:  "neutral moderator",
		},
		{
			name: "user file replaces defaults and adds",
			opt:  PanelOptions{UserFile: filepath.Join(dir, "user.toml")},
			all:  []string{"Product Manager", "Software Architect", "Security Reviewer", "Data Scientist"},
			on:   []string{"Product Manager", "Data Scientist"},
			mod:  "neutral moderator",
		},
		{
			name: "personas file defines the panel in its order",
			opt:  PanelOptions{File: filepath.Join(dir, "panel.toml")},
			all:  []string{"Product Manager", "Software Architect", "Cost Optimizer", "Security Reviewer", "Intern"},
			on:   []string{"Cost Optimizer", "Security Reviewer"},
			mod:  "blunt CTO",
		},
		{
			name: "agents are added",
			opt:  PanelOptions{Agents: []string{"Cost Optimizer=a finance-minded reviewer", "SRE=carries the pager"}},
			all:  []string{"Product Manager", "Software Architect", "Security Reviewer", "Cost Optimizer", "SRE"},
			on:   []string{"Product Manager", "Software Architect", "Security Reviewer", "Cost Optimizer", "SRE"},
			mod:  "neutral moderator",
		},
		{
			name: "all sources",
			opt: PanelOptions{
				UserFile: filepath.Join(dir, "user.toml"), File: filepath.Join(dir, "panel.toml"),
				Agents: []string{"Intern=an intern who finally speaks"},
			},
			all: []string{"Product Manager", "Software Architect", "Data Scientist", "Cost Optimizer", "Security Reviewer", "Intern"},
			on:  []string{"Cost Optimizer", "Security Reviewer", "Intern"},
			mod: "blunt CTO",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := LoadPanel(tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			all, on := names(p.Personas)
			if !slices.Equal(all, tt.all) || !slices.Equal(on, tt.on) {
				t.Fatalf("all %v on %v; want all %v on %v", all, on, tt.all, tt.on)
			}
			enabled := p.Enabled()
			if len(enabled) != len(tt.on) {
				t.Fatalf("Enabled() = %d personas", len(enabled))
			}
			if !strings.Contains(p.Moderator.Persona, tt.mod) {
				t.Fatalf("moderator %q, want %q", p.Moderator.Persona, tt.mod)
			}
		})
	}
	// A missing file says what --personas takes, as a user who tried
	// persona names there (--personas pm,architect) needs to read.
	if _, err := LoadPanel(PanelOptions{File: "pm,architect"}); !errors.Is(err, ErrBadPersona) ||
		!strings.Contains(err.Error(), "no personas file pm,architect; --personas takes the path of a TOML file") || !strings.Contains(err.Error(), "--agent") {
		t.Errorf("a missing --personas file: %v", err)
	}
	if _, err := LoadPanel(PanelOptions{UserFile: filepath.Join(dir, "typo.toml")}); err == nil || !strings.Contains(err.Error(), "your persona file") {
		t.Errorf("a broken user file: %v", err)
	}
	if _, err := LoadPanel(PanelOptions{Agents: []string{"nope"}}); !errors.Is(err, ErrBadPersona) {
		t.Errorf("a bad --agent: %v", err)
	}
}

func TestUserPersonaFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	got := UserPersonaFile()
	want := filepath.Join(dir, "roundtable", "personas.toml")
	if got != want {
		t.Fatalf("UserPersonaFile() = %q, want %q", got, want)
	}
	if err := os.MkdirAll(filepath.Dir(got), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(got, []byte("[[persona]]\nname = \"Legal\"\npersona = \"counsel who reads every licence\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPanel(PanelOptions{UserFile: UserPersonaFile()})
	if err != nil {
		t.Fatal(err)
	}
	if last := p.Personas[len(p.Personas)-1]; last.Name != "Legal" || !last.Enabled || last.Source != got {
		t.Fatalf("user persona %+v", last)
	}
}

func TestOversizedPanelAndTopicAreRefused(t *testing.T) {
	many := make([]Persona, 100)
	for i := range many {
		many[i] = Persona{Name: fmt.Sprintf("Persona %d", i), Persona: "an opinionated reviewer"}
	}
	if _, err := New(Config{Topic: "t", Personas: many}, NewMock(0)); !errors.Is(err, ErrBadPersona) || !strings.Contains(err.Error(), "100 personas") {
		t.Fatalf("100 personas: %v", err)
	}
	if _, err := New(Config{Topic: strings.Repeat("x", 10<<20), Personas: DefaultPersonas()}, NewMock(0)); !errors.Is(err, ErrBadConfig) {
		t.Fatalf("10 MB topic: %v", err)
	}
}

// TestDuplicatePersonaNames: two personas of one name in a file (case
// aside) are refused, pointing at both lines; a file the line scanner
// cannot follow still refuses, counting personas instead.
func TestDuplicatePersonaNames(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"plain", `
[[persona]]
name = "Cost Optimizer"
persona = "a reviewer"

[[persona]]
persona = "the name comes second"
name = "COST OPTIMIZER"
`, `f.toml line 8: a second persona named "COST OPTIMIZER" (the first is at line 3)`},
		{"a multi-line string that looks like a table", `
[[persona]]
name = "A"
persona = """
[[persona]]
name = "B"
"""
[moderator]
persona = "x"

[[persona]]
name = "C"
persona = "c"

[[ persona ]]  # spaced
"name" = "A"
persona = "again"
`, `f.toml line 16: a second persona named "A" (the first is at line 3)`},
		{
			"an inline array", `persona = [{name = "A", persona = "a"}, {name = "A", persona = "b"}]`,
			`f.toml, persona 2: a second persona named "A" (the first is at persona 1)`,
		},
	}
	for _, tt := range tests {
		_, err := ParsePersonaFile("f.toml", []byte(tt.text))
		if !errors.Is(err, ErrBadPersona) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	// A persona's own invalid field is placed by line too.
	_, err := ParsePersonaFile("f.toml", []byte("[[persona]]\nname = \"A\"\npersona = \"a\"\n[[persona]]\nname = \"\"\npersona = \"b\"\n"))
	if err == nil || !strings.Contains(err.Error(), "f.toml line 5:") {
		t.Errorf("an empty name: %v", err)
	}
}

// TestModeratorAgentFlag: --agent "Moderator=acp:…" hands the verdict to
// an agent and keeps the moderator who it is; a moderator named with a
// description is still refused as reserved, and a bad agent value is said.
func TestModeratorAgentFlag(t *testing.T) {
	panel, err := LoadPanel(PanelOptions{Agents: []string{"moderator=acp:codex", "Claude=acp:claude"}})
	if err != nil {
		t.Fatal(err)
	}
	if m := panel.Moderator; len(m.Agent) != 1 || m.Agent[0] != "acp:codex" || m.Persona != DefaultModerator().Persona {
		t.Fatalf("moderator = %+v", m)
	}
	for _, c := range panel.Personas {
		if strings.EqualFold(c.Name, "moderator") {
			t.Fatalf("the moderator became a persona: %+v", c)
		}
	}
	if _, err := LoadPanel(PanelOptions{Agents: []string{"Moderator=a persona of mine"}}); !errors.Is(err, ErrBadPersona) || !strings.Contains(err.Error(), "reserved") {
		t.Fatalf("a described moderator: %v, want the reserved-name refusal", err)
	}
	if _, err := LoadPanel(PanelOptions{Agents: []string{"Moderator=acp:"}}); !errors.Is(err, ErrBadPersona) {
		t.Fatalf("moderator=acp: gave %v, want a bad persona", err)
	}
}
