// Package debate runs persona debates: N personas speak in a fixed
// round-robin order for R rounds, each seeing every earlier turn, then a
// moderator reads the whole debate and gives a structured verdict.
//
// The Engine streams typed events (see Event and
// ../shared/design/debate-events.md) on a channel that every view shares:
// the TUI renders them, RunHeadless prints them, and a Recorder saves the
// debate as a room (mode "debate") through the room store.
//
// Providers are the only seam to a language model: the deterministic mock
// (the default, no keys) and the OpenAI-compatible provider (openrouter,
// openai, ollama, or any server given by a base URL).
package debate
