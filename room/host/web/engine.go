package web

import (
	"context"
	"time"

	"github.com/roundtable-dev/roundtable/room"
)

// Engine is what the web face asks of the debate engine, which it may not
// import (packages depend cmd → tui → debate → room): the rules of a
// debate a caller may start, and a room's events as the debate reads
// them. debate/webengine.New is the engine's; cmd hands it over
// (Options.Engine). Every field is needed.
type Engine struct {
	// The rounds a debate takes, and the default.
	MinRounds, MaxRounds, DefaultRounds int
	// MaxTopic is the longest topic, in characters.
	MaxTopic int
	// MaxPersonas is the most personas a debate takes.
	MaxPersonas int
	// DefaultPersonas is the default panel, offered by the start form.
	DefaultPersonas []Persona
	// DefaultAgentPersona is the persona of a coding agent given none.
	DefaultAgentPersona string
	// AgentPresets are the coding agents a persona may name.
	AgentPresets []string
	// Moderator is the moderator's name, who gives the verdict.
	Moderator string
	// ValidatePersonas checks a panel and returns it completed (colours,
	// defaults); its error says what is wrong, in a sentence to show.
	ValidatePersonas func([]Persona) ([]Persona, error)
	// RoomName is the room name `roundtable debate` gives a debate on
	// topic started at t.
	RoomName func(topic string, t time.Time) string
	// Dollars writes an amount of dollars as the engine does.
	Dollars func(float64) string
	// Follow follows room r: the events it holds now, then its changes
	// (debate.FollowStore).
	Follow func(ctx context.Context, r *room.Room) (Follower, []Event, error)
}

// A Follower is a room followed: Next waits for its next events.
type Follower interface {
	Next(ctx context.Context) ([]Event, error)
	// Holders is who holds each seat (a debate's run: seat ""), as of the
	// last events.
	Holders() map[string]room.Holder
	// Ended reports whether the room's final event came.
	Ended() bool
	Close()
}

// Persona is a persona of a debate started through the API: debate.Persona,
// field for field, as its persona file (TOML) writes it.
type Persona struct {
	Name    string   `toml:"name" json:"name"`
	Persona string   `toml:"persona" json:"persona"`
	Stance  string   `toml:"stance,omitempty" json:"stance,omitempty"`
	Model   string   `toml:"model,omitempty" json:"model,omitempty"`
	Color   string   `toml:"color,omitempty" json:"color,omitempty"`
	Agent   []string `toml:"agent,omitempty" json:"agent,omitempty"`
}

// Event is a debate event (debate/event.go, the contract) as the stream
// reads it: the fields it carries.
type Event struct {
	Type     string // the contract's event name, the stream's too (evToken…)
	Topic    string
	Agents   []string
	Rounds   int
	Provider string
	Round    int
	Agent    string
	Model    string
	Text     string
	Usage    *Usage
	// MessageKind is a turn_end's message kind in its room (an MCP room's
	// brief, challenge…).
	MessageKind           string
	Incomplete, Truncated bool
	Consensus             *bool
	From                  string // a note's writer
	Kind                  string // an activity's kind
	// Ranking is a ranking's order: persona names, best first.
	Ranking []string
	// A retry's attempt, of Attempts, after Status failed, in Wait.
	Attempt, Attempts, Status int
	Wait                      time.Duration
	// Seq and Line are where the room holds it (debate/event.go): a
	// message's or note's number; an activity line's in its turn.
	Seq, Line int
}

// Usage is a turn's, a verdict's or a debate's tokens and cost, with the
// contract's keys.
type Usage struct {
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost,omitempty"`
}
