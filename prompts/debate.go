package prompts

import "embed"

// Debate holds the prompts of a persona debate as text/template sources:
// debate/persona_system.md and debate/persona_turn.md for a persona's turn,
// debate/moderator_system.md and debate/moderator_verdict.md for the
// verdict, and debate/consensus_system.md and debate/consensus_check.md for
// the moderator's check after a round; debate/rank_system.md and
// debate/rank_turn.md for a persona's peer ranking of the others' final
// turns (--rank), which moderator_verdict.md then shows; debate/agent_note.md and
// debate/agent_followup.md for a persona or moderator spoken by a coding
// agent, which keeps its session and is sent only what is new.
//
//go:embed debate/*.md
var Debate embed.FS
