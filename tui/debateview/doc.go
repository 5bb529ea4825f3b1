// Package debateview is the debate screen of roundtable's terminal app: one
// column per persona, side by side, the speaking persona lit with a spinner,
// each turn rendered as Markdown with Glamour as it streams in, and the
// moderator's verdict in a full-width panel below.
//
// The screen runs a live debate (NewLive: the engine's events are read
// through a re-arming command that drains everything queued per frame, and
// the debate is saved as a room exactly as the headless command saves it)
// or replays a finished one from its room (NewReplay).
//
// Rendering work stays out of View and, for finished text, out of Update:
// a finished turn is rendered once by a background command into the shared
// mdrender cache; the growing turn is re-rendered at most about thirty times
// a second (mdrender.Growing); View only joins lines prepared by Update.
package debateview
