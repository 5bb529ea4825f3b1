package web

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/roundtable-dev/roundtable/prompts"
)

// What a caller of POST /api/sessions may spend: every debate the API
// starts has a token cap (the host's --max-tokens-total, else
// DefaultMaxTokensTotal) and, when the host sets one, a cost cap; a body
// may ask for less, never more. A token starts at most StartsPerMinute
// debates a minute (a bucket of that many, refilled over the minute). A
// persona may name only the host's own model and no coding agent, unless
// the host allows more (--allow-models, --allow-agents): a coding agent
// runs on the host's machine, in its folder. Each refusal is a 4xx with a
// sentence saying what to do; a 429 says when to retry (Retry-After).

// Defaults of Limits.
const (
	// DefaultMaxTokensTotal is the token cap of each debate the API
	// starts on a host that sets none: a debate of the default panel and
	// rounds spends a small part of it, the largest (12 personas, 10
	// rounds) stops at it, with a verdict on what was said.
	DefaultMaxTokensTotal = 200_000
	// DefaultStartsPerMinute is how many debates one token may start a
	// minute.
	DefaultStartsPerMinute = 6
)

// AnyModel in Limits.AllowModels lets a persona name any model.
const AnyModel = "*"

// Limits bound the debates the API starts.
type Limits struct {
	// MaxTokensTotal is each debate's cap of prompt and completion
	// tokens; 0: DefaultMaxTokensTotal.
	MaxTokensTotal int
	// MaxCost is each debate's cap in dollars; 0: none.
	MaxCost float64
	// CostCounted says whether the host's provider counts a cost (only
	// OpenRouter reports one): a cost cap is passed to the debate only
	// then.
	CostCounted bool
	// CostFree says the provider costs nothing (the mock): a cost cap
	// holds without being counted.
	CostFree bool
	// StartsPerMinute is how many debates one token may start a minute;
	// 0: DefaultStartsPerMinute.
	StartsPerMinute int
	// Model is the host's own model (--model, resolved), which a persona
	// may always name.
	Model string
	// AllowModels are the other models a persona may name; AnyModel
	// allows any.
	AllowModels []string
	// AllowAgents are the coding agents (Engine.AgentPresets) a persona
	// may name; none by default.
	AllowAgents []string
}

// withDefaults is l with its zero fields given their defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxTokensTotal <= 0 {
		l.MaxTokensTotal = DefaultMaxTokensTotal
	}
	if l.StartsPerMinute <= 0 {
		l.StartsPerMinute = DefaultStartsPerMinute
	}
	return l
}

// Describe is the limits in a sentence, for the host's start-up output.
func (l Limits) Describe() string {
	l = l.withDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "each debate stops at %d tokens (--max-tokens-total)", l.MaxTokensTotal)
	if l.MaxCost > 0 {
		fmt.Fprintf(&b, " or %s (--max-cost)", prompts.Dollars(l.MaxCost))
	}
	fmt.Fprintf(&b, "; a token starts at most %d a minute (--starts-per-minute); personas may name %s (--allow-models) and %s (--allow-agents)",
		l.StartsPerMinute, l.modelsSaid(), l.agentsSaid())
	return b.String()
}

func (l Limits) modelsSaid() string {
	if l.anyModel() {
		return "any model"
	}
	ms := append([]string{l.Model}, l.AllowModels...)
	if len(ms) > 1 {
		return "the models " + prompts.AndList(ms)
	}
	return "the model " + ms[0]
}

func (l Limits) agentsSaid() string {
	if len(l.AllowAgents) == 0 {
		return "no coding agent"
	}
	if len(l.AllowAgents) > 1 {
		return "the coding agents " + prompts.AndList(l.AllowAgents)
	}
	return "the coding agent " + l.AllowAgents[0]
}

func (l Limits) anyModel() bool { return slices.Contains(l.AllowModels, AnyModel) }

// modelAllowed reports whether a persona may name model ("" is the
// host's own).
func (l Limits) modelAllowed(model string) bool {
	return model == "" || l.anyModel() || strings.EqualFold(model, l.Model) || slices.ContainsFunc(l.AllowModels, func(m string) bool { return strings.EqualFold(m, model) })
}

// agentAllowed reports whether a persona may name the coding agent preset.
func (l Limits) agentAllowed(preset string) bool { return slices.Contains(l.AllowAgents, preset) }

// startLimits are the start buckets of the tokens that start debates,
// bounded (only the host's starter token may start, so one is usual).
type startLimits struct {
	mu      sync.Mutex
	perMin  int
	buckets map[string]*rate.Limiter
}

// maxStartBuckets bounds startLimits: past it, the full buckets (those
// of tokens idle for a minute) are dropped.
const maxStartBuckets = 1024

// take spends one start of key's bucket, or says how long until one is
// there. A start taken and then not made is given back (the func
// returned). The time is read under the lock, so the buckets hear it in
// order: a rate.Limiter told an earlier time than its last credits the
// interval again.
func (s *startLimits) take(key string) (giveBack func(), wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	if s.buckets == nil {
		s.buckets = map[string]*rate.Limiter{}
	}
	b := s.buckets[key]
	if b == nil {
		if len(s.buckets) >= maxStartBuckets {
			for k, v := range s.buckets {
				if v.TokensAt(now) >= float64(s.perMin) {
					delete(s.buckets, k)
				}
			}
		}
		b = rate.NewLimiter(rate.Every(time.Minute/time.Duration(s.perMin)), s.perMin)
		s.buckets[key] = b
	}
	r := b.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return nil, d
	}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		r.CancelAt(time.Now())
	}, 0
}

// retryAfter is a wait as a Retry-After header's whole seconds, at least 1.
func retryAfter(d time.Duration) string {
	return fmt.Sprint(max(1, int(math.Ceil(d.Seconds()))))
}
