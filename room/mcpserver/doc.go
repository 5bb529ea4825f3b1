// Package mcpserver is the MCP stdio server of one seat of a room: the lead
// or the peer. It exposes the tools of the original roundtable-mcp server
// (room_status, read_room, wait_for_message, post, and for the lead
// write_spec and close_room) with the same names, arguments and reply keys,
// on top of the room store.
//
// wait_for_message parks on the store's change notification rather than
// polling, so a seat wakes within milliseconds of the other seat's post.
// Every refusal (out of turn, budget spent, closed, no spec yet, a peer
// calling a lead tool) is a tool result with isError and a sentence that
// tells the agent what to do next; Go errors are internal faults only.
package mcpserver
