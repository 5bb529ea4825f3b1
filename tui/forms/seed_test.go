package forms

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/roundtable-dev/roundtable/room"
)

func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cache-design", "cache-design"},
		{"/tmp/a b", "'/tmp/a b'"},
		{"it's", `'it'\''s'`},
		{"", "''"},
		{"$(rm -rf /)", "'$(rm -rf /)'"},
		{"Should we?", "'Should we?'"},
	}
	for _, tt := range tests {
		if got := shellQuote(tt.in); got != tt.want {
			t.Errorf("shellQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

var sampleSeed = seedResult{
	SeedResult: room.SeedResult{
		Room: "cache-design", Dir: "/w/.roundtable/cache-design", Spec: "SPEC-cache-design.md",
		Prompts: []string{"/w/.roundtable/cache-design/lead.md", "/w/.roundtable/cache-design/peer.md"},
	},
	Topic: `Should the cache be "write-through"? It's <urgent> & $HOME`, Budget: 8, LeadAgent: "claude", PeerAgent: "codex", Cwd: "/w/my project",
}

func TestAddCommand(t *testing.T) {
	got := addCommand(sampleSeed, room.SeatLead, "claude")
	want := `claude mcp add roundtable -- roundtable --room cache-design --seat lead --agent claude --topic 'Should the cache be "write-through"? It'\''s <urgent> & $HOME' --budget 8 --cwd '/w/my project'`
	if got != want {
		t.Errorf("lead command:\n got %s\nwant %s", got, want)
	}
	// A shell reads back exactly the arguments.
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	script := `for a in "$@"; do printf '%s\n' "$a"; done`
	cmd := strings.TrimPrefix(addCommand(sampleSeed, room.SeatPeer, "codex"), "claude mcp add roundtable -- roundtable ")
	out, err := exec.Command(sh, "-c", "set -- "+cmd+"; "+script).Output()
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if strings.Join(args, "|") != strings.Join(serverArgs(sampleSeed, room.SeatPeer, "codex"), "|") {
		t.Errorf("the shell read %q", args)
	}
}

func TestMCPServersJSON(t *testing.T) {
	text := mcpServersJSON(sampleSeed, room.SeatPeer, "codex")
	var v struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	s := v.MCPServers["roundtable"]
	if s.Command != "roundtable" || strings.Join(s.Args, " ") != strings.Join(serverArgs(sampleSeed, room.SeatPeer, "codex"), " ") {
		t.Errorf("entry %+v", s)
	}
	if !strings.Contains(text, "<urgent> & $HOME") {
		t.Errorf("<, > and & are escaped: %s", text)
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Should the cache be write-through?", "should-the-cache-be-write-through"},
		{"  ¿Qué?  ", "qu"},
		{"", ""},
		{strings.Repeat("abc ", 20), "abc-abc-abc-abc-abc-abc-abc-abc-abc-abc"},
	}
	for _, tt := range tests {
		got := slug(tt.in)
		if got != tt.want {
			t.Errorf("slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got != "" && room.ValidateName(got) != nil {
			t.Errorf("slug(%q) = %q is not a valid room name", tt.in, got)
		}
	}
}
