// Package forms holds the two forms of roundtable's home screen: a new
// persona debate (topic, rounds, the personas switched on or off and the
// agent that speaks for each, what those agents may do beyond reading,
// provider and model) and a new MCP room (name, topic, budget, spec path,
// and what fills each seat: an agent the user starts, or a model or an ACP
// agent roundtable plays, with its persona and, for an agent, its tools),
// which creates the room, writes its seat prompts, starts the seats
// roundtable plays and shows the exact commands to paste into each
// agent's terminal, ready to copy.
//
// A form never starts a debate itself: the debate form sends StartMsg to
// its parent. esc sends BackMsg, and so does q on a field with nothing to
// type (a choice, a number, a button).
package forms
