package seatcmd

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/roundtable-dev/roundtable/room"
)

var sample = Seat{
	Room: "cache-design", Seat: room.SeatLead, Agent: "claude",
	Topic: `Should the cache be "write-through"? It's <urgent> & $HOME`, Budget: 8,
	Cwd: "/w/my project",
}

func TestArgs(t *testing.T) {
	want := []string{
		"--room=cache-design", "--seat=lead", "--agent=claude",
		`--topic=Should the cache be "write-through"? It's <urgent> & $HOME`,
		"--budget=8", "--cwd=/w/my project",
	}
	if got := sample.Args(); !slices.Equal(got, want) {
		t.Errorf("Args:\n got %q\nwant %q", got, want)
	}
	s := sample
	s.Spec = "docs/SPEC.md"
	if got := s.Args(); !slices.Contains(got, "--spec=docs/SPEC.md") {
		t.Errorf("a spec path of its own is left out: %q", got)
	}
	s.Spec = room.DefaultSpec(s.Room)
	s.Agent, s.Topic, s.Budget, s.Cwd = "", "", 0, ""
	if got := s.Args(); !slices.Equal(got, []string{"--room=cache-design", "--seat=lead"}) {
		t.Errorf("defaults are not left out: %q", got)
	}
	// Every argument is one --flag=value token: nothing a yargs-based CLI
	// could split or read as a number.
	for _, a := range sample.Args() {
		if !regexp.MustCompile(`^--[a-z]+=`).MatchString(a) {
			t.Errorf("argument %q is not --flag=value", a)
		}
	}
}

func TestServerName(t *testing.T) {
	valid := regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	names := map[string]string{}
	for _, r := range []string{
		"cache-design", "v1.2-plan", "v1-2-plan", "a", strings.Repeat("x", 64),
		strings.Repeat("x", 63) + "y", "should-the-cache-be-write-through-or-back",
	} {
		for _, seat := range []string{room.SeatLead, room.SeatPeer, "security", "dr ada", "dr-ada", "the-security-reviewer", "the-security-reviewer-2", "李"} {
			n := Seat{Room: r, Seat: seat}.ServerName()
			if !valid.MatchString(n) {
				t.Errorf("server name %q has characters Codex or Claude Code refuse", n)
			}
			if tool := "mcp__" + n + "__wait_for_message"; len(tool) > 64 {
				t.Errorf("tool name %q is %d characters, over the 64 the APIs allow", tool, len(tool))
			}
			if prev, dup := names[n]; dup {
				t.Errorf("rooms %q and %q share the server name %q", prev, r+"/"+seat, n)
			}
			names[n] = r + "/" + seat
		}
	}
	if n := (Seat{Room: "cache-design", Seat: room.SeatPeer}).ServerName(); n != "roundtable-cache-design-peer" {
		t.Errorf("a plain room name is changed: %q", n)
	}
	if n := (Seat{Room: "cache-design", Seat: "critic"}).ServerName(); n != "roundtable-cache-design-critic" {
		t.Errorf("a plain council seat's name is changed: %q", n)
	}
}

// sh runs script in a POSIX shell where the agent CLIs are functions that
// print their arguments one a line, and returns what each printed.
func sh(t *testing.T, script string) [][]string {
	t.Helper()
	shell, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	var defs strings.Builder
	for _, f := range []string{"env", "claude", "codex", "gemini", "qwen", "opencode", "roundtable"} {
		defs.WriteString(f + `() { printf '%s\0' "$0" "$@"; printf '\n'; }` + "\n")
	}
	// $0 is the shell's; print the function name instead.
	prog := strings.ReplaceAll(defs.String(), `"$0"`, `"${FUNCNAME:-fn}"`)
	out, err := exec.Command(shell, "-c", prog+script).Output()
	if err != nil {
		t.Fatalf("sh: %v\n%s", err, script)
	}
	var calls [][]string
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		args := strings.Split(strings.TrimSuffix(line, "\x00"), "\x00")
		calls = append(calls, args[1:])
	}
	return calls
}

