package debate

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits and defaults of a debate.
const (
	MinRounds            = 1
	MaxRounds            = 10
	DefaultRounds        = 3
	DefaultTurnTimeout   = 120 * time.Second
	DefaultMaxTurnTokens = 4096
	MaxTopicLen          = 2000
)

// Config is one debate.
type Config struct {
	Topic     string
	Personas  []Persona // in speaking order
	Moderator Persona   // zero: DefaultModerator()
	Rounds    int       // 1-10; 0: DefaultRounds
	// Seed makes the mock's debate repeatable: the same topic, personas,
	// rounds and seed give the same transcript.
	Seed int64
	// BlindOpening answers round 1 in parallel, nobody seeing the others,
	// so the first speaker does not anchor the rest. Events still come in
	// speaking order.
	BlindOpening bool
	// StopOnConsensus asks the moderator after each round but the last
	// whether the panel agrees, and goes to the verdict when it does.
	StopOnConsensus bool
	// PauseBetweenRounds waits after each round (the last too, before the
	// verdict) for Session.Continue, with a pause event; notes given
	// meanwhile join the transcript at once.
	PauseBetweenRounds bool
	// Stances assigns each persona without a stance of its own one of
	// for, against and neutral on the decision, in turn by speaking
	// order (PAL's consensus protocol), so the panel argues both sides
	// whatever its roles lean to. Normalize assigns them.
	Stances bool
	// Rank has every persona, after the last round, rank the others'
	// final turns, shown unlabelled (llm-council's peer ranking); the
	// moderator reads the rankings before the verdict.
	Rank bool
	// TurnTimeout ends the debate when a provider sends no token for this
	// long; 0: DefaultTurnTimeout.
	TurnTimeout time.Duration
	// MaxTurnTokens cuts a turn after this many deltas (with a note), in
	// case a server ignores max_tokens; 0: DefaultMaxTurnTokens.
	MaxTurnTokens int
	// Prices price each model's tokens where the provider reports no
	// cost (a persona file's [prices]); see PriceTable.
	Prices PriceTable
	// MaxCost and MaxTokensTotal are budgets (0: none): once the debate's
	// total reaches one after a turn, no more turns are spoken and the
	// moderator gives a verdict on what was said (a budget event).
	MaxCost        float64
	MaxTokensTotal int
	// Provider and Model name what the words come from (the provider,
	// and its model when one is named), recorded in the debate's room for
	// every reader; Prepare sets them from the provider it resolves.
	Provider, Model string
}

// Normalize checks c and fills its defaults. Errors wrap ErrBadConfig or
// ErrBadPersona.
func (c Config) Normalize() (Config, error) {
	c.Topic = strings.TrimSpace(c.Topic)
	switch {
	case c.Topic == "":
		return c, fmt.Errorf("%w: %w", ErrBadConfig, &TopicError{
			Empty:  true,
			Reason: fmt.Sprintf("the debate needs a topic, like --topic %q", "Should we adopt GraphQL"),
		})
	case utf8.RuneCountInString(c.Topic) > MaxTopicLen:
		return c, fmt.Errorf("%w: %w", ErrBadConfig, &TopicError{
			Reason: fmt.Sprintf("the topic is longer than %d characters; state the decision in a sentence or two", MaxTopicLen),
		})
	case !utf8.ValidString(c.Topic):
		return c, fmt.Errorf("%w: %w", ErrBadConfig, &TopicError{Reason: "the topic is not valid UTF-8"})
	}
	if c.Rounds == 0 {
		c.Rounds = DefaultRounds
	}
	if c.Rounds < MinRounds || c.Rounds > MaxRounds {
		return c, fmt.Errorf("%w: rounds must be a number from %d to %d, not %d", ErrBadConfig, MinRounds, MaxRounds, c.Rounds)
	}
	ps, err := ValidatePersonas(c.Personas)
	if err != nil {
		return c, err
	}
	c.Personas = ps
	if c.Stances {
		c.Personas = AssignStances(c.Personas)
	}
	if c.Moderator.Persona == "" {
		m := DefaultModerator()
		if c.Moderator.Model != "" {
			m.Model = c.Moderator.Model
		}
		c.Moderator = m
	}
	if strings.TrimSpace(c.Moderator.Name) == "" {
		c.Moderator.Name = DefaultModerator().Name
	}
	if c.TurnTimeout == 0 {
		c.TurnTimeout = DefaultTurnTimeout
	}
	if c.TurnTimeout < 0 {
		return c, fmt.Errorf("%w: turn timeout %s; give a positive duration like 2m", ErrBadConfig, c.TurnTimeout)
	}
	if c.MaxTurnTokens == 0 {
		c.MaxTurnTokens = DefaultMaxTurnTokens
	}
	if c.MaxTurnTokens < 0 {
		return c, fmt.Errorf("%w: max turn tokens %d; give a positive number", ErrBadConfig, c.MaxTurnTokens)
	}
	if err := c.checkBudget(); err != nil {
		return c, err
	}
	return c, nil
}

// Names lists the personas' names in speaking order.
func (c Config) Names() []string {
	out := make([]string, len(c.Personas))
	for i, p := range c.Personas {
		out[i] = p.Name
	}
	return out
}

// TurnTokenCap is the most tokens a turn may stream when each request asks
// for maxTokens: twice that, and never below a quarter of
// DefaultMaxTurnTokens. It stops a server that ignores max_tokens from
// streaming forever, without cutting one that counts tokens differently.
func TurnTokenCap(maxTokens int) int {
	return max(2*maxTokens, DefaultMaxTurnTokens/4)
}

// stanceCycle is the order --stances hands stances out in.
var stanceCycle = [...]string{StanceFor, StanceAgainst, StanceNeutral}

// AssignStances gives each persona without a stance the next of for,
// against and neutral, counting every persona in speaking order (the
// first for, the second against, the third neutral, the fourth for...),
// so a persona with a stance of its own keeps it and the others' do not
// move. ps is not changed.
func AssignStances(ps []Persona) []Persona {
	out := slices.Clone(ps)
	for i := range out {
		if out[i].Stance == "" {
			out[i].Stance = stanceCycle[i%len(stanceCycle)]
		}
	}
	return out
}
