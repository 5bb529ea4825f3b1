// Package mcpserver is the MCP stdio server of one seat of a room: the lead,
// the peer, or any seat of a council (room.Config.IsCouncil). It exposes
// the tools of the original roundtable-mcp server (room_status, read_room,
// wait_for_message, post, and for the lead write_spec and close_room) with
// the same names, arguments and reply keys, on top of the room store.
//
// wait_for_message parks on the store's change notification rather than
// polling, so a seat wakes within milliseconds of the other seat's post.
// Every refusal (out of turn, budget spent, closed, no spec yet, a peer
// calling a lead tool) is a tool result with isError and a sentence that
// tells the agent what to do next; Go errors are internal faults only.
//
// Where each rule lives:
//
//   - the tools, their arguments and annotations: tools.go (mcp.NewTool
//     marks a tool destructive unless all four hints are set);
//   - turn-taking and the round budget: the store (room/append.go,
//     PostMessage), which every seat shares; post here only words the
//     store's refusal for the agent (refusals.go);
//   - a council: the seat is checked against the room (lazy.go
//     openRoomLocked; the CLI checks it before serving), wait_for_message
//     parks until this seat's turn (a host's observer takes no turn and
//     wakes for every message) and hands over every other seat's
//     message since it last read (handlers.go fromOther), replies add
//     seats and passed and room_status holders (handlers.go status), the
//     tools say "the other seats" (tools.go; a lead or peer learns it holds
//     a council's seat when the room opens, so its listed tools are
//     swapped then, server.go), a pass may leave text out (compat.go), and
//     the host gives each seat a token (room.Config.HostGrants);
//   - parking until the other seat posts: handlers.go waitForMessage, on
//     room.Park (room/park.go), the loop a played seat uses too; its
//     wait_return line: waitlog.go;
//   - who holds the seat: lazy.go beginAs, a room.SeatHold (the seat's
//     lock and its connect line) taken on the first request, released on
//     the way out; a host's sessions: host.go connect and drop, one
//     room.SeatHold per session, sharing the host's lock (room.SharedLocks);
//   - a person's note reaching a parked seat: notes.go (takeNotes, read
//     inside the park loop, so a note wakes the seat);
//   - what agents of the original server expect on the wire: compat.go;
//     replies: reply.go; a large read_room: splice.go, readroom.go;
//   - the HTTP host: host.go (rooms and their services), http.go (the order
//     of checks on a request, the server's timeouts), bearer.go (the
//     Authorization header: the store keeps only hashes and grants,
//     room.TokenSet.Authorize), authguard.go (wrong-token waves),
//     httpguard.go (Origin and Host), caps.go (sessions, waits and
//     streams per token and per host), hostlive.go and hostpicker.go
//     (rooms added while serving);
//   - what a client's connections and addresses may cost the host:
//     connlimit.go (connections capped in all and per address, under the
//     file limit; at a cap a new connection displaces the oldest one
//     waiting for a request, tokenless first, or is refused 503; idle
//     keep-alives closed after IdleTimeout; every 429 and 503 closes its
//     connection and carries Retry-After), limiters.go (every rate limit
//     is a golang.org/x/time/rate bucket per key, in a table capped and
//     swept: per token, per address without a token, and the auth
//     guard's per address), web.go (web streams: MaxWebStreamsPerToken
//     per token, and a reserve of the host's streams for the starter
//     token's pages that room tokens cannot take);
//   - the web face's door: web.go (the checks a web request passes, a
//     link from another site to a page, the webauth.Door it hands on), browsersessions.go
//     (sign-in trades a token for a session id kept in the host's memory,
//     in a cookie named after the port; sign-out; a rotated token ends
//     its sessions);
//   - a persona debate hosted watch-only: the store gives it the observer's
//     token alone (room.Config.HostGrants, IssueTokens, RotateToken),
//     host.go seatFor refuses a seat's token of it (room.WatchOnlyError),
//     hostprint.go says so in its observer line; observe_room
//     (host_observe.go, room.SnapshotWait) wakes on its drafts, so each
//     persona's words reach a remote screen within a frame.
package mcpserver
