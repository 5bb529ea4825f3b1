// Package app is roundtable's terminal app: the root model that routes
// between the home screen, the two forms, the debate screen and the watch
// screen, and Run, which shows it in a full window; RunRemote shows a room
// a host serves in the screen of its kind.
//
// Every screen keeps its own state and keys; the root only switches
// between them on their messages (home.OpenMsg, forms.StartMsg,
// debateview.BackMsg, ...), hands them the terminal's size and background,
// and, when the program ends however it ends, stops any debate still
// running so that it is saved.
//
// Where each rule of the screens lives (the terminal's packages are tui/...):
//
//   - a debate's columns: tui/debateview; a token reaching a column,
//     whoever runs the debate: the room's draft (debate/recorddrafts.go),
//     read back as an EventToken (debate/storeevents.go), applied in
//     events.go (apply) into column.go; the debate's room followed
//     through its feed (debate.FollowStore) as any reader follows it:
//     its Session's events when it runs here (StoreEvents.Stream), the
//     screen's own watch when it runs elsewhere (feed.go), both waited
//     on through tui/internal/follow; a finished one read once
//     (replay.go);
//   - a room a host serves, watched with roundtable watch --url: remote.go
//     RunRemote picks the screen by the room's mode (a persona debate in
//     the debate screen, debateview.OpenRemote; any other room in the
//     watch screen), both on the local mirror tui/watch's DialRemote
//     keeps (remote.go, remote_client.go);
//   - an MCP room live: tui/watch (feed.go reads the room on its
//     notifier, drafts.go the seats' words in progress, take*.go a person
//     taking a seat, note.go a steering note written to the room);
//   - the room list: tui/home; the new-debate and new-room forms: tui/forms;
//   - Markdown to the terminal: tui/mdrender (agent text passes
//     room/transcript's SanitizeTerminal first; raw HTML is escaped, as
//     Glamour would drop it); colors: tui/theme;
//   - keys shared by the screens: tui/internal/keys; keys typed together
//     (a paste without bracketed paste) reaching one screen:
//     tui/internal/burst; the composer: tui/internal/composer; the
//     command palette: tui/internal/palette; a terminal that is missing:
//     tui/internal/noterm; the seat processes the room form starts:
//     tui/internal/seatproc.
package app
