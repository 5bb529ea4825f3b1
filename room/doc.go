// Package room is the room store: a folder of plain files that several
// processes share without a server in the middle.
//
// A room lives at <cwd>/.roundtable/<name>/ and holds room.json (written once
// by the first process to arrive), one immutable JSON file per message under
// messages/, closed.json once the room ends, and an append-only server.log.
// The layout is the contract in shared/design/room-format.md, so rooms written
// by the original TypeScript roundtable-mcp server and by this package are
// readable by either.
//
// Writers serialise on a flock in the room folder, so the turn check, the
// budget check and the choice of sequence number are one atomic step even
// across processes. Readers never lock: every message is written to a
// temporary name and renamed into place, so a reader sees a whole file or
// none. A long-lived Room parses each message file once; a Notifier wakes
// readers from inotify, with a cheap periodic rescan as a fallback.
//
// The package knows nothing of MCP, debates or terminals.
package room
