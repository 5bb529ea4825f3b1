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
// readers from inotify, with a cheap periodic rescan as a fallback (every
// second where events may be missing, as on a network filesystem; every
// 30 s on a local one).
//
// Where this store has moved on from room-format.md, this comment is the
// contract. Beside the original's files a room may hold: drafts/<seat>.json
// (the text a played seat or persona is composing; never a message),
// notes/ (a person's steering notes, one immutable file each, never a
// message), seats/<seat>.lock (who holds a seat: an MCP seat server, the
// host, roundtable seat or a person, with its pid; readers decide "gone"
// from the lock), run.lock (the process running a debate, with its pid: a
// free lock on an open debate means its process ended without closing it),
// tokens.json (SHA-256 hashes of roundtable host's tokens, trusted only when
// owned by the host's user and not writable by others, nor its folders),
// host.json (the URL roundtable host last served the room at), and
// closed-N.json (an earlier ending of a resumed debate). closed.json may
// carry a "detail" beside its "reason" (a debate stopped by a signal names
// it there). The original server never reads any of these, so its seats
// see the same room.
//
// The package knows nothing of MCP, debates or terminals.
package room
