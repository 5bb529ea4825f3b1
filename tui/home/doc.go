// Package home is the first screen of roundtable's terminal app: the rooms
// under <cwd>/.roundtable (persona debates and MCP rooms), newest first,
// with a filter, and the keys that start a new debate or a new MCP room.
//
// The list is read off the Update loop (List, in a command) and read again
// whenever something changes under .roundtable (fsnotify, debounced), so a
// debate or an MCP room moving in another terminal shows here as it moves.
// With no rooms yet, the screen says what each key does.
package home
