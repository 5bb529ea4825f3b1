// Package host is `roundtable host`: the rooms' seats served over MCP's
// streamable HTTP at /mcp, and beside them a web face (seed 002's API and
// the live pages), on one listener behind one set of checks. Run is the
// whole command (cmd/roundtable maps its flags onto Config); NewHost,
// Serve and Shutdown are its parts.
//
// The tree: this package (the listener, the checks, the sessions, the
// printed lines), web (the web face: seed 002's API, the pages' routes,
// the pushed room list, the event streams), page (the live page and the
// room index, drawn), webauth (the door between this package and the web
// face: the grant a request came with, the sign-in paths, the stream
// budget), hosttest (the helpers this package's and room/mcpserver's
// end-to-end tests share; only tests import it). The seat tools a session
// calls are room/mcpserver's (a RemoteSeat per session, one MCP server
// for every room). The tree sits below the engine: what a debate takes
// and how a room reads as its events come to web as a web.Engine
// (debate/webengine.New, handed over by the command, which mounts the
// face as Config.Web); no package under debate/ imports the seat server.
//
// Where each rule lives:
//
//   - the order of checks on a request and the server's timeouts:
//     http.go (/mcp: stopping 503, Host and Origin 403, the address's
//     failed tokens and the token 401, the starter token refused a seat,
//     the token's rate 429, a session started with another token 403,
//     then the session's caps); web.go the same order for the web face;
//   - the Authorization header: bearer.go (the store keeps only hashes and
//     grants, room.TokenSet.Authorize); the starter token: web.go
//     (NewStarterToken; only its hash is kept);
//   - wrong-token waves: authguard.go (a slot of the address's bucket is
//     taken before a token is checked and given back when it is good);
//   - Origin and Host (DNS rebinding, cross-site pages): httpguard.go; a
//     link to a page clicked on another site opens it: web.go webRefusal;
//   - what a client's connections and addresses may cost: connlimit.go
//     (connections capped in all and per address, under the file limit;
//     at a cap a new connection displaces the oldest one waiting for a
//     request, tokenless first, or is refused 503; idle keep-alives closed
//     after IdleTimeout; every 429 and 503 closes its connection and
//     carries Retry-After), limiters.go (every rate limit is a
//     golang.org/x/time/rate bucket per key, in a table capped and swept:
//     per token, per address without a token, and the auth guard's per
//     address);
//   - sessions, parked waits and streams per token and per host: caps.go;
//     the web face's streams (per token, and a reserve of the host's for
//     the starter token's pages): web.go beginWebStream, reached through
//     webauth.BeginStream;
//   - who holds a seat over HTTP: host.go (seatFor makes a session's
//     mcpserver.RemoteSeat on its first request; connect and drop log it,
//     one room.SeatHold per session sharing the host's lock,
//     room.SharedLocks; an agent CLI's session takes its seat with its
//     first tool call, refused when a session of another seat of the
//     room shared a connection with it (linkedSeat: one process, one
//     agent); freeQuiet shows the seat of a session quiet for
//     SeatQuiet free, and the session takes it again when it calls;
//     sweep ends sessions idle past IdleTTL); the
//     session IDs: host.go (the host is mcp-go's session ID manager);
//   - a persona debate is watch-only: host.go seatFor refuses a seat's
//     token of it (room.WatchOnlyError), hostprint.go says so in its
//     observer line;
//   - browsers: browsersessions.go (sign-in trades a token for a random
//     session id kept in memory, in an HttpOnly cookie named after the
//     port; sign-out; a rotated token ends its sessions; bounded per token
//     and per host);
//   - rooms added while serving: hostlive.go (AddRoom, ServeNew),
//     hostpicker.go (--all: rooms created under the folder);
//   - the lines printed to connect each agent, and the tokens issued:
//     hostprint.go; tokens.json trusted only when the user owns it and no
//     one else may write it: Tokens;
//   - the web face (web/): the API's routes and JSON errors (server.go),
//     a start's body and every refusal's wording (sessions.go), the caps
//     of a started debate and starts per minute (limits.go), debates run
//     as the host's children (starter.go), the event stream, its IDs and
//     Last-Event-ID (stream.go, events.go), the pages' routes (pages.go),
//     the pushed room list (roomlist.go); the engine's part of each
//     (rounds, personas, a room's events) is web.Engine;
//   - the command: run.go (the flags' checks, the rooms opened or
//     created, --rotate, the starter token, the order of what is printed,
//     a graceful stop).
package host
