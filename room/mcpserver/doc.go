// Package mcpserver is the MCP server of one seat of a room (stdio, and
// for a host, room/host, over HTTP): the lead,
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
//     lock and its connect line) taken on the first request (a coding
//     agent's CLI: on its first tool call, and one seat an agent, claimed
//     through room.ClaimAgent when siblings.go finds the agent running
//     another seat server of the room), released on the way out; a
//     host's sessions: room/host;
//   - a person's note reaching a parked seat: notes.go (takeNotes, read
//     inside the park loop, so a note wakes the seat);
//   - what agents of the original server expect on the wire: compat.go;
//     replies: reply.go; a large read_room: splice.go, readroom.go;
//   - the seats a host serves over HTTP (room/host keeps the sessions,
//     the listener and every check before a call): remote.go (a
//     RemoteSeat per session, NewHostServer: one MCP server for every
//     room and session, each call answered by the session's seat; an
//     observer may read and wait but not write), host_observe.go (the
//     observer's observe_room, on room.SnapshotWait, which wakes on a
//     debate's drafts, so each persona's words reach a remote screen
//     within a frame; its log lines and paths scrubbed of the host's
//     addresses and folders).
package mcpserver
