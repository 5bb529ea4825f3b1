package seatcmd

import (
	"encoding/json"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// Client is a way to give an agent a seat: an agent CLI's "mcp add"
// command, or the mcpServers entry for an agent configured by a file.
type Client int

// The clients, in the order a screen offers them.
const (
	ClaudeCode Client = iota
	Codex
	GeminiCLI
	QwenCode
	OpenCode
	JSONFile
	clientCount
)

// Clients is every client, in order.
func Clients() []Client {
	out := make([]Client, clientCount)
	for i := range out {
		out[i] = Client(i)
	}
	return out
}

var clientNames = [clientCount]string{"Claude Code", "Codex", "Gemini CLI", "Qwen Code", "opencode", "mcpServers JSON"}

// Name is the client as people call it.
func (c Client) Name() string {
	if c < 0 || c >= clientCount {
		return "unknown"
	}
	return clientNames[c]
}

// clientLabels are the agent labels the clients' seats get by default.
var clientLabels = [clientCount]string{"claude", "codex", "gemini", "qwen", "opencode", ""}

// Label is the agent label a seat given with c carries unless its user
// named one ("claude", "codex", ...); "" for the mcpServers JSON, which
// names no agent.
func (c Client) Label() string {
	if c < 0 || c >= clientCount {
		return ""
	}
	return clientLabels[c]
}

// IsClientLabel reports whether agent is the label some client gives its
// seats (Label), not one a user chose.
func IsClientLabel(agent string) bool {
	for _, l := range clientLabels {
		if l != "" && agent == l {
			return true
		}
	}
	return false
}

// Next is the client after c (d = 1) or before it (d = -1), wrapping.
func (c Client) Next(d int) Client {
	n := int(clientCount)
	return Client(((int(c)+d)%n + n) % n)
}

// ClientFor guesses the client from a seat's agent label ("claude",
// "codex-5", "Gemini 3", ...); ok is false when the label names none.
func ClientFor(agent string) (c Client, ok bool) {
	a := strings.ToLower(agent)
	for _, m := range []struct {
		word string
		c    Client
	}{{"claude", ClaudeCode}, {"opus", ClaudeCode}, {"sonnet", ClaudeCode}, {"codex", Codex}, {"gemini", GeminiCLI}, {"qwen", QwenCode}, {"opencode", OpenCode}} {
		if strings.Contains(a, m.word) {
			return m.c, true
		}
	}
	return JSONFile, false
}

// TakesSeatOnCall reports whether a client that named itself client in
// initialize takes its seat with its first tool call rather than at
// initialize: a coding agent's CLI (ClientFor), which starts the servers
// of every seat registered where it runs, or the probe Gemini CLI and Qwen
// Code connect with for "mcp list" (mcp-test-client), which calls no tool
// and, over HTTP, leaves its session open.
func TakesSeatOnCall(client string) bool {
	_, cli := ClientFor(client)
	return cli || client == "mcp-test-client"
}

// DefaultClient is the client a seat starts with: the one its agent label
// names, else Claude Code for the lead and Codex for the peer.
func DefaultClient(seat, agent string) Client {
	if c, ok := ClientFor(agent); ok {
		return c
	}
	if seat == room.SeatPeer {
		return Codex
	}
	return ClaudeCode
}

// Argv is the command that registers the seat with the client's CLI, as
// arguments (nil for JSONFile, which is not a command):
//
//   - Claude Code: claude mcp add NAME -- PROGRAM ARGS (commander stops at
//     "--"; no -e, whose variadic values would swallow NAME)
//   - Codex: codex mcp add NAME -- PROGRAM ARGS (clap's trailing command)
//   - Gemini CLI, Qwen Code: gemini|qwen mcp add --scope project --trust
//     NAME PROGRAM -- ARGS (yargs: "--" keeps ARGS from being read as
//     options; --trust: the seat's tools run without a confirmation,
//     which a headless run cannot give, and none of them destroys
//     anything); gemini's under GeminiTrusted
//   - opencode: opencode mcp add NAME -- PROGRAM ARGS
func (c Client) Argv(s Seat) []string {
	name := s.ServerName()
	switch c {
	case ClaudeCode:
		return append([]string{"claude", "mcp", "add", name, "--"}, s.Command()...)
	case Codex:
		return append([]string{"codex", "mcp", "add", name, "--"}, s.Command()...)
	case GeminiCLI:
		return append(append(GeminiTrusted(), "gemini", "mcp", "add", "--scope", "project", "--trust", name, s.program(), "--"), s.Args()...)
	case QwenCode:
		return append([]string{"qwen", "mcp", "add", "--scope", "project", "--trust", name, s.program(), "--"}, s.Args()...)
	case OpenCode:
		return append([]string{"opencode", "mcp", "add", name, "--"}, s.Command()...)
	case JSONFile, clientCount:
	}
	return nil
}

// Text is what to paste: the shell command on one line (for Qwen Code,
// the server's approval after it: a project's servers wait for one), or
// the mcpServers JSON.
func (c Client) Text(s Seat) string {
	if c == JSONFile {
		return MCPServersJSON(s)
	}
	if c == QwenCode {
		return Shell(c.Argv(s)) + " && " + Shell(QwenApprove(s.ServerName()))
	}
	return Shell(c.Argv(s))
}

// GeminiTrusted is the prefix that runs gemini trusting the folder it
// runs in: Gemini CLI 0.61 reads a folder's settings (its MCP servers)
// only in a trusted folder, and its --skip-trust flag is applied after
// they are read (they stay unread). An "mcp add" in a folder it does not
// trust also writes the folder's settings without the servers already
// there: a second seat's line would drop the first's.
func GeminiTrusted() []string { return []string{"env", "GEMINI_CLI_TRUST_WORKSPACE=true"} }

// QwenApprove approves the server name in the folder it runs in: Qwen Code
// leaves a project's servers "Pending approval", unconnected, until then.
func QwenApprove(name string) []string { return []string{"qwen", "mcp", "approve", name} }

// Headless says how to run the client without a person at it so that it
// may call the seat's tools (registered as name), in a sentence.
func (c Client) Headless(name string) string {
	switch c {
	case ClaudeCode:
		return "headless: claude -p \"…\" --allowedTools " + Quote("mcp__"+name+"__*")
	case Codex:
		return "headless: codex exec -c " + Quote("mcp_servers."+name+".default_tools_approval_mode=\"approve\"") + " \"…\""
	case GeminiCLI:
		return "headless: " + Shell(GeminiTrusted()) + " gemini -p \"…\" (gemini reads a folder's MCP servers only where it trusts the folder; --skip-trust does not load them)"
	case QwenCode:
		return "headless: qwen -p \"…\" (the server is trusted: its tools need no confirmation)"
	case OpenCode:
		return "headless: opencode run \"…\""
	case JSONFile, clientCount:
	}
	return ""
}

// Note says where the client keeps the server and how to check it, in a
// sentence.
func (c Client) Note(s Seat) string {
	name := s.ServerName()
	switch c {
	case ClaudeCode:
		return "Run it in the folder you start claude in (it is kept for that folder); claude mcp list then shows it connected; " + c.Headless(name) + "."
	case Codex:
		return "Codex keeps it in ~/.codex/config.toml for every folder; codex mcp remove " + name + " takes it out when the room is done; " + c.Headless(name) + "."
	case GeminiCLI:
		return "Run it in the folder you start gemini in (saved in .gemini/settings.json there). " + c.Headless(name) + "."
	case QwenCode:
		return "Run it in the folder you start qwen in (saved in .qwen/settings.json there), then " + Shell(QwenApprove(name)) + " there (Qwen leaves a project's servers pending until approved); qwen mcp list then shows it connected; " + c.Headless(name) + "."
	case OpenCode:
		return "opencode mcp list then shows it; " + c.Headless(name) + "."
	case JSONFile, clientCount:
	}
	return "For any other agent: add this entry to the mcpServers of its MCP configuration file."
}

// MCPServersJSON is the mcpServers object for agents configured by a file,
// with one entry per seat given, under its server name, one argument a
// line.
func MCPServersJSON(seats ...Seat) string {
	var b strings.Builder
	b.WriteString("{\n  \"mcpServers\": {")
	for i, s := range seats {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    " + jsonString(s.ServerName()) + ": {\n")
		b.WriteString("      \"command\": " + jsonString(s.program()) + ",\n")
		b.WriteString("      \"args\": [")
		for j, a := range s.Args() {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n        " + jsonString(a))
		}
		b.WriteString("\n      ]\n    }")
	}
	b.WriteString("\n  }\n}")
	return b.String()
}

// jsonString is s as a JSON string, with <, > and & as themselves.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(b.String(), "\n")
}
