package debate

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseAgent(t *testing.T) {
	for _, tc := range []struct {
		in     string
		argv   []string
		preset string
		label  string
	}{
		{"acp:claude", []string{"claude-agent-acp"}, "claude", "acp:claude"},
		{" acp:Codex ", []string{"codex-acp"}, "codex", "acp:codex"},
		{"acp:gemini", []string{"gemini", "--acp"}, "gemini", "acp:gemini"},
		{"acp:qwen", []string{"qwen", "--acp"}, "qwen", "acp:qwen"},
		{"acp:opencode", []string{"opencode", "acp"}, "opencode", "acp:opencode"},
		{"acp:codex-acp --flag x", []string{"codex-acp", "--flag", "x"}, "codex", "acp:codex"},
		{"acp:gemini -m gemini-2.5-flash", []string{"gemini", "--acp", "-m", "gemini-2.5-flash"}, "gemini", "acp:gemini"},
		{"acp:gemini --acp -m x", []string{"gemini", "--acp", "-m", "x"}, "gemini", "acp:gemini"},
		{"acp:qwen --acp", []string{"qwen", "--acp"}, "qwen", "acp:qwen"},
		{"acp:opencode acp", []string{"opencode", "acp"}, "opencode", "acp:opencode"},
		{"acp:claude --debug", []string{"claude-agent-acp", "--debug"}, "claude", "acp:claude"},
		{"acp:my-agent --flag x", []string{"my-agent", "--flag", "x"}, "", "acp:my-agent --flag x"},
		{`acp:/opt/my agent/bin "--name=a b" 'it''s' x\ y`, []string{"/opt/my", "agent/bin", "--name=a b", "its", "x y"}, "", "acp:my agent/bin --name=a b its x y"},
	} {
		s, err := ParseAgent(tc.in)
		if err != nil || !slices.Equal(s.Command, tc.argv) || s.Preset != tc.preset || s.Label() != tc.label {
			t.Errorf("ParseAgent(%q) = %+v %q, %v; want %q %q %q", tc.in, s, s.Label(), err, tc.argv, tc.preset, tc.label)
		}
	}
	for _, bad := range []string{"acp:", "acp:   ", "claude", "", `acp:"open`, `acp:x\`} {
		_, err := ParseAgent(bad)
		if !errors.Is(err, ErrBadPersona) || !IsUsage(err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseAgent(%q): %v, want one usage sentence", bad, err)
		}
	}
	if got := AgentPresets(); !slices.Equal(got, []string{"claude", "codex", "gemini", "qwen", "opencode"}) {
		t.Errorf("presets %v", got)
	}
}

func TestParseAgentTools(t *testing.T) {
	for in, want := range map[string]AgentTools{"": 0, "write": AllowWrite, "exec": AllowExec, "write,exec": AllowWrite | AllowExec, " Exec , write ": AllowWrite | AllowExec} {
		got, err := ParseAgentTools(in)
		if err != nil || got != want {
			t.Errorf("ParseAgentTools(%q) = %v, %v", in, got, err)
		}
		if back, _ := ParseAgentTools(got.String()); back != got {
			t.Errorf("%v does not read back", got)
		}
	}
	if _, err := ParseAgentTools("write,delete"); !IsUsage(err) || !strings.Contains(err.Error(), "write, exec or write,exec") {
		t.Errorf("bad tools: %v", err)
	}
}

func TestAgentPersonas(t *testing.T) {
	p, err := ParseAgentFlag("Claude=acp:claude")
	if err != nil || !slices.Equal(p.Agent, []string{"acp:claude"}) || p.Persona != DefaultAgentPersona {
		t.Fatalf("ParseAgentFlag: %+v, %v", p, err)
	}
	if _, err := ParseAgentFlag("Claude=acp:"); !IsUsage(err) || !strings.Contains(err.Error(), "names no command") {
		t.Errorf("empty agent: %v", err)
	}
	// A known persona handed to an agent keeps who it is.
	panel, err := LoadPanel(PanelOptions{Agents: []string{"Security Reviewer=acp:codex", "Claude=acp:claude"}})
	if err != nil {
		t.Fatal(err)
	}
	var sec, cl Persona
	for _, c := range panel.Personas {
		switch c.Name {
		case "Security Reviewer":
			sec = c.Persona
		case "Claude":
			cl = c.Persona
		}
	}
	if !strings.Contains(sec.Persona, "security reviewer") || !slices.Equal(sec.Agent, []string{"acp:codex"}) || cl.Agent == nil {
		t.Errorf("panel: %+v / %+v", sec, cl)
	}
	pf, err := ParsePersonaFile("p.toml", []byte(`
[[persona]]
name = "Qwen"
persona = "a maintainer"
agent = ["qwen", "--acp"]

[[persona]]
name = "Model"
persona = "a model"

[moderator]
agent = ["acp:codex"]
`))
	if err != nil {
		t.Fatal(err)
	}
	spec, ok, err := pf.Personas[0].AgentSpec()
	if !ok || err != nil || !slices.Equal(spec.Command, []string{"qwen", "--acp"}) || spec.Label() != "acp:qwen" {
		t.Errorf("file agent: %+v %v %v", spec, ok, err)
	}
	if _, ok, _ := pf.Personas[1].AgentSpec(); ok {
		t.Error("a persona without agent is spoken by an agent")
	}
	if ms, ok, _ := pf.Moderator.AgentSpec(); !ok || ms.Preset != "codex" {
		t.Errorf("moderator agent %+v", ms)
	}
	for _, bad := range []string{`agent = ["acp:"]`, `agent = [""]`, `agent = "qwen"`} {
		_, err := ParsePersonaFile("p.toml", []byte("[[persona]]\nname = \"Q\"\npersona = \"x\"\n"+bad+"\n"))
		if err == nil || !IsUsage(err) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestAgentPromptsSendOnlyWhatIsNew(t *testing.T) {
	a := &agentProc{sent: map[Purpose]bool{}, client: newAgentClient(0, "")}
	mod := DefaultModerator()
	ps := personasN(2)
	tr := []Turn{{Round: 1, Agent: ps[0].Name, Text: "ALPHA-1"}, {Round: 1, Agent: ps[1].Name, Text: "BETA-1"}}
	info := TurnInfo{Purpose: PurposeConsensus, Topic: "T", Speaker: mod, Personas: ps, Round: 1, Rounds: 2, Transcript: tr}
	first := a.promptFor(Request{Messages: consensusMessages(info), Info: info})
	if !strings.Contains(first, "ALPHA-1") || !strings.Contains(first, "CONSENSUS or CONTINUE") || !strings.Contains(first, "change nothing") {
		t.Fatalf("first:\n%s", first)
	}
	tr = append(tr, Turn{Round: 2, Agent: ps[0].Name, Text: "ALPHA-2"}, Turn{Round: 2, Agent: ps[1].Name, Text: "BETA-2"})
	info = TurnInfo{Purpose: PurposeVerdict, Topic: "T", Speaker: mod, Personas: ps, Round: 2, Rounds: 2, Transcript: tr}
	verdict := a.promptFor(Request{Messages: verdictMessages(info), Info: info})
	if strings.Contains(verdict, "ALPHA-1") || !strings.Contains(verdict, "ALPHA-2") || !strings.Contains(verdict, "BETA-2") ||
		!strings.Contains(verdict, "Give your verdict now") || !strings.Contains(verdict, verdictMessages(info)[0].Content[:40]) {
		t.Fatalf("verdict follow-up (new turns and the verdict's instructions only):\n%s", verdict)
	}
}
