// Package acpagent is a scripted ACP agent for tests: a small program built
// on acp-go-sdk's agent side that plays a JSON script (replies streamed in
// chunks, tool calls, plans, permission requests, a crash, a stall, a
// refusal to exit when stdin closes, garbage on stdout...). Build compiles
// it once per test process; the script's path goes in the agent's
// environment as ACPAGENT_SCRIPT.
package acpagent

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvScript names the variable holding the script's path.
const EnvScript = "ACPAGENT_SCRIPT"

// Script is what the agent does. Every field is optional.
type Script struct {
	// ProtocolVersion is answered to initialize; 0: the SDK's own (1).
	ProtocolVersion int `json:"protocolVersion,omitempty"`
	// AuthRequired makes session/new fail with ACP's "authentication
	// required" error.
	AuthRequired bool `json:"authRequired,omitempty"`
	// Garbage lines are printed on stdout before anything else.
	Garbage []string `json:"garbage,omitempty"`
	// IgnoreStdinClose keeps the agent running after its stdin closes,
	// ignoring SIGTERM, SIGINT and SIGHUP too (like several real agents).
	IgnoreStdinClose bool `json:"ignoreStdinClose,omitempty"`
	// IgnoreCancel makes session/cancel end nothing.
	IgnoreCancel bool `json:"ignoreCancel,omitempty"`
	// Children is how many child processes (sleeping, like MCP servers)
	// the agent starts in its own process group.
	Children int `json:"children,omitempty"`
	// SessionChildren is how many children the agent starts in a session
	// of their own (setsid, like codex's shell snapshot), out of reach of
	// a kill of its group; each starts a grandchild with an empty
	// environment. They write "session-<pid>" and "bare-<pid>" to PidDir.
	SessionChildren int `json:"sessionChildren,omitempty"`
	// PidDir receives one empty file per process, named by its pid: the
	// agent's ("agent-<pid>") and its children's ("child-<pid>").
	PidDir string `json:"pidDir,omitempty"`
	// Record is a file the agent appends to, one JSON line per event:
	// {"prompt": text}, {"permission": kind, "outcome": optionId},
	// {"cancel": true}, {"cwd": dir, "argv": args}, {"mode": id},
	// {"config": id, "value": v}, {"env": name, "value": v},
	// {"resume": id, "cwd": dir}.
	Record string `json:"record,omitempty"`
	// Modes are the session modes offered by session/new, the first one
	// current; session/set_mode is recorded as {"mode": id}.
	Modes []string `json:"modes,omitempty"`
	// ConfigModes are offered by session/new as the values of a select
	// config option "mode" (as opencode does), the first one current;
	// session/set_config_option is recorded as {"config": id, "value": v}.
	ConfigModes []string `json:"configModes,omitempty"`
	// RecordEnv names variables of the agent's environment recorded at
	// session/new as {"env": name, "value": v} ("" when unset).
	RecordEnv []string `json:"recordEnv,omitempty"`
	// Resume offers session/resume (ACP's sessionCapabilities.resume);
	// a resume is recorded as {"resume": sessionId, "cwd": dir}.
	Resume bool `json:"resume,omitempty"`
	// Turns are played one per prompt, in order; the last one repeats.
	// With none, each prompt is answered "ok".
	Turns []Turn `json:"turns,omitempty"`
}

// Turn is the agent's answer to one prompt.
type Turn struct {
	Steps []Step `json:"steps"`
	// StopReason ends the turn; "": end_turn.
	StopReason string `json:"stopReason,omitempty"`
}

// Step is one thing the agent does during a turn; set one field.
type Step struct {
	Say       string `json:"say,omitempty"`       // text streamed as agent_message_chunk
	ChunkSize int    `json:"chunkSize,omitempty"` // runes a chunk; 0: 8
	// Stamps sends this many chunks, each the wall clock in Unix
	// nanoseconds followed by a newline, taken just before it is written;
	// StampGapUs apart (microseconds).
	Stamps     int      `json:"stamps,omitempty"`
	StampGapUs int      `json:"stampGapUs,omitempty"`
	Thought    string   `json:"thought,omitempty"`    // an agent_thought_chunk
	Tool       *Tool    `json:"tool,omitempty"`       // a tool_call update
	Plan       []string `json:"plan,omitempty"`       // a plan: the first entry in progress
	Permission *Tool    `json:"permission,omitempty"` // session/request_permission for this tool
	SleepMs    int      `json:"sleepMs,omitempty"`
	Exit       int      `json:"exit,omitempty"`    // exit at once with this code (a crash)
	Stall      bool     `json:"stall,omitempty"`   // never end the turn (until cancelled, unless IgnoreCancel)
	Garbage    string   `json:"garbage,omitempty"` // a line that is not JSON, on stdout
}

// Tool is a tool call: its ACP kind (read, search, edit, delete, move,
// execute, fetch, think, other), title and file path (a leading ROOT is
// the folder the agent works in).
type Tool struct {
	Kind  string `json:"kind"`
	Title string `json:"title,omitempty"`
	Path  string `json:"path,omitempty"`
	// End, when set, is the status ("completed", "failed") of a
	// tool_call_update sent after the call (after the answer, for a
	// permission), carrying Output as its text content and ExitCode, when
	// not 0, as its raw output {"exit_code": n}, like codex-acp's.
	End      string `json:"end,omitempty"`
	Output   string `json:"output,omitempty"`
	ExitCode int    `json:"exitCode,omitempty"`
}

var (
	once     sync.Once
	built    string
	buildErr error
	buildOut []byte
)

// Build compiles the agent once per test process and returns its path.
func Build(tb testing.TB) string {
	tb.Helper()
	once.Do(func() {
		cleanStale()
		dir, err := os.MkdirTemp("", stalePrefix)
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "acpagent")
		buildOut, buildErr = exec.Command("go", "build", "-o", built, "github.com/roundtable-dev/roundtable/debate/internal/acpagent/agentbin").CombinedOutput()
	})
	if buildErr != nil {
		tb.Fatalf("build the scripted ACP agent: %v\n%s", buildErr, buildOut)
	}
	return built
}

const stalePrefix = "roundtable-acpagent-"

// cleanStale removes agents built by earlier test processes more than an
// hour ago.
func cleanStale() {
	ms, _ := filepath.Glob(filepath.Join(os.TempDir(), stalePrefix+"*"))
	for _, m := range ms {
		if fi, err := os.Stat(m); err == nil && time.Since(fi.ModTime()) > time.Hour {
			os.RemoveAll(m)
		}
	}
}

// WriteScript writes s into a new file under tb.TempDir and returns its
// path, for ACPAGENT_SCRIPT.
func WriteScript(tb testing.TB, s Script) string {
	tb.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(tb.TempDir(), "script.json")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

// Pids reads the pids the agents of a script with PidDir dir wrote:
// agents' and children's.
func Pids(dir string) (agents, children []int) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		kind, num, ok := strings.Cut(e.Name(), "-")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		if kind == "agent" {
			agents = append(agents, n)
		} else {
			children = append(children, n)
		}
	}
	return agents, children
}

// GroupMembers lists the live processes (not zombies) whose process group
// is pgid, from /proc; nil where there is no /proc.
func GroupMembers(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			out = append(out, pid)
		}
	}
	return out
}

// Records reads a script's Record file: one map per line.
func Records(tb testing.TB, path string) []map[string]any {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			tb.Fatalf("record line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}
