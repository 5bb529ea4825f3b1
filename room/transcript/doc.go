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
// Rendering costs are bounded (bound.go, cache.go): before any parser sees a
// message, TooComplex measures its Markdown in one linear pass (link
// openers and the scans they cause, quote and list nesting, table cells,
// blocks, inline delimiters); past the bound, the message is shown as
// escaped plain text after PlainNote, in the page and, through
// tui/mdrender, in the terminal alike. A rendered body is cached by the
// text (BodyCacheBytes), so the live page, its parts and
// the export render each immutable message once per process.
//
// ForTerminal breaks a Markdown transcript's prose at words for a
// terminal (roundtable transcript, debate --format md and eval's report,
// on one), leaving its code and tables whole.
//
// The package imports nothing of this project but room, so the TUI can use
// it, and SeatColor gives the TUI the same seat and persona colors.
package transcript
