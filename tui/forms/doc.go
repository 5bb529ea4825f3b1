// Package forms holds the two forms of roundtable's home screen: a new
// persona debate (topic, rounds, the personas switched on or off, provider
// and model) and a new MCP room (name, topic, budget, spec path), which
// creates the room, writes its seat prompts and shows the exact commands to
// paste into each agent's terminal, ready to copy.
//
// A form never starts anything itself: the debate form sends StartMsg to
// its parent; the room form seeds the room in a command and then shows the
// commands. esc sends BackMsg.
package forms