func TestShellReadsBackArgv(t *testing.T) {
	for _, c := range Clients() {
		if c == JSONFile {
			continue
		}
		for _, seat := range []string{room.SeatLead, room.SeatPeer} {
			s := sample
			s.Seat = seat
			argv := c.Argv(s)
			got := sh(t, Shell(argv))
			if len(got) != 1 || !slices.Equal(got[0], argv[1:]) {
				t.Errorf("%s: the shell read %q, want %q", c.Name(), got, argv[1:])
			}
			for _, w := range []int{30, 60, 80, 200} {
				lines := Wrap(argv, w, 2)
				got := sh(t, strings.Join(lines, "\n"))
				if len(got) != 1 || !slices.Equal(got[0], argv[1:]) {
					t.Errorf("%s wrapped at %d: the shell read %q\nfrom:\n%s", c.Name(), w, got, strings.Join(lines, "\n"))
				}
			}
		}
	}
}

func TestArgvPerClient(t *testing.T) {
	s := sample
	s.Program = "/opt/rt/roundtable"
	name := s.ServerName()
	tail := s.Args()
	tests := []struct {
		c    Client
		head []string
	}{
		{ClaudeCode, []string{"claude", "mcp", "add", name, "--", "/opt/rt/roundtable"}},
		{Codex, []string{"codex", "mcp", "add", name, "--", "/opt/rt/roundtable"}},
		{GeminiCLI, []string{"env", "GEMINI_CLI_TRUST_WORKSPACE=true", "gemini", "mcp", "add", "--scope", "project", "--trust", name, "/opt/rt/roundtable", "--"}},
		{QwenCode, []string{"qwen", "mcp", "add", "--scope", "project", "--trust", name, "/opt/rt/roundtable", "--"}},
		{OpenCode, []string{"opencode", "mcp", "add", name, "--", "/opt/rt/roundtable"}},
	}
	for _, tt := range tests {
		want := append(slices.Clone(tt.head), tail...)
		if got := tt.c.Argv(s); !slices.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.c.Name(), got, want)
		}
		if tt.c.Note(s) == "" {
			t.Errorf("%s has no note", tt.c.Name())
		}
	}
	if JSONFile.Argv(s) != nil {
		t.Error("the JSON client has a command")
	}
}

func TestWrap(t *testing.T) {
	s := sample
	s.Topic = "a topic long enough to need a line of its own when the screen is narrow"
	argv := ClaudeCode.Argv(s)
	for _, w := range []int{20, 40, 80} {
		lines := Wrap(argv, w, 2)
		for i, l := range lines {
			last := i == len(lines)-1
			if !last && !strings.HasSuffix(l, Continuation) {
				t.Errorf("width %d: line %d does not continue: %q", w, i, l)
			}
			if i > 0 && !strings.HasPrefix(l, "  ") {
				t.Errorf("width %d: line %d is not indented: %q", w, i, l)
			}
			if ansi.StringWidth(l) > w {
				// Only an argument wider than any line may overflow, alone.
				word := strings.TrimSuffix(strings.TrimSpace(l), Continuation)
				if strings.Contains(word, " --") || !slices.Contains(quoted(argv), word) {
					t.Errorf("width %d: line %d is %d wide and holds more than one argument: %q", w, i, ansi.StringWidth(l), l)
				}
			}
		}
	}
	for w := 20; w <= 120; w++ {
		for _, l := range Wrap(GeminiCLI.Argv(s), w, 2) {
			if strings.HasSuffix(l, "--scope"+Continuation) {
				t.Errorf("width %d: an option is parted from its value: %q", w, l)
			}
		}
	}
	if got := Wrap([]string{"a", "b"}, 80, 2); !slices.Equal(got, []string{"a b"}) {
		t.Errorf("a short command is wrapped: %q", got)
	}
}

