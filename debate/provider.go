package debate

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Provider streams a language model's reply. It is the only seam between a
// debate and a model: the engine never knows which provider runs.
type Provider interface {
	// Name is the provider's name: mock, openrouter, openai or ollama.
	Name() string
	// Model is the model used when a request names none.
	Model() string
	// Stream sends req and calls onDelta with each piece of the reply as it
	// arrives, in order. An empty delta is a keep-alive: the stream is alive
	// but said nothing (a role chunk, a reasoning chunk). When onDelta
	// returns an error, Stream stops and returns that error. Stream returns
	// the usage the provider reported (zero when it reported none) and an
	// error when the reply did not finish normally; the deltas already
	// delivered stand either way.
	Stream(ctx context.Context, req Request, onDelta func(delta string) error) (Usage, error)
}

// Roles of a chat message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    string
	Content string
}

// Request is what the engine asks a provider for: the chat messages for a
// model, an optional model override, and what the engine knows about the
// turn (the mock writes from Info; model providers ignore it).
type Request struct {
	Messages []Message
	Model    string // empty: the provider's model
	Info     TurnInfo
	// OnRetry, when not nil, is told each time the provider is about to
	// make the request again after a failure before any reply, before it
	// waits; the engine turns it into a retry event. It is called on the
	// goroutine running Stream.
	OnRetry func(Retry)
	// OnActivity, when not nil, is told what an agent does besides
	// speaking (reading a file, a plan, a refused permission); the engine
	// turns it into an activity event, never into the turn's text. It is
	// called on the goroutine running Stream. Model providers ignore it.
	OnActivity func(Activity)
}

// Activity is one thing an agent did during its turn, as one line.
type Activity struct {
	// Kind is ActivityTool (a tool call: "reading room/store.go"),
	// ActivityPlan, ActivityRefused (a permission refused: "refused: edit
	// main.go"), ActivityFailed (a tool call that failed: "failed: touch x
	// (Read-only file system)") or ActivityNote.
	Kind string `json:"kind"`
	Text string `json:"text"` // one line, no newline
}

// Kinds of Activity.
const (
	ActivityTool    = "tool"
	ActivityPlan    = "plan"
	ActivityRefused = "refused"
	ActivityFailed  = "failed"
	ActivityNote    = "note"
)

// Retry describes a request a provider is about to make again.
type Retry struct {
	Attempt  int           // the attempt about to be made: 2 for the first retry
	Attempts int           // the most attempts that will be made, the first included
	Status   int           // the HTTP status that failed the last attempt; 0: the connection dropped
	Wait     time.Duration // the pause before the attempt
}

// Reason is what failed the last attempt, as a retry event words it:
// "HTTP 429" or "a dropped connection".
func (r Retry) Reason() string {
	if r.Status == 0 {
		return "a dropped connection"
	}
	return fmt.Sprintf("HTTP %d", r.Status)
}

// Purpose says what a request is for.
type Purpose string

// Purposes of a request.
const (
	PurposeTurn      Purpose = "turn"      // a persona's turn
	PurposeVerdict   Purpose = "verdict"   // the moderator's verdict
	PurposeConsensus Purpose = "consensus" // the moderator's check after a round
	PurposeRank      Purpose = "rank"      // a persona's ranking of the others' final turns (Config.Rank)
)

// TurnInfo describes a request in the engine's terms.
type TurnInfo struct {
	Purpose    Purpose
	Topic      string
	Speaker    Persona   // the persona speaking, or the moderator
	Personas   []Persona // the panel, in speaking order
	Round      int       // the round being spoken (the last round held, for the moderator)
	Rounds     int       // rounds planned
	Seed       int64
	Blind      bool   // a blind opening turn: the speaker sees no one
	Transcript []Turn // every turn the speaker can see, in order
	// Ranked is what a ranking request (PurposeRank) asks the speaker to
	// rank: the others' final turns in the order shown, the first as
	// "Response A". A provider must not tell the model their Agent.
	Ranked []Turn
	// Rankings are the panel's rankings, for the moderator's verdict
	// (Config.Rank); nil when the debate does not rank.
	Rankings []Ranking
	// Instruction, when set, is what the request asks for now (it also
	// ends the last message): a provider that keeps a session, like a
	// coding agent, sends it with only the turns since its last request.
	Instruction string
}

