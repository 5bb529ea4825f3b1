package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/roundtable-dev/roundtable/prompts"
	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/page"
	"github.com/roundtable-dev/roundtable/room/seatcmd"
)

// observerDebate is the observer's line for a persona debate.
const observerDebate = "  observer (a persona debate is watch-only: its seats are its personas, played by the debate; no MCP seat may join. roundtable watch --url shows its columns streaming)\n"

// RoomInstructions prints, for the room cfg describes, each token in
// tokens (by grant: the ones just issued or rotated, which exist nowhere
// else) and the exact lines that connect with it:
//
//   - a seat (lead, peer): Claude Code's and Gemini CLI's "mcp add
//     --transport http NAME URL --header ...", Codex's "codex mcp add NAME
//     --url URL --bearer-token-env-var VAR" (Codex reads a bearer token
//     only from an environment variable) after the "export VAR=...", and
//     an mcpServers JSON entry ({"type":"http","url":...,"headers":...});
//   - the observer: "ROUNDTABLE_TOKEN=... roundtable watch --url URL": the
//     token in the environment, out of the process list.
//
// NAME is the seat's usual server name (roundtable-<room>-<seat>). url is
// the host's address, with or without the /mcp endpoint: seats are given
// the endpoint, watch the address. Grants not in tokens are said to keep
// their earlier token, with the command that replaces one. The grants are
// those the room is hosted with (room.Config.HostGrants): a persona
// debate's observer alone, said to be watch-only.
func RoomInstructions(w io.Writer, url string, cfg room.Config, tokens map[string]string) {
	roomName := cfg.Room
	base := strings.TrimSuffix(strings.TrimRight(url, "/"), EndpointPath)
	endpoint := base + EndpointPath
	var b strings.Builder
	var kept []string
	shown := 0
	grants := cfg.HostGrants()
	for _, g := range grants {
		if tokens[g] != "" {
			shown++
		}
	}
	if shown > 0 {
		if shown == 1 {
			fmt.Fprintf(&b, "Room %s: a new token, shown this once (the room keeps only its SHA-256 hash). Give it only to the one it is for.\n", roomName)
		} else {
			fmt.Fprintf(&b, "Room %s: new tokens, shown this once (the room keeps only their SHA-256 hashes). Give each only to the one it is for.\n", roomName)
		}
	}
	for _, g := range grants {
		tok := tokens[g]
		if tok == "" {
			kept = append(kept, g)
			continue
		}
		b.WriteString("\n")
		if g == room.GrantObserver {
			if cfg.IsDebate() {
				b.WriteString(observerDebate)
			} else {
				b.WriteString("  observer (reads and waits; cannot post, write the spec or close)\n")
			}
			printLine(&b, "token", tok)
			// The token goes in the environment, not in argv, where
			// every user of the machine sees it (ps).
			printLine(&b, "watch", WatchEnv+"="+seatcmd.Quote(tok)+" "+seatcmd.Shell([]string{"roundtable", "watch", "--url", base}))
			printLine(&b, "", "(or save the token alone in a file only you can read, chmod 600, and pass --token-file FILE)")
			continue
		}
		name := seatcmd.Seat{Room: roomName, Seat: g}.ServerName()
		env := tokenEnvVar(roomName, g)
		fmt.Fprintf(&b, "  %s seat\n", g)
		printLine(&b, "token", tok)
		printLine(&b, "Claude Code", "claude mcp add --transport http "+seatcmd.Quote(name)+" "+seatcmd.Quote(endpoint)+" --header "+authHeaderArg(tok))
		printLine(&b, "", "("+seatcmd.ClaudeCode.Headless(name)+")")
		printLine(&b, "Codex", "export "+env+"="+seatcmd.Quote(tok))
		printLine(&b, "", seatcmd.Shell([]string{"codex", "mcp", "add", name, "--url", endpoint, "--bearer-token-env-var", env}))
		printLine(&b, "", "(set "+env+" wherever codex starts, e.g. in your shell profile: Codex reads the token from it; "+seatcmd.Codex.Headless(name)+")")
		printLine(&b, "Gemini CLI", seatcmd.Shell(seatcmd.GeminiTrusted())+" gemini mcp add --transport http --trust "+seatcmd.Quote(name)+" "+seatcmd.Quote(endpoint)+" --header "+authHeaderArg(tok))
		printLine(&b, "", "("+seatcmd.GeminiCLI.Headless(name)+")")
		printLine(&b, "Qwen Code", "qwen mcp add --scope project --transport http --trust "+seatcmd.Quote(name)+" "+seatcmd.Quote(endpoint)+" --header "+authHeaderArg(tok))
		printLine(&b, "", seatcmd.Shell(seatcmd.QwenApprove(name))+"   ("+seatcmd.QwenCode.Headless(name)+")")
		printLine(&b, "opencode", "opencode mcp add "+seatcmd.Quote(name)+" --url "+seatcmd.Quote(endpoint)+" --header "+openCodeHeaderArg(tok))
		printLine(&b, "", "("+seatcmd.OpenCode.Headless(name)+")")
		printLine(&b, "JSON", mcpServersHTTP(name, endpoint, tok))
	}
	if len(kept) > 0 {
		if shown > 0 {
			b.WriteString("\n")
		}
		rotate := kept[0]
		if len(kept) > 1 {
			rotate = "GRANT"
		}
		fmt.Fprintf(&b, "Room %s: the %s token%s issued before still work%s and %s not shown again; %s replaces a lost one%s.\n",
			roomName, prompts.AndList(kept), plural(len(kept)), verbS(len(kept)), isAre(len(kept)),
			seatcmd.Shell([]string{"roundtable", "host", "--room", roomName, "--rotate", rotate}), grantList(kept))
	}
	_, _ = io.WriteString(w, b.String())
}

