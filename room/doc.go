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
// 30 s on a local one). Every watch of a process (each room a host serves,
// the home screen's list) shares one inotify instance, the watch hub
// (watchhub.go), which hands each event to the watches of its folder and an
// overflow to all, so the number of rooms never spends the user's 128
// instances.
//
// Readers follow a room through Feed: a snapshot, then every change in
// order (messages, notes, drafts, who holds each seat, the close), built
// on the room's one Notifier, which tells drafts apart so state readers
// are not woken by them. A holder that dies writes nothing, so a feed
// reads again every 2 s the holders it last saw live. A debate's run writes everything a screen draws into the store, so
// a Feed shows a debate streaming in this process, in another, or (through
// a host's mirror) on another machine, and a finished one the same way.
//
// Where this store has moved on from room-format.md, this comment is the
// contract. A room's seats are an ordered list of names (Config.Seats): the
// lead and the peer for an MCP room, unless room.json carries a "seats"
// array (written only when the list is not that default, so the original
// server's rooms stay byte for byte as they were); a debate room's
// personas in speaking order, then "moderator" (a debate's room.json also
// carries "pauseBetweenRounds": true when it waits for its person after
// each round, Config.Pause, and "rank": true when its personas rank each
// other's final turns after the last round, Config.Rank: each ranking is
// a message of kind "ranking" (KindRanking) in the ranker's seat, with
// the last round held, the ranker's reply as its text, and the order it
// gave, persona names best first, in an extra "ranking" array; the
// rankings come after the last round's turns and before the verdict; and
// each entry of its "personas" array may carry a "stance", "for",
// "against" or "neutral" (a persona file's, or debate --stances'), which
// every reader shows beside the persona's name). An
// MCP room with a "seats"
// array is a council (Config.IsCouncil): 2 to 8 seats, "lead" first (it
// opens every round, spends the budget, writes the spec and closes; Create
// refuses any other first seat, and a seat named "observer", the host's
// watch-only grant). Its turn order is the list (State.Seats): the seat
// after the one that posted last, the lead after the last seat or when
// nothing has been posted, so with the default seats it is the format's
// rule; the budget still counts the lead's messages (rounds). A council
// seat may pass its turn: a message of kind "pass" (KindPass), whose text
// may be empty; State.Passed lists who passed since the lead's latest
// message. Each seat's prompt is <SeatFile(seat)>.md in the room's folder
// (PromptFile). A seat's files are named
// by SeatFile: lead and peer as themselves, any other name as a slug and a
// hash of it, so a persona's name never reaches the file system; the real
// name is inside the file. Beside the original's files a room may hold:
// drafts/<SeatFile(seat)>.json (the text any seat is composing, a played
// seat, a person, a debate persona or the moderator, with "seat" its real
// name; never a message; a debate's run writes it at most ~30 times a
// second per seat, through a DraftWriter that makes each next write ready
// (draftwriter.go: dot files in drafts/ that readers pass over), and
// removes it when the turn ends, so a closed room has none),
// sessions/<SeatFile(seat)>.json (the ACP session of a seat roundtable
// plays with a coding agent, resumed when the seat starts again:
// sessions.go),
// notes/ (a person's steering notes, one immutable file each, never a
// message; they name a sender, not a seat), seats/<SeatFile(seat)>.lock
// (who holds a seat: an MCP seat server, the
// host, roundtable seat or a person, with its pid; readers decide "gone"
// from the lock), run.lock (the process running a debate, with its pid: a
// free lock on an open debate means its process ended without closing it),
// tokens.json (SHA-256 hashes of roundtable host's tokens, trusted only when
// owned by the host's user and not writable by others, nor its folders),
// host.json (the URL roundtable host last served the room at),
// claims/<agent>.json (which seat a coding agent's CLI plays, when the
// same agent runs seat servers of two seats: agentclaim.go),
// spec-history/<n>.md (each spec file write_spec replaced, the room's own
// earlier versions or a file that was at the spec path before: WriteSpec
// loses nothing), and
// paused.json (a debate waiting between two rounds for its person:
// {"round": N, "at": …}, written by its run after round N's messages and
// removed when it goes on; a debate stopped while paused keeps it, and
// resumed, waits there again. Readers heed it while the room is open:
// State.Paused, the feed's FeedPaused, a snapshot's "paused"),
// consensus.json (a debate whose moderator found the panel agreed after
// round N, {"round": N, "at": …}, written by its run before its verdict:
// resumed, it goes to the verdict, not round N+1; read only then), and
// closed-N.json (an earlier ending of a resumed debate). closed.json may
// carry a "detail" beside its "reason" (a debate stopped by a signal names
// it there). The original server never reads any of these, so its seats
// see the same room.
//
// Who holds a seat is one record, SeatHold (seathold.go): the seat's lock
// and its connect line in server.log, answered by the disconnect line on
// Release. A person at the keyboard, a seat roundtable plays and an
// agent's MCP stdio server each hold a seat through one, and so does each
// of a host's HTTP sessions, the sessions of one seat sharing its lock
// (SharedLocks); a debate's personas are held by its run lock. Every seat parks until its
// turn in one loop, Park (park.go).
//
// The package knows nothing of MCP, debates or terminals.
package room
