package debate

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
)

// AgentSpec is a coding agent driven over ACP (the Agent Client Protocol:
// JSON-RPC over the agent's stdin and stdout).
type AgentSpec struct {
	Command []string // argv; Command[0] is looked up on PATH when it has no slash
	Preset  string   // "claude", "codex", "gemini", "qwen", "opencode" when given as acp:<preset>; "" otherwise
}

// AgentPrefix starts every agent value: "acp:claude", "acp:codex-acp".
const AgentPrefix = "acp:"

// agentPreset is one of the five agents roundtable knows by name.
type agentPreset struct {
	name    string
	command []string
	install string // the npm line that puts command[0] on PATH
}

// agentPresets are the agents agents.md records running over ACP, with the
// npm packages that provide their commands.
var agentPresets = []agentPreset{
	{"claude", []string{"claude-agent-acp"}, "npm i -g @zed-industries/claude-agent-acp @anthropic-ai/claude-code"},
	{"codex", []string{"codex-acp"}, "npm i -g @zed-industries/codex-acp @openai/codex"},
	{"gemini", []string{"gemini", "--acp"}, "npm i -g @google/gemini-cli"},
	{"qwen", []string{"qwen", "--acp"}, "npm i -g @qwen-code/qwen-code"},
	{"opencode", []string{"opencode", "acp"}, "npm i -g opencode-ai"},
}

// AgentPresets lists the preset names, for acp:<preset>: claude →
// claude-agent-acp; codex → codex-acp; gemini → gemini --acp; qwen → qwen
// --acp; opencode → opencode acp.
func AgentPresets() []string {
	out := make([]string, len(agentPresets))
	for i, p := range agentPresets {
		out[i] = p.name
	}
	return out
}

// ErrAgentMissing means an agent's command is not installed. The wrapped
// message names what to install.
var ErrAgentMissing = errors.New("agent not installed")

// ParseAgent reads "acp:claude" (a preset) or "acp:codex-acp --flag x" (a
// command, split like a shell would on spaces, quotes allowed). "acp:"
// alone, or a value without the "acp:" prefix, is an error wrapping
// ErrBadPersona that says what to write.
func ParseAgent(s string) (AgentSpec, error) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, AgentPrefix) {
		return AgentSpec{}, fmt.Errorf("%w: agent %q does not start with %q; write acp:<preset> (one of %s) or acp:<command>",
			ErrBadPersona, s, AgentPrefix, strings.Join(AgentPresets(), ", "))
	}
	rest := strings.TrimSpace(strings.TrimPrefix(t, AgentPrefix))
	if rest == "" {
		return AgentSpec{}, fmt.Errorf("%w: agent %q names no command; write acp:<preset> (one of %s) or acp:<command>, like acp:claude",
			ErrBadPersona, s, strings.Join(AgentPresets(), ", "))
	}
	for _, p := range agentPresets {
		if strings.EqualFold(rest, p.name) {
			return AgentSpec{Command: slices.Clone(p.command), Preset: p.name}, nil
		}
	}
	argv, err := splitCommand(rest)
	if err != nil {
		return AgentSpec{}, fmt.Errorf("%w: agent %q: %v", ErrBadPersona, s, err)
	}
	return withPreset(argv), nil
}

// withPreset is the agent argv runs. A preset with arguments
// ("acp:gemini -m gemini-2.5-flash", which gemini needs) is the preset's
// command with them; written out whole ("qwen --acp") it is the preset
// too.
func withPreset(argv []string) AgentSpec {
	for _, p := range agentPresets {
		if !strings.EqualFold(argv[0], p.name) && argv[0] != p.command[0] {
			continue
		}
		args := argv[1:]
		if rest := p.command[1:]; len(args) >= len(rest) && slices.Equal(args[:len(rest)], rest) {
			args = args[len(rest):]
		}
		return AgentSpec{Command: append(slices.Clone(p.command), args...), Preset: p.name}
	}
	return AgentSpec{Command: argv}
}

// agentFromArgv reads a persona's agent field: one "acp:…" element, or an
// argv.
func agentFromArgv(argv []string) (AgentSpec, error) {
	if len(argv) == 1 && strings.HasPrefix(strings.TrimSpace(argv[0]), AgentPrefix) {
		return ParseAgent(argv[0])
	}
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		return AgentSpec{}, fmt.Errorf("%w: agent has no command; write agent = [\"acp:claude\"] or agent = [\"qwen\", \"--acp\"]", ErrBadPersona)
	}
	for _, a := range argv {
		if strings.ContainsFunc(a, func(r rune) bool { return r == 0 || r == '\n' || r == '\r' }) {
			return AgentSpec{}, fmt.Errorf("%w: agent %q has a line break or NUL in an argument", ErrBadPersona, argv)
		}
	}
	return withPreset(slices.Clone(argv)), nil
}

