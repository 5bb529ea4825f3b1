// Package web is the web face of roundtable host: seed 002's HTTP API over
// the rooms a host serves, on the host's listener and behind its checks
// (room/host: Config.Web), told who a request is through room/host/webauth
// (GrantOf), a leaf: this package never imports the host or the seat
// server. What a debate is comes from the engine as an Engine
// (debate/webengine.New), since the engine sits above this tree.
//
//	GET  /health                      {"status":"ok","provider":"<name>"}, no token needed
//	GET  /api/sessions                the rooms the token may watch
//	POST /api/sessions                start a debate (the host's starter token)
//	GET  /api/sessions/{id}           the room's transcript as JSON (room/transcript.Model)
//	GET  /api/sessions/{id}/stream    the room as Server-Sent Events
//
// The stream (stream.go, events.go) carries seed 002's events with its
// payload keys exactly, for a debate and for an MCP room alike (agent is
// the seat, round the room's round, rounds its budget), running or
// finished (a finished room replays), then events of our own whose names
// seed 002 does not use, which its clients skip. Seed 002's: session_start,
// round_start, turn_start, token, turn_end, round_end, summary, done,
// error. Ours: speaker, retry, activity, turn_meta, consensus, note,
// pause, budget, ranking (a persona's peer ranking, whole, before the
// verdict), summary_token, token_reset (the verdict's only), verdict,
// usage, error_detail, closed, seat_state, run_state (events.go gives
// each one's payload). A turn's tokens are appends that add up to its
// turn_end's full_text, in every room. Every event's ID is taken from
// the room, not from one host's reading of it (resume.go): what a client
// that had the stream up to it has of the room (messages and notes by
// their numbers, bytes of each turn in progress, rounds, seats' holders).
// Last-Event-ID resumes after it, after any time away and on a host
// started since, with nothing repeated and no token lost. One hub per
// room follows the room once (Engine.Follow) and keeps its events,
// whoever watches, for a minute after its last client leaves.
//
// A debate started here runs as a child process of the host (starter.go),
// capped (limits.go): a token cap per debate even on a host that sets
// none (DefaultMaxTokensTotal), a cost cap when the host sets one, starts
// per minute per token, and only the host's own model and no coding agent
// per persona unless the host allows more. The body's checks and every
// refusal's wording are sessions.go's: each a 4xx saying what to do, none
// naming a Go type.
//
// The pages (pages.go) are the index of the rooms a visitor may watch
// (/) and each room's live page (/rooms/{id}). The index's list is pushed
// (roomlist.go): GET /rooms.events streams it, the whole list the grant
// may watch at each change, from one follow per room shown (room.Feed, on
// the host's own watch of the room) shared by every index client; nothing
// polls; the host says when it adds a room (Rooms.RoomsChanged).
//
// Who the request is comes from the host (webauth.GrantOf): a
// bearer token or a browser's session; this package never sees a cookie.
package web
