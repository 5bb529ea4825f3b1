// Package watch is the live room screen of "roundtable watch" (and of the
// home screen's enter on an MCP room): a room's topic, budget, turn and
// seats above, its messages in order as they land, its end below. A
// council (an MCP room of more than two seats) shows its turn order and
// who passed in the header, and its seats side by side (columns.go).
//
// Nothing in Update or View touches the disk. The room's feed (room.Feed,
// on its Notifier) wakes a command (tui/internal/follow, the adapter every
// screen follows a room through) that takes the new state and renders new
// messages with Glamour off the Update loop, then re-arms; server.log and a
// room that does not exist yet are watched the same way (fsnotify, with a
// stat every room.RescanInterval as a fallback). The message list renders
// only what is in view, so a room of ten thousand messages opens as fast as
// the store can read it.
//
// The screen is a bubbles-style component: New, Init, Update returning the
// concrete Model, View returning the screen as a string, a KeyMap with
// DefaultKeyMap. Program wraps it for a program of its own and Run runs it.
package watch
