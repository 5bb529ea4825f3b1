package main

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/roundtable-dev/roundtable/debate"
	"github.com/roundtable-dev/roundtable/room/host"
	"github.com/roundtable-dev/roundtable/room/host/web"
)

func init() { subcommands = append(subcommands, newHostCmd) }

type hostOptions struct {
	rooms           []string
	all             bool
	cwd             string
	listen          string
	tlsCert, tlsKey string
	insecure        bool
	rotate          string
	topic, spec     string
	budget          int
	publicURL       string
	rate            int
	allowOrigins    []string
	starterFile     string
	provider        debate.ProviderConfig
	debateBudget    debate.Config // --max-cost and --max-tokens-total of the debates it starts
	startsPerMinute int
	allowModels     []string
	allowAgents     []string
	fast            bool
	heartbeat       time.Duration
}

// hostDebateFlags are the flags of `roundtable debate` that a host passes
// on, as given, to each debate its web API starts; its caps
// (--max-tokens-total, --max-cost) go with each debate (web.Limits).
var hostDebateFlags = []string{"provider", "model", "base-url", "max-tokens", "fast"}

// defaultListen is where a host listens unless told otherwise: this
// machine only.
const defaultListen = "127.0.0.1:8765"

func newHostCmd() *cobra.Command {
	var o hostOptions
	c := &cobra.Command{
		Use:   "host --room R [--room R2 ...] [--listen ADDR] [--tls-cert F --tls-key F]",
		Short: "Serve rooms' seats over MCP streamable HTTP, for agents on other machines",
		Long: `Serve the lead, peer and observer seats of one or more rooms over MCP's
streamable HTTP transport at /mcp, so the agents of a room can run on
different machines. The seat is chosen by the bearer token alone: each room
has a lead, a peer and a read-only observer token. They are printed once,
with the exact claude, codex, gemini and JSON lines to connect, the first
time a room is hosted; only their SHA-256 hashes are kept, in the room's
tokens.json. To replace a token (the old one stops working at once, also in
a running host): roundtable host --room R --rotate peer.

Tokens and the process list: every user of a machine can read a command
line's arguments (ps). The watch line the host prints keeps the observer
token in the environment (ROUNDTABLE_TOKEN), and Codex reads a seat's token
from ROUNDTABLE_<ROOM>_<SEAT>_TOKEN. The claude and gemini "mcp add" lines
carry the token on their command line for the moment they run, and the agent
saves it in its own config file; to keep it out of both, export that
variable and give the header in single quotes, --header 'Authorization:
Bearer ${ROUNDTABLE_<ROOM>_<SEAT>_TOKEN}': Claude Code and Gemini CLI read
the variable each time they connect, so it must be set wherever the agent
starts.

The tools, rules and server.log lines are those of the stdio seat server,
and a local stdio seat and a remote HTTP seat can share a room; server.log
marks HTTP seats with transport=http and the client's address. An observer
may call room_status, read_room, wait_for_message and observe_room (what
roundtable watch --url uses) and nothing that writes. Remote clients are
given names, not addresses: observe_room's server.log lines come without the
clients' addresses, the host's pid or session ids, and a remote seat is told
the room's folder and spec relative to the host's working folder.

The host listens on 127.0.0.1 unless --listen says otherwise. A non-local
address needs --tls-cert and --tls-key (tokens would cross the network in
clear text), or --insecure if something else encrypts the link (a VPN, an
SSH tunnel). Limits: request bodies up to 1 MiB, 50 requests a second per
token (bursts of 100), sessions idle for 10 minutes expire, slow clients are
cut off. SIGTERM or Ctrl-C stops it gracefully: parked waits return idle,
posts in flight finish.

A persona debate (roundtable debate, or one started in roundtable tui) is
hosted watch-only: its seats are its personas, played by the debate itself,
so it gets the observer token alone, and no MCP seat may join it (a seat's
token for it is refused, saying so). roundtable watch --url with that token
shows the debate's columns streaming each persona's words as the screen that
started it does, then the verdict.

The same listener serves a web API (the original boardroom's): GET /health;
GET /api/sessions lists the rooms a token may watch; GET /api/sessions/ROOM
is its transcript as JSON; GET /api/sessions/ROOM/stream streams it as
Server-Sent Events (seed 002's events, a heartbeat every 15 s, resumable
with Last-Event-ID), a debate or an MCP room, running or finished; and
POST /api/sessions {"topic": ..., "rounds": N, "agents": [{"name", "persona"}]}
starts a debate in a new room, run as a headless roundtable debate with the
--provider, --model, --base-url and --max-tokens given here (its output goes
to debate.log in its room; a stopping host stops it). Starting one needs the
starter token, printed at each start (and written to --starter-token-file,
mode 0600); it also watches every room. A room's observer token watches that
room only.

What an API caller may spend is capped, and the host prints the caps at its
start: each debate stops at --max-tokens-total tokens (default ` + strconv.Itoa(web.DefaultMaxTokensTotal) + `) and,
when given, at --max-cost dollars, then the moderator gives a verdict on
what was said (a body may ask for less with "max_tokens_total" and
"max_cost", never more); a token starts at most --starts-per-minute debates
a minute (a 429 with Retry-After past it); a persona may name the host's own
model only, unless --allow-models lists more ("*": any), and no coding agent
(a coding agent runs on this machine, in --cwd), unless --allow-agents lists
its preset. With the mock provider, which costs nothing, --max-cost holds
trivially; with another provider that reports no cost (only OpenRouter
does), --max-cost is refused: use --max-tokens-total.

A browser signs in at POST /api/login (a form field token, never in a URL)
and gets a session in an HttpOnly cookie named after the host's port
(roundtable_PORT): a random id the host keeps in memory for 12 hours, never
the token, ended by signing out (POST /api/logout), by rotating the token or
by restarting the host. Pages of other sites are refused as on /mcp, except
a link to a room's page or to / clicked there, which opens the page (or the
sign-in form).

A room given with --room that does not exist is created when --topic is
given (with --budget and --spec), and refused otherwise, so that a mistyped
name gets no tokens; --all hosts every room under --cwd (MCP rooms and
debates), and also those created there while the host runs (it starts with
none if there are none yet): a new room's tokens are printed as at start-up,
followed by "roundtable host: now also serving ROOM". Requests for a room
deleted or renamed while hosted are refused saying so and what to do.

A room's tokens.json is trusted only when it belongs to the user running
the host and no other user can write it, its room folder or .roundtable:
otherwise the host refuses to start (host --all leaves the room out and says
so on stderr), naming the file and the command that fixes it (chmod go-w,
chown, or removing the file so new tokens are issued).

Exit codes: 2 for a wrong command line (a non-local address without TLS, a
port out of range), 1 when a room does not exist (without --topic), cannot be
opened or its tokens cannot be trusted, or the address cannot be listened on,
0 after a graceful stop.`,
		Example: `  roundtable host --room cache-design
  roundtable host --room api --room cache-design --cwd ~/src/service
  roundtable host --all --listen 0.0.0.0:8765 --tls-cert cert.pem --tls-key key.pem
  roundtable host --room cache-design --listen 10.0.0.5:8765 --insecure
  roundtable host --room cache-design --rotate peer`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{wordsAre: "room"},
		RunE:        func(cmd *cobra.Command, _ []string) error { return runHost(cmd, o) },
	}
	f := c.Flags()
	f.StringArrayVar(&o.rooms, "room", nil, "a room to host; repeat for more")
	f.BoolVar(&o.all, "all", false, "host every room under --cwd (debates watch-only), and those created there while it runs")
	f.StringVar(&o.cwd, "cwd", "", "folder holding .roundtable/; default: the working directory")
	f.StringVar(&o.listen, "listen", defaultListen, "address to listen on, host:port")
	f.StringVar(&o.tlsCert, "tls-cert", "", "TLS certificate file (PEM); with --tls-key, serves https")
	f.StringVar(&o.tlsKey, "tls-key", "", "TLS private key file (PEM)")
	f.BoolVar(&o.insecure, "insecure", false, "allow a non-local --listen without TLS (said on stderr: tokens cross the network in clear text)")
	f.StringVar(&o.rotate, "rotate", "", "replace the token of a grant (lead, peer or observer; a debate's: observer) in the rooms given, print it and exit")
	f.StringVar(&o.topic, "topic", "", "topic of a room this command creates")
	f.Var(newIntFlag(&o.budget, 12, "budget", 1, 0), "budget", "rounds of a room this command creates")
	f.StringVar(&o.spec, "spec", "", "spec path of a room this command creates, relative to --cwd; default SPEC-<room>.md")
	f.StringVar(&o.publicURL, "url", "", "the URL agents reach the host at, for the printed lines; default: from --listen")
	f.StringArrayVar(&o.allowOrigins, "allow-origin", nil, "a web origin (scheme://host[:port]) whose pages may use the host; repeatable; default none: requests with an Origin header get 403")
	f.Var(newIntFlag(&o.rate, host.DefaultRate, "rate-limit", 1, 0), "rate-limit", "requests a second allowed per token, in bursts of twice that")
	f.StringVar(&o.starterFile, "starter-token-file", "", "also write the starter token (it starts debates over the web API) to this file, mode 0600")
	f.StringVar(&o.provider.Name, "provider", "", "provider of the debates the web API starts: mock, openrouter, openai, ollama (env ROUNDTABLE_PROVIDER; default mock)")
	f.StringVar(&o.provider.Model, "model", "", "model of those debates (env ROUNDTABLE_MODEL)")
	f.StringVar(&o.provider.BaseURL, "base-url", "", "server URL of any OpenAI-compatible API for those debates (env ROUNDTABLE_BASE_URL)")
	f.Var(newIntFlag(&o.provider.MaxTokens, debate.DefaultMaxTokens, "max-tokens", 1, 0), "max-tokens", "the max_tokens those debates send with every request")
	f.BoolVar(&o.fast, "fast", false, "no pause between the mock's tokens in those debates")
	o.debateBudget.MaxTokensTotal = web.DefaultMaxTokensTotal
	addBudgetFlags(c, &o.debateBudget)
	f.Lookup("max-tokens-total").Usage = "each debate the web API starts stops once its prompt and completion tokens reach this many, then the moderator gives a verdict on what was said"
	f.Lookup("max-cost").Usage = "each debate the web API starts also stops once it has cost this many US dollars (OpenRouter reports costs; the mock costs nothing) (default: none; the token cap holds)"
	f.Var(newIntFlag(&o.startsPerMinute, web.DefaultStartsPerMinute, "starts-per-minute", 1, 0), "starts-per-minute", "debates one token may start through the web API a minute")
	f.StringSliceVar(&o.allowModels, "allow-models", nil, `models a persona of an API debate may name besides the host's own (--model); "*" for any (default: the host's own only)`)
	f.StringSliceVar(&o.allowAgents, "allow-agents", nil, "coding agents a persona of an API debate may name ("+strings.Join(debate.AgentPresets(), ", ")+"); each runs on this machine (default: none)")
	f.DurationVar(&o.heartbeat, "sse-heartbeat", web.DefaultHeartbeat, "how often an idle event stream of the web API carries a heartbeat")
	_ = f.MarkHidden("sse-heartbeat")
	return c
}

func runHost(cmd *cobra.Command, o hostOptions) error {
	err := host.Run(cmd.Context(), host.Config{
		Rooms: o.rooms, All: o.all, Cwd: o.cwd,
		Listen: o.listen, ListenGiven: cmd.Flags().Changed("listen"),
		TLSCert: o.tlsCert, TLSKey: o.tlsKey, Insecure: o.insecure,
		Rotate: o.rotate, Topic: o.topic, Spec: o.spec, Budget: o.budget,
		PublicURL: o.publicURL, Rate: o.rate, AllowOrigins: o.allowOrigins,
		StarterFile: o.starterFile, Version: buildVersion(),
		Web: func(ctx context.Context) (host.Web, error) {
			return newWebFace(ctx, cmd, o)
		},
		Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr(),
	})
	var ue *host.UsageError
	if errors.As(err, &ue) {
		return asUsage(err)
	}
	return err
}
