// Package prompts holds the prompts roundtable ships, embedded in the
// binary: the seat prompts of an MCP room and the persona and moderator
// prompts of a debate.
package prompts
