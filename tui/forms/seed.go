package forms

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/roundtable-dev/roundtable/room"
)

// seedResult is a created room and everything to paste.
type seedResult struct {
	room.SeedResult
	Topic      string
	Budget     int
	LeadAgent  string
	PeerAgent  string
	Cwd        string
	LeadPrompt string
	PeerPrompt string
}

// seed creates the room (or opens it when it exists: room.json is never
// rewritten) and writes its seat prompts; it runs in a command.
func seed(cwd, name string, opt room.CreateOptions, lead, peer string) (seedResult, bool, error) {
	existed := false
	if _, err := room.Open(cwd, name); err == nil {
		existed = true
	} else if !errors.Is(err, room.ErrNoRoom) {
		return seedResult{}, false, err
	}
	res, err := room.Seed(cwd, name, opt)
	if err != nil {
		return seedResult{}, false, fmt.Errorf("create room %q: %w", name, err)
	}
	r, err := room.Open(cwd, name)
	if err != nil {
		return seedResult{}, existed, err
	}
	cfg := r.Config()
	out := seedResult{SeedResult: res, Topic: cfg.Topic, Budget: cfg.Budget, LeadAgent: lead, PeerAgent: peer, Cwd: r.Cwd()}
	for i, p := range res.Prompts {
		data, err := os.ReadFile(p)
		if err != nil {
			return out, existed, fmt.Errorf("read the prompt %s: %w", p, err)
		}
		if i == 0 {
			out.LeadPrompt = string(data)
		} else {
			out.PeerPrompt = string(data)
		}
	}
	return out, existed, nil
}

// serverArgs are the seat server's arguments for one seat of the room.
func serverArgs(res seedResult, seat, agent string) []string {
	args := []string{"--room", res.Room, "--seat", seat}
	if agent != "" {
		args = append(args, "--agent", agent)
	}
	args = append(args, "--topic", res.Topic, "--budget", fmt.Sprint(res.Budget), "--cwd", res.Cwd)
	return args
}

// addCommand is the command that registers the seat's server with Claude
// Code: claude mcp add roundtable -- roundtable --room R --seat S ...
func addCommand(res seedResult, seat, agent string) string {
	parts := []string{"claude", "mcp", "add", "roundtable", "--", "roundtable"}
	for _, a := range serverArgs(res, seat, agent) {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// mcpServersJSON is the stdio entry for an agent configured by file, in
// the usual shape, its arguments on one line.
func mcpServersJSON(res seedResult, seat, agent string) string {
	args := make([]string, 0, 12)
	for _, a := range serverArgs(res, seat, agent) {
		args = append(args, jsonString(a))
	}
	return "{\n" +
		"  \"mcpServers\": {\n" +
		"    \"roundtable\": {\n" +
		"      \"command\": \"roundtable\",\n" +
		"      \"args\": [" + strings.Join(args, ", ") + "]\n" +
		"    }\n" +
		"  }\n" +
		"}"
}

// jsonString is s as a JSON string, with <, > and & as themselves.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimRight(b.String(), "\n")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	if !strings.ContainsFunc(s, needsQuote) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// needsQuote reports a rune a POSIX shell would read as more than itself.
func needsQuote(r rune) bool {
	plain := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)
	return !plain
}