func quoted(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = Quote(a)
	}
	return out
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cache-design", "cache-design"},
		{"/tmp/a b", "'/tmp/a b'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
		{"$(rm -rf /)", "'$(rm -rf /)'"},
		{"--topic=Should we?", "--topic='Should we?'"},
		{"--cwd=/w/it's", `--cwd='/w/it'\''s'`},
		{"--a b=c", "'--a b=c'"},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestMCPServersJSON(t *testing.T) {
	lead, peer := sample, sample
	peer.Seat, peer.Agent = room.SeatPeer, "codex"
	text := MCPServersJSON(lead, peer)
	var v struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	if len(v.MCPServers) != 2 {
		t.Fatalf("want two entries: %s", text)
	}
	for _, s := range []Seat{lead, peer} {
		e := v.MCPServers[s.ServerName()]
		if e.Command != DefaultProgram || !slices.Equal(e.Args, s.Args()) {
			t.Errorf("entry %s: %+v", s.ServerName(), e)
		}
	}
	if !strings.Contains(text, "<urgent> & $HOME") {
		t.Errorf("<, > and & are escaped: %s", text)
	}
	if JSONFile.Text(lead) != MCPServersJSON(lead) {
		t.Error("the JSON client's text is not the seat's entry")
	}
}

func TestDefaultClient(t *testing.T) {
	tests := []struct {
		seat, agent string
		want        Client
	}{
		{room.SeatLead, "claude", ClaudeCode},
		{room.SeatPeer, "Opus-5", ClaudeCode},
		{room.SeatLead, "codex", Codex},
		{room.SeatLead, "gemini-3", GeminiCLI},
		{room.SeatPeer, "qwen", QwenCode},
		{room.SeatPeer, "OpenCode", OpenCode},
		{room.SeatLead, "mystery", ClaudeCode},
		{room.SeatPeer, "mystery", Codex},
	}
	for _, tt := range tests {
		if got := DefaultClient(tt.seat, tt.agent); got != tt.want {
			t.Errorf("DefaultClient(%s, %s) = %s, want %s", tt.seat, tt.agent, got.Name(), tt.want.Name())
		}
	}
	if ClaudeCode.Next(-1) != JSONFile || JSONFile.Next(1) != ClaudeCode || Codex.Next(1) != GeminiCLI {
		t.Error("Next does not cycle through the clients")
	}
}

func TestProgram(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "roundtable")
	other := filepath.Join(dir, "other-roundtable")
	for _, p := range []string{bin, other} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	found := func(p string) func(string) (string, error) {
		return func(string) (string, error) { return p, nil }
	}
	missing := func(string) (string, error) { return "", exec.ErrNotFound }
	exe := func(p string) func() (string, error) { return func() (string, error) { return p, nil } }
	tests := []struct {
		name string
		look func(string) (string, error)
		exe  func() (string, error)
		want string
	}{
		{"the binary on PATH is the one running", found(bin), exe(bin), DefaultProgram},
		{"through a symlink", found(link), exe(bin), DefaultProgram},
		{"not on PATH", missing, exe(bin), bin},
		{"another roundtable on PATH", found(other), exe(bin), bin},
		{"the running binary is unknown", missing, func() (string, error) { return "", errors.New("no") }, DefaultProgram},
	}
	for _, tt := range tests {
		if got := Program(tt.look, tt.exe); got != tt.want {
			t.Errorf("%s: Program = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestNoRoomErrorSaysHowToCreateIt(t *testing.T) {
	err := NoRoomError("/srv/proj", "cache-design")
	if !errors.Is(err, room.ErrNoRoom) {
		t.Fatalf("NoRoomError does not match room.ErrNoRoom: %v", err)
	}
	want := `no room "cache-design" under /srv/proj; create it with roundtable seed --room cache-design --topic "...", or give --topic to create it here`
	if err.Error() != want {
		t.Fatalf("NoRoomError =\n  %s\nwant\n  %s", err, want)
	}
	wd, _ := os.Getwd()
	if got := NoRoomError("", "x").Error(); !strings.Contains(got, " under "+wd+";") {
		t.Fatalf("with no folder given it names the working directory %s: %s", wd, got)
	}
}
