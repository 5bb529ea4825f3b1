// Package debate runs persona debates: N personas speak in a fixed
// round-robin order for R rounds, each seeing every earlier turn, then a
// moderator reads the whole debate and gives a structured verdict.
//
// Start is the one way a debate starts, for the headless command and the
// TUI alike: it checks the Settings, asks a self-hosted provider whether it
// answers, creates the room and runs the Engine, recording as it goes. The
// Session it returns carries the typed events (see Event and
// ../shared/design/debate-events.md) that every view shares: the TUI
// renders them, RunHeadless prints them, and a Recorder has saved each one
// in the room (mode "debate") through the room store before it arrives.
//
// Providers are the only seam to a language model: the deterministic mock
// (the default, no keys) and the OpenAI-compatible provider (openrouter,
// openai, ollama, or any server given by a base URL).
package debate
