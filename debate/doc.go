// Package debate runs persona debates: N personas speak in a fixed
// round-robin order for R rounds, each seeing every earlier turn, then a
// moderator reads the whole debate and gives a structured verdict.
//
// Start is the one way a debate starts, for the headless command and the
// TUI alike: it checks the Settings, asks a self-hosted provider whether it
// answers, creates the room and runs the Engine, recording as it goes.
//
// The store is the engine's only output: a Recorder writes the debate
// into its room (mode "debate") as it goes, each turn in progress as its
// seat's draft, and the Session's typed events (see Event and
// ../shared/design/debate-events.md), which every view shares (the TUI
// renders them, RunHeadless prints them), are that room read back
// (FollowStore), the same events any other reader of the room gets,
// here, in another process (RoomReader) or through a host's mirror.
//
// Providers are the only seam to a language model: the deterministic mock
// (the default, no keys) and the OpenAI-compatible provider (openrouter,
// openai, ollama, or any server given by a base URL).
//
// Where each rule lives:
//
//   - the turn order, rounds, the verdict and budgets: engine.go; a
//     person's notes between rounds: interject.go; the personas' peer
//     ranking before the verdict (--rank): rank.go;
//   - what a debate saves in its room (messages, the cut turn, closed.json
//     and why): recorder.go; a turn in progress as its seat's draft, at
//     most 30 writes a second: recorddrafts.go; the room read back as
//     events: storeevents.go (FollowStore, RoomReader; the Session's
//     own through StoreEvents.Stream); stopping, resuming and a dead
//     run's lock: session.go, resume.go, retry.go;
//   - the typed events every view shares: event.go (the contract where
//     the code moved on from debate-events.md); the headless output:
//     headless.go;
//   - providers: provider.go, mock*.go, openai.go; cost: cost.go;
//   - coding agents over ACP: agent.go and agentproc.go (starting one),
//     agentclient.go (RequestPermission: the permission policy, what
//     --allow-agent-tools allows), agentrestraint.go and agentcodex.go (each
//     preset's own read-only restraints), agentcopy.go (a disposable copy
//     for agents without them), agentmark.go and agentreap_linux.go (no
//     agent process outlives its debate);
//   - a seat roundtable plays in an MCP room: seat.go, seatplay.go (its
//     turns; it parks on room.Park like an MCP seat), seatnotes.go.
package debate
