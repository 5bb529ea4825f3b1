// Package transcript renders a room as Markdown or as one self-contained,
// sanitized HTML page. The CLI's "roundtable transcript" and the export keys
// of the TUI screens call the same functions, so they can never disagree.
//
// It reads any room through the store: an MCP room (grouped by round, a
// round being a lead post and the replies to it), a persona debate saved as
// a room (by round and persona, then the moderator's verdict), and rooms
// written by the original TypeScript server.
//
// Every field of a room is untrusted. The Markdown output passes through
// SanitizeTerminal, so agent text can never drive the terminal it is printed
// to. The HTML page renders agent Markdown with goldmark (raw HTML is shown
// as text, never passed through), sanitizes the result with a strict
// bluemonday policy, escapes every header value with html/template, and adds
// a Content-Security-Policy that forbids scripts and every network load as
// defense in depth.
//
// The package imports nothing of this project but room, so the TUI can use
// it, and SeatColor gives the TUI the same seat and persona colors.
package transcript
