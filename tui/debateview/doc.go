// Package debateview is the debate screen of roundtable's terminal app: one
// column per persona, side by side, the speaking persona lit with a spinner,
// each turn rendered as Markdown with Glamour as it streams in, and the
// moderator's verdict in a full-width panel below, headed, in a debate
// that ranks, by the table of the personas' peer ranking (rank.go).
//
// Every debate this screen shows comes from the store, as the debate's
// events (debate.Event), through the screens' one adapter from a feed to
// messages (tui/internal/follow) and one apply step (apply, events.go):
//   - a debate it runs in this process (New, NewStarted): its Session's
//     events, which the Session reads back from the room as the engine
//     saves it (debate.FollowStore), every event queued taken per frame;
//   - a debate room another process runs, or a finished one (feed.go:
//     OpenRoom, NewFromRoom; NewReplay reads it once): the screen's own
//     watch on the room, each look turned into events by
//     debate.RoomReader (applyRoom), each persona's draft streaming into
//     its column;
//   - a debate a host serves on another machine: the same, on the local
//     mirror roundtable watch --url keeps (OpenRemote, remote.go: no run
//     lock to read, the link's state shown, read-only).
//
// Rendering work stays out of View and, for finished text, out of Update:
// a finished turn is rendered once by a background command into the shared
// mdrender cache; the growing turn is re-rendered at most about thirty times
// a second (mdrender.Growing); View only joins lines prepared by Update.
package debateview
