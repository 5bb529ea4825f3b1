// Package debateview is the debate screen of roundtable's terminal app: one
// column per persona, side by side, the speaking persona lit with a spinner,
// each turn rendered as Markdown with Glamour as it streams in, and the
// moderator's verdict in a full-width panel below.
//
// The screen runs a live debate in this process (New, NewStarted: the
// engine's events are read through a re-arming command that drains
// everything queued per frame, events.go, and the debate is saved as a
// room exactly as the headless command saves it), or draws a debate room
// from the store whatever its state (feed.go): one another process runs
// is followed as it changes, each persona's draft streaming into its
// column (OpenRoom, NewFromRoom), and a closed one is the same step read
// once (NewReplay). A debate a host serves on another machine is the same
// again on the local mirror roundtable watch --url keeps (OpenRemote,
// remote.go: no run lock to read, the link's state shown, read-only).
// applyRoom is the one step from room state (messages, notes, drafts,
// closure) to the columns.
//
// Rendering work stays out of View and, for finished text, out of Update:
// a finished turn is rendered once by a background command into the shared
// mdrender cache; the growing turn is re-rendered at most about thirty times
// a second (mdrender.Growing); View only joins lines prepared by Update.
package debateview