// WatchEnv is the environment variable roundtable watch --url reads the
// observer token from.
const WatchEnv = "ROUNDTABLE_TOKEN"

// printLine writes one labeled line, labels in a column.
func printLine(b *strings.Builder, label, text string) {
	fmt.Fprintf(b, "    %-12s %s\n", label, text)
}

// authHeaderArg is the --header argument for tok, in double quotes as the
// clients' documentation writes it (a token holds no character a shell
// reads inside them); anything else is quoted for the shell.
func authHeaderArg(tok string) string { return headerArg("Authorization: Bearer ", tok) }

// openCodeHeaderArg is opencode's --header argument for tok (KEY=VALUE).
func openCodeHeaderArg(tok string) string { return headerArg("Authorization=Bearer ", tok) }

func headerArg(prefix, tok string) string {
	h := prefix + tok
	if strings.ContainsAny(tok, "\"$`\\!") || seatcmd.Quote(tok) != tok {
		return seatcmd.Quote(h)
	}
	return `"` + h + `"`
}

// tokenEnvVar is the environment variable Codex is told to read the seat's
// token from: ROUNDTABLE_<ROOM>_<SEAT>_TOKEN, the room in capitals with
// every other character than a letter or digit as '_'.
func tokenEnvVar(roomName, grant string) string {
	up := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, roomName+"_"+grant)
	return "ROUNDTABLE_" + up + "_TOKEN"
}

// mcpServersHTTP is a one-line mcpServers object with the seat's HTTP entry.
func mcpServersHTTP(name, endpoint, tok string) string {
	type entry struct {
		Type    string            `json:"type"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	}
	v := map[string]map[string]entry{"mcpServers": {name: {
		Type: "http", URL: endpoint, Headers: map[string]string{"Authorization": "Bearer " + tok},
	}}}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings and maps only: cannot fail
	return strings.TrimRight(buf.String(), "\n")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func verbS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// grantList names what GRANT may be when more than one grant is kept.
func grantList(kept []string) string {
	if len(kept) < 2 {
		return ""
	}
	return " (GRANT: " + strings.Join(kept[:len(kept)-1], ", ") + " or " + kept[len(kept)-1] + ")"
}

// PrintTokens issues the tokens of rooms that have none and prints them
// once; rooms whose tokens were issued before are named with how to rotate.
// It records url as where each room is served (room.HostFile), for the
// lines host --rotate prints.
func PrintTokens(out io.Writer, url string, rooms []*room.Room) error {
	for _, r := range rooms {
		name := r.Config().Room
		if err := r.RecordHost(url); err != nil {
			return err
		}
		toks, err := r.IssueTokens()
		if err != nil {
			return fmt.Errorf("issue the tokens of room %q: %w", name, err)
		}
		cfg := r.Config()
		if len(toks) > 0 {
			RoomInstructions(out, url, cfg, toks)
		}
		if len(toks) < len(cfg.HostGrants()) {
			fmt.Fprintf(out, "Room %s: tokens issued before are not shown again; to replace one: %s\n", name, rotateHint(cfg))
		}
		fmt.Fprintf(out, "Room %s: live in a browser at %s (sign in with its observer token; share the link and the token apart)\n",
			name, strings.TrimSuffix(url, EndpointPath)+page.RoomPath(name))
	}
	return nil
}

// Tokens reads the tokens of the rooms a host starts with. A room whose
// tokens.json cannot be used or trusted stops the host, with the error
// saying which file and what to run; with all (host --all) the room is
// left out instead and the others are served: the room picker, which
// tries every room not served, says why on stderr and serves it once its
// files are fixed (PickUpRooms). Once running, a room's tokens.json found
// unusable or untrusted when read again (replaced by another user, say) is
// said on errOut: no token of the room works until it is fixed.
func Tokens(rooms []*room.Room, all bool, errOut io.Writer) (*room.TokenSet, []*room.Room, error) {
	tokens, err := room.NewTokenSet(nil)
	if err != nil {
		return nil, nil, err
	}
	kept := make([]*room.Room, 0, len(rooms))
	for _, r := range rooms {
		if _, err := tokens.Add(r); err != nil {
			if !all {
				return nil, nil, fmt.Errorf("read the tokens of room %q: %w", r.Config().Room, err)
			}
			continue
		}
		kept = append(kept, r)
	}
	tokens.OnProblem(func(err error) {
		fmt.Fprintf(errOut, "roundtable host: %v; until it is fixed, no token of the room works\n", err)
	})
	return tokens, kept, nil
}

// rotateHint is the command that replaces a token of the room cfg
// describes, naming its grants.
func rotateHint(cfg room.Config) string {
	if cfg.IsDebate() {
		return "roundtable host --room " + cfg.Room + " --rotate observer (a persona debate has no seat's token: it is watch-only)"
	}
	return "roundtable host --room " + cfg.Room + " --rotate peer (or lead, observer)"
}

// PrintStarter prints the host's starter token (GrantStarter) and where
// its web API is; file, when set, is where it was also written.
func PrintStarter(out io.Writer, url, token, file string) {
	base := strings.TrimSuffix(url, EndpointPath)
	fmt.Fprintf(out, "Starter token (starts debates with POST %s/api/sessions and watches every room served here; a new one at each start of the host):\n  %s\n", base, token)
	if file != "" {
		fmt.Fprintf(out, "  (also written to %s)\n", file)
	}
	fmt.Fprintf(out, "Web API: %s/api/sessions (send Authorization: Bearer <token>); health: %s/health\n", base, base)
	fmt.Fprintf(out, "Boardroom: %s/ in a browser lists every room, each live (sign in with the starter token)\n", base)
}