// splitCommand splits s into words like a shell: spaces separate, single
// and double quotes group, a backslash escapes the next character (outside
// single quotes).
func splitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	switch {
	case quote != 0:
		return nil, fmt.Errorf("a %c quote is not closed", quote)
	case escaped:
		return nil, errors.New("it ends with a lone backslash")
	}
	if inWord {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, errors.New("it names no command")
	}
	return out, nil
}

// Label is how the agent is shown and saved as a turn's model:
// "acp:claude" for a preset (with or without arguments), else "acp:" and
// the command (its program's base name and its arguments).
func (s AgentSpec) Label() string {
	if s.Preset != "" {
		return AgentPrefix + s.Preset
	}
	if len(s.Command) == 0 {
		return AgentPrefix
	}
	parts := append([]string{filepath.Base(s.Command[0])}, s.Command[1:]...)
	return AgentPrefix + strings.Join(parts, " ")
}

// Check finds the agent's program, on PATH when it has no slash. A missing
// program is an error wrapping ErrAgentMissing that says, in one sentence,
// what to install.
func (s AgentSpec) Check() (string, error) {
	if len(s.Command) == 0 {
		return "", fmt.Errorf("%w: the agent has no command; write acp:<preset> or acp:<command>", ErrBadPersona)
	}
	prog := s.Command[0]
	path, err := exec.LookPath(prog)
	if err == nil {
		return path, nil
	}
	if strings.ContainsRune(prog, '/') || strings.ContainsRune(prog, os.PathSeparator) {
		return "", agentErrorf(ErrAgentMissing, "the agent command %s cannot be run (%v); check the path", prog, unwrapPathErr(err))
	}
	for _, p := range agentPresets {
		if p.command[0] == prog {
			return "", agentErrorf(ErrAgentMissing, "%s is not on PATH; install it with `%s`", prog, p.install)
		}
	}
	return "", agentErrorf(ErrAgentMissing, "%s is not on PATH; install it, or write its full path after acp: (acp:/path/to/%s)", prog, prog)
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// AgentTools is what an agent may do beyond reading: read-only by default.
type AgentTools uint8

// What an agent may be allowed beyond reading and searching.
const (
	AllowWrite AgentTools = 1 << iota // edits, deletes, moves
	AllowExec                         // running commands, terminals
)

// ParseAgentTools reads "", "write", "exec", "write,exec" (any order,
// spaces allowed).
func ParseAgentTools(s string) (AgentTools, error) {
	var t AgentTools
	for _, part := range strings.Split(s, ",") {
		switch strings.ToLower(strings.TrimSpace(part)) {
		case "":
		case "write":
			t |= AllowWrite
		case "exec":
			t |= AllowExec
		default:
			return 0, fmt.Errorf("%w: --allow-agent-tools %q; use write, exec or write,exec (agents may only read by default)", ErrBadConfig, s)
		}
	}
	return t, nil
}

// String is the form ParseAgentTools reads: "", "write", "exec" or
// "write,exec".
func (t AgentTools) String() string {
	var parts []string
	if t&AllowWrite != 0 {
		parts = append(parts, "write")
	}
	if t&AllowExec != 0 {
		parts = append(parts, "exec")
	}
	return strings.Join(parts, ",")
}

// AgentOptions configure every agent of a debate or seat.
type AgentOptions struct {
	Cwd    string        // the session's cwd (the debate's --cwd); "" = working dir
	Tools  AgentTools    // beyond reading: read-only by default
	Env    []string      // extra KEY=VALUE for the agent process (tests isolate HOME here)
	Stderr io.Writer     // where the agent's stderr goes (nil: discarded)
	Grace  time.Duration // session/cancel → kill of the process group; 0: DefaultAgentGrace
	// Sessions, when set, keeps each speaker's ACP session across runs:
	// one saved by an earlier run is resumed (session/resume) when the
	// agent offers it; otherwise a new one is opened, and saved.
	Sessions AgentSessions
}

// AgentSessions keep the ACP session of each speaker an agent speaks for
// (a played seat keeps its own in its room: room.SeatSession).
type AgentSessions interface {
	// Session is the session speaker last had; "" for none.
	Session(speaker string) string
	// SaveSession records speaker's session.
	SaveSession(speaker, id string)
}

// DefaultAgentGrace is how long a cancelled or closed agent has to exit by
// itself before its process group is killed.
const DefaultAgentGrace = time.Second