// Turn is one finished (or cut) turn of a debate.
type Turn struct {
	Round      int
	Agent      string
	Model      string
	Text       string
	Incomplete bool
	Truncated  bool
	// Note marks the user's note (Agent is NoteFrom): not a persona's
	// turn, the words of the person the debate serves.
	Note bool
	// Kind is an MCP room's message kind (decision, objection,
	// concession…); empty for a persona's turn.
	Kind string
}

// ModelLabel is the model label shown and saved for persona's turns: the
// persona's own model when set and the provider honors it, else the
// provider's model.
func ModelLabel(p Provider, persona Persona) string {
	if r, ok := p.(personaRouter); ok {
		p = r.providerFor(persona)
	}
	if persona.Model != "" {
		if _, fixed := p.(interface{ fixedModel() }); !fixed {
			return persona.Model
		}
	}
	return p.Model()
}

// personaRouter is a provider that speaks for each persona through another
// provider (the model's, or the persona's agent): see Start.
type personaRouter interface {
	providerFor(persona Persona) Provider
}

// providerName names the provider that speaks for persona, for errors.
func providerName(p Provider, persona Persona) string {
	if r, ok := p.(personaRouter); ok {
		p = r.providerFor(persona)
	}
	return p.Name()
}

// ProviderLabel is how a provider and its model are named to a reader:
// "openrouter · openai/gpt-4o-mini", or the one of them that says it all
// ("mock", "ollama" with no model named).
func ProviderLabel(name, model string) string {
	switch {
	case name == "":
		return model
	case model == "" || strings.EqualFold(model, name):
		return name
	}
	return name + " · " + model
}

// Provider names.
const (
	ProviderMock       = "mock"
	ProviderOpenRouter = "openrouter"
	ProviderOpenAI     = "openai"
	ProviderOllama     = "ollama"
)

// Provider defaults.
const (
	DefaultMaxTokens       = 1024
	DefaultOpenRouterURL   = "https://openrouter.ai/api/v1"
	DefaultOpenAIURL       = "https://api.openai.com/v1"
	DefaultOllamaURL       = "http://localhost:11434/v1"
	DefaultOpenRouterModel = "openai/gpt-4o-mini"
	DefaultOpenAIModel     = "gpt-4o-mini"
	DefaultOllamaModel     = "llama3.2"
	// DefaultPace is the mock's lively pause between tokens, for screens.
	DefaultPace = 25 * time.Millisecond
)

// ProviderConfig selects and configures a provider. ResolveProvider fills
// it from flags and the environment; NewProvider builds the provider.
type ProviderConfig struct {
	Name      string        // mock | openrouter | openai | ollama; empty: ROUNDTABLE_PROVIDER, else mock
	Model     string        // empty: ROUNDTABLE_MODEL, else the provider's default
	BaseURL   string        // empty: ROUNDTABLE_BASE_URL, else the provider's default
	APIKey    string        // empty: the provider's key variable
	MaxTokens int           // max_tokens sent with every request; 0: DefaultMaxTokens
	Pace      time.Duration // the mock's pause between tokens; 0: none (DefaultPace is lively)

	// KeyEnv names the variable the key comes from (set by ResolveProvider).
	KeyEnv string
}

// Providers lists the provider names, the default first.
func Providers() []string {
	return []string{ProviderMock, ProviderOpenRouter, ProviderOpenAI, ProviderOllama}
}

// ResolveProvider completes flags (the values given on the command line or
// in a form; empty fields are unset) from the environment through getenv
// (os.Getenv in production): a flag wins over its variable. It refuses an
// unknown provider, a malformed base URL and a missing key (ErrMissingKey,
// one sentence naming the variable), so nothing starts with a bad setup.
// A base URL set by --base-url, ROUNDTABLE_BASE_URL or OPENAI_BASE_URL
// points at another server, and then no key is required; with no provider
// named, --base-url or ROUNDTABLE_BASE_URL means an OpenAI-compatible
// server (openai).
func ResolveProvider(flags ProviderConfig, getenv func(string) string) (ProviderConfig, error) {
	c := flags
	pick := func(v, env string) string {
		if v != "" {
			return v
		}
		return strings.TrimSpace(getenv(env))
	}
	c.Name = strings.ToLower(strings.TrimSpace(pick(c.Name, "ROUNDTABLE_PROVIDER")))
	if c.Name == "" {
		c.Name = ProviderMock
		if pick(strings.TrimSpace(c.BaseURL), "ROUNDTABLE_BASE_URL") != "" {
			// A server named with no provider: an OpenAI-compatible one
			// (llama.cpp, vLLM, LM Studio), not the mock, which would
			// answer in its place without a word.
			c.Name = ProviderOpenAI
		}
	}
	c.Model = pick(strings.TrimSpace(c.Model), "ROUNDTABLE_MODEL")
	urlFrom := "--base-url"
	if strings.TrimSpace(c.BaseURL) == "" {
		urlFrom = "ROUNDTABLE_BASE_URL"
	}
	c.BaseURL = pick(strings.TrimSpace(c.BaseURL), "ROUNDTABLE_BASE_URL")
	custom := c.BaseURL != ""
	// A URL given is checked even where it is not used (the mock), so a
	// typo never waits for the day another provider is picked.
	if custom {
		if err := checkBaseURL(urlFrom, c.BaseURL); err != nil {
			return c, err
		}
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	if c.MaxTokens < 0 {
		return c, fmt.Errorf("%w: max tokens %d; give a positive number", ErrBadProvider, c.MaxTokens)
	}
	if c.Pace < 0 {
		c.Pace = 0
	}
	switch c.Name {
	case ProviderMock:
		c.Model, c.BaseURL, c.APIKey, c.KeyEnv = ProviderMock, "", "", ""
		return c, nil
	case ProviderOpenRouter:
		c.KeyEnv = "OPENROUTER_API_KEY"
		if c.Model == "" {
			c.Model = pick("", "OPENROUTER_MODEL")
		}
		c.Model = orDefault(c.Model, DefaultOpenRouterModel)
		c.BaseURL = orDefault(c.BaseURL, DefaultOpenRouterURL)
	case ProviderOpenAI:
		c.KeyEnv = "OPENAI_API_KEY"
		c.Model = orDefault(c.Model, DefaultOpenAIModel)
		if c.BaseURL == "" {
			c.BaseURL = pick("", "OPENAI_BASE_URL")
			custom, urlFrom = c.BaseURL != "", "OPENAI_BASE_URL"
		}
		c.BaseURL = orDefault(c.BaseURL, DefaultOpenAIURL)
	case ProviderOllama:
		c.Model = orDefault(c.Model, DefaultOllamaModel)
		c.BaseURL = orDefault(c.BaseURL, DefaultOllamaURL)
		custom = true // a local server needs no key
	default:
		return c, fmt.Errorf("%w: unknown provider %q; use one of %s", ErrBadProvider, c.Name, strings.Join(Providers(), ", "))
	}
	if err := checkBaseURL(urlFrom, c.BaseURL); err != nil {
		return c, err
	}
	if c.APIKey == "" && c.KeyEnv != "" {
		c.APIKey = strings.TrimSpace(getenv(c.KeyEnv))
	}
	if c.APIKey == "" && !custom {
		return c, fmt.Errorf("%w: set %s to use the %s provider (or point --base-url at a server that needs no key)", ErrMissingKey, c.KeyEnv, c.Name)
	}
	return c, nil
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// checkBaseURL refuses a base URL no request could reach, in a sentence
// naming where it came from (from: "--base-url" or a variable): http or
// https, a host, and after a colon a port from 1 to 65535.
func checkBaseURL(from, s string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: %s %q %s; write it like %s", ErrBadProvider, from, s, why, DefaultOllamaURL)
	}
	if strings.ContainsAny(s, " \t\r\n") {
		return bad("has a space in it")
	}
	u, err := url.Parse(s)
	switch {
	case err != nil && strings.Contains(err.Error(), "invalid port"):
		return bad("has a port that is not a number")
	case err != nil:
		return bad("is not a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return bad("does not start with http:// or https://")
	case u.Opaque != "" || u.Hostname() == "":
		return bad("has no host")
	case u.User != nil:
		return bad("carries a user name or password; give the key in its variable instead")
	case strings.HasSuffix(u.Host, ":"):
		return bad("has a colon after the host but no port")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return bad(fmt.Sprintf("has port %s; a port is a number from 1 to 65535", p))
		}
	}
	return nil
}

// NewProvider builds the provider c names. Pass a config from
// ResolveProvider.
func NewProvider(c ProviderConfig) (Provider, error) {
	switch c.Name {
	case ProviderMock, "":
		return NewMock(c.Pace), nil
	case ProviderOpenRouter, ProviderOpenAI, ProviderOllama:
		return NewOpenAICompatible(c)
	}
	return nil, fmt.Errorf("%w: unknown provider %q; use one of %s", ErrBadProvider, c.Name, strings.Join(Providers(), ", "))
}
