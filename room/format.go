package room

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeLayout is how every timestamp in a room is written: UTC with
// milliseconds, the shape of JavaScript's Date.toISOString.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Seats of an MCP room.
const (
	SeatLead      = "lead"
	SeatPeer      = "peer"
	SeatModerator = "moderator"
)

// ModeDebate marks a persona debate stored as a room. Rooms without a mode
// are MCP rooms.
const ModeDebate = "debate"

// KindSummary is the kind of the moderator's verdict in a debate room.
const KindSummary = "summary"

// KindRanking is the kind of a persona's peer ranking in a debate room
// that ranks (Config.Rank): after the last round, the persona's ranking
// of the others' final turns, its reply as Text and the order it gave,
// in persona names, as Message.Ranking.
const KindRanking = "ranking"

// MaxTextBytes is the largest message text a post may carry.
const MaxTextBytes = 256 << 10

// MaxTopicBytes is the largest topic a room may have.
const MaxTopicBytes = 64 << 10

// maxFileBytes bounds how much of a message file a reader will load; a
// larger file cannot have been written by a server and is skipped.
const maxFileBytes = 4 << 20

// Config is room.json. Mode, Agents and Rounds are set only for debates;
// Personas and Moderator too, so a debate can be run again from its room
// (extra fields, which readers of the format ignore). SeatNames only when
// an MCP room's seats are not the default lead and peer.
type Config struct {
	Room      string        `json:"room"`
	Topic     string        `json:"topic"`
	Budget    int           `json:"budget"`
	Spec      string        `json:"spec"`
	CreatedAt string        `json:"createdAt"`
	Mode      string        `json:"mode,omitempty"`
	Agents    []string      `json:"agents,omitempty"`
	Rounds    int           `json:"rounds,omitempty"`
	Personas  []PersonaInfo `json:"personas,omitempty"`
	Moderator *PersonaInfo  `json:"moderator,omitempty"`
	// Pause is set for a debate that waits for its person after each
	// round, so a debate resumed in any screen pauses as it did.
	Pause bool `json:"pauseBetweenRounds,omitempty"`
	// Rank is set for a debate whose personas rank each other's final
	// turns after the last round (messages of KindRanking), so a debate
	// resumed in any screen still ranks.
	Rank bool `json:"rank,omitempty"`
	// SeatNames is the seats of an MCP room that has other seats than the
	// lead and the peer; left out when it has those (see Seats).
	SeatNames []string `json:"seats,omitempty"`
	// Provider and Model are what a debate's words came from (the
	// provider's name, and its model when one was named), so every
	// reader names them as the process that ran it did.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
}

// PersonaInfo is who sat at a debate: the name (the seat of its messages)
// and the description it argued from.
type PersonaInfo struct {
	Name    string `json:"name"`
	Persona string `json:"persona"`
	Stance  string `json:"stance,omitempty"`
	Model   string `json:"model,omitempty"`
	Color   string `json:"color,omitempty"`
	// Agent is the coding agent that spoke for the persona over ACP
	// ("acp:claude", or its argv), when one did.
	Agent []string `json:"agent,omitempty"`
}

// StanceOf is the stance persona name argues in a debate room (a persona
// file's, or one --stances gave): "for", "against", "neutral"; "" for
// none.
func (c Config) StanceOf(name string) string {
	for _, p := range c.Personas {
		if p.Name == name {
			return p.Stance
		}
	}
	return ""
}

// IsDebate reports whether the room holds a persona debate.
func (c Config) IsDebate() bool { return c.Mode == ModeDebate }

// Message is one file under messages/. Round is set only in debate rooms.
type Message struct {
	Seq   int    `json:"seq"`
	At    string `json:"at"`
	Seat  string `json:"seat"`
	Agent string `json:"agent"`
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	Round int    `json:"round,omitempty"`
	// Activity is what a debate persona spoken by a coding agent did
	// during the turn besides speaking (an extra field, which readers of
	// the format ignore).
	Activity []Activity `json:"activity,omitempty"`
	// Usage is what a debate turn or verdict cost, as the provider
	// reported it (an extra field, which readers of the format ignore).
	Usage *Usage `json:"usage,omitempty"`
	// Retries are the times the turn's request failed and was made
	// again, in order (an extra field, as Activity).
	Retries []DraftRetry `json:"retries,omitempty"`
	// Ranking is a ranking message's order (KindRanking): the personas
	// its seat ranked, by name, best first (an extra field, as Activity).
	Ranking []string `json:"ranking,omitempty"`

	// File is the message's file name inside messages/ (not stored).
	File string `json:"-"`
}

// Usage counts the tokens of one reply; Cost is in US dollars, 0 when
// neither the provider nor a price table gave it. The same shape as
// debate.Usage.
type Usage struct {
	PromptTokens     int     `json:"prompt_tokens"`
	CompletionTokens int     `json:"completion_tokens"`
	Cost             float64 `json:"cost,omitempty"`
}

// Activity is one line of what an agent did during a turn: kind "tool",
// "plan", "refused", "failed" or "note", and the line ("reading
// room/store.go").
type Activity struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Time parses At; the zero time when it is malformed.
func (m Message) Time() time.Time {
	t, err := time.Parse(time.RFC3339Nano, m.At)
	if err != nil {
		return time.Time{}
	}
	return t
}

// Closed is closed.json.
type Closed struct {
	Reason   string `json:"reason"`
	SpecPath string `json:"specPath"`
	At       string `json:"at"`
	// Detail says more about why, when there is more to say: the signal
	// that stopped a debate ("hang-up (SIGHUP): the terminal closed"), or
	// the run that died without closing its room. An extra field: the
	// original server neither writes nor reads it.
	Detail string `json:"detail,omitempty"`
	// Seat is the seat whose failure ended the room (a debate persona
	// whose turn failed, or the moderator); empty otherwise. An extra
	// field, as Detail.
	Seat string `json:"seat,omitempty"`
}

// encodeJSON writes v the way every room file is written: two-space
// indentation, <, > and & as themselves, and a final newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// messageFileName is the name a message is stored under:
// 4-digit (or wider) seq, Unix milliseconds, 6 hex characters.
func messageFileName(seq int, at time.Time, suffix string) string {
	return fmt.Sprintf("%04d-%d-%s.json", seq, at.UnixMilli(), suffix)
}

// ParseMessageFileName returns the sequence number that a message file's
// name starts with. ok is false for names that are not message files
// (temporary files, anything not ending in .json, names without a number).
func ParseMessageFileName(name string) (seq int, ok bool) {
	if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
		return 0, false
	}
	head, _, found := strings.Cut(name, "-")
	if !found || head == "" || len(head) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(head)
	if err != nil || n < 0 || head[0] == '+' || head[0] == '-' {
		return 0, false
	}
	return n, true
}

func formatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }
