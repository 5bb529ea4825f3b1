package debate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Engine runs one debate. Create it with New, start it with Run.
type Engine struct {
	cfg  Config
	p    Provider
	ctl  *control // the user's notes and pauses (interject.go)
	once sync.Once
	from *Position // where a resumed debate picks up (Plan.launch, for --resume); nil: the start
}

// New checks cfg (filling its defaults, see Config.Normalize) and returns an
// engine that will run it on p. Errors wrap ErrBadConfig, ErrBadPersona or
// ErrBadProvider.
func New(cfg Config, p Provider) (*Engine, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: no provider", ErrBadProvider)
	}
	cfg, err := cfg.Normalize()
	if err != nil {
		return nil, err
	}
	return &Engine{cfg: cfg, p: p, ctl: newControl()}, nil
}

// Config is the engine's settings, defaults filled in.
func (e *Engine) Config() Config { return e.cfg }

// eventBuffer is the channel's buffer: enough to absorb a burst of tokens,
// small enough that a slow consumer slows the engine instead of piling up.
const eventBuffer = 64

// finalGrace is how long the closing events of a cancelled debate wait for a
// consumer that stopped reading, so the engine never hangs on one. A
// variable only so a test can shorten it.
var finalGrace = 5 * time.Second

// Run starts the debate and returns its events. The channel is closed after
// the one final done or error event; read it until then. Cancelling ctx ends
// the debate promptly with error {message: "cancelled"}, after a turn_end
// marked incomplete for the turn that was being spoken. Events are never
// dropped: a slow consumer slows the engine. Run may be called once.
func (e *Engine) Run(ctx context.Context) <-chan Event {
	out := make(chan Event, eventBuffer)
	first := false
	e.once.Do(func() { first = true })
	if !first {
		out <- Event{Type: EventError, Text: "debate: Run was already called; create a new Engine for another debate"}
		close(out)
		return out
	}
	go func() {
		defer close(out)
		gctx, cancel := context.WithCancel(ctx)
		r := &run{cfg: e.cfg, p: e.p, ctl: e.ctl, out: out, ctx: ctx, gctx: gctx, grace: make(chan struct{})}
		r.resumeAt(e.from)
		defer func() {
			cancel()
			r.wg.Wait()
			if r.graceTimer != nil {
				r.graceTimer.Stop()
			}
		}()
		r.finish(r.debate())
	}()
	return out
}

// run is the state of one running debate.
type run struct {
	cfg  Config
	p    Provider
	ctl  *control
	out  chan<- Event
	ctx  context.Context // the caller's: cancelled means "stop"
	gctx context.Context // generations: cancelled when the run ends
	wg   sync.WaitGroup

	transcript []Turn
	total      Usage
	held       int       // rounds finished
	rankings   []Ranking // the peer rankings given (Config.Rank), in speaking order

	from Position // where the debate picks up: the zero Position is its start

	grace      chan struct{} // closed finalGrace after the first final send blocked on a cancelled ctx
	graceTimer *time.Timer
}

// errCancelled ends a run whose context was cancelled.
var errCancelled = errors.New(CancelledMessage)

// send delivers ev, or reports false when the debate was cancelled first.
func (r *run) send(ev Event) bool {
	select {
	case r.out <- ev:
		return true
	case <-r.ctx.Done():
		return false
	}
}

// final delivers a closing event. After a cancellation it waits at most
// finalGrace for a consumer that stopped reading.
func (r *run) final(ev Event) {
	select {
	case r.out <- ev:
		return
	case <-r.ctx.Done():
	}
	if r.graceTimer == nil {
		r.graceTimer = time.AfterFunc(finalGrace, func() { close(r.grace) })
	}
	select {
	case r.out <- ev:
	case <-r.grace:
	}
}

// finish sends the one terminal event.
func (r *run) finish(err error) {
	r.ctl.close() // no note is taken once the end is on its way
	total := r.total
	switch {
	case err == nil:
		r.final(Event{Type: EventDone, Usage: &total})
	case errors.Is(err, errCancelled) || r.ctx.Err() != nil:
		r.final(Event{Type: EventError, Text: CancelledMessage, Usage: &total, Err: context.Cause(r.ctx)})
	default:
		ev := Event{Type: EventError, Text: err.Error(), Usage: &total, Err: err}
		var te *TurnError
		if errors.As(err, &te) {
			ev.Agent, ev.Round, ev.Provider = te.Agent, te.Round, te.Provider
		}
		r.final(ev)
	}
}

// debate runs every round and the verdict.
func (r *run) debate() error {
	if !r.send(Event{Type: EventSessionStart, Topic: r.cfg.Topic, Agents: r.cfg.Names(), Rounds: r.cfg.Rounds, Provider: r.p.Name()}) {
		return errCancelled
	}
	if r.from.Paused {
		// Stopped while paused: it waits where it stopped.
		if err := r.between(r.from.Round - 1); err != nil {
			return err
		}
	}
	first := max(r.from.Round, 1)
	if len(r.from.Rankings) > 0 || r.from.Consensus > 0 {
		// Stopped while ranking, or after the panel agreed: the rounds
		// are over.
		first = r.cfg.Rounds + 1
	}
	for round := first; round <= r.cfg.Rounds; round++ {
		if !r.send(Event{Type: EventRoundStart, Round: round}) {
			return errCancelled
		}
		r.ctl.setRound(round)
		var gens []*gen
		if r.cfg.BlindOpening && round == 1 {
			for i, p := range r.cfg.Personas {
				var g *gen
				if !r.skip(round, i) {
					g = r.startTurn(round, p, true)
				}
				gens = append(gens, g)
			}
		}
		// Turns see r.transcript as it stands when they start; the user's
		// notes join it between turns (interject.go).
		for i, p := range r.cfg.Personas {
			if r.skip(round, i) {
				continue // spoken before the debate was resumed
			}
			if !r.takeNotes(round) {
				return errCancelled
			}
			var g *gen
			if gens != nil {
				g = gens[i]
			} else {
				g = r.startTurn(round, p, false)
			}
			if err := r.turn(round, p, g, gens != nil); err != nil {
				return err
			}
			if r.budgetSpent(round, i) {
				return r.stopForBudget(round, gens, i)
			}
		}
		r.held = round
		var consensus *bool
		if r.cfg.StopOnConsensus && round < r.cfg.Rounds {
			if !r.takeNotes(round) { // the moderator weighs the user's notes too
				return errCancelled
			}
			yes, err := r.checkConsensus()
			if err != nil {
				return err
			}
			consensus = &yes
		}
		if !r.send(Event{Type: EventRoundEnd, Round: round, Consensus: consensus}) {
			return errCancelled
		}
		if err := r.between(round); err != nil {
			return err
		}
		if consensus != nil && *consensus {
			break
		}
	}
	// A debate stopped by a budget went to the verdict from its round
	// (stopForBudget): it is not ranked.
	if err := r.rankAll(); err != nil {
		return err
	}
	return r.verdict()
}

func (r *run) info(purpose Purpose, speaker Persona, round int, blind bool) TurnInfo {
	info := TurnInfo{
		Purpose: purpose, Topic: r.cfg.Topic, Speaker: speaker, Personas: r.cfg.Personas,
		Round: round, Rounds: r.cfg.Rounds, Seed: r.cfg.Seed, Blind: blind,
	}
	if !blind {
		info.Transcript = slices.Clone(r.transcript)
	}
	return info
}

func (r *run) startTurn(round int, p Persona, blind bool) *gen {
	info := r.info(PurposeTurn, p, round, blind)
	req := Request{Messages: turnMessages(info), Model: p.Model, Info: info}
	return startGen(r.gctx, &r.wg, r.p, req, r.cfg.TurnTimeout, r.cfg.MaxTurnTokens)
}

// turn streams one persona's turn: turn_start, its tokens, turn_end. A
// coding agent that fails its turn before saying a word (blank space at
// most: a small model gave it nothing) is asked again, at most emptyRetries times, each
// announced by a retry event, as a seat roundtable plays does.
func (r *run) turn(round int, p Persona, g *gen, blind bool) error {
	defer func() { g.cancel(nil) }()
	model := ModelLabel(r.p, p)
	if !r.send(Event{Type: EventTurnStart, Round: round, Agent: p.Name, Model: model}) {
		return errCancelled
	}
	var text strings.Builder
	var batch []piece
	// streamed counts the token events sent: a turn cut before the
	// provider reports its usage counts at least those, as the screen
	// counting them live does, so a replay's totals match the live ones.
	streamed := 0
	seen := func(u Usage) Usage {
		u.CompletionTokens = max(u.CompletionTokens, streamed)
		return u
	}
	for attempt := 0; ; attempt++ {
		err := r.stream(round, p, g, &text, &batch, &streamed)
		if err != nil {
			return r.cut(round, p, model, text.String(), seen(Usage{}), err)
		}
		usage, truncated, err := g.result()
		var refused *turnRefusedError
		if err != nil && r.ctx.Err() == nil && attempt < emptyRetries && strings.TrimSpace(text.String()) == "" && errors.As(err, &refused) {
			rt := Event{
				Type: EventRetry, Round: round, Agent: p.Name, Attempt: attempt + 2, Attempts: emptyRetries + 1,
				Text: "the agent's failure before a word (" + strings.TrimSuffix(refused.Error(), ".") + ")",
			}
			if !r.send(rt) {
				return r.cut(round, p, model, "", seen(usage), errCancelled)
			}
			r.total.Add(r.cfg.Prices.Apply(model, usage))
			g.cancel(nil)
			g = r.startTurn(round, p, blind)
			continue
		}
		return r.endTurn(round, p, model, text.String(), seen, usage, truncated, err)
	}
}

// stream sends g's tokens, retries and activity as they come, adding the
// text to text, until g is done; errCancelled when the debate was stopped.
func (r *run) stream(round int, p Persona, g *gen, text *strings.Builder, batch *[]piece, streamed *int) error {
	for {
		var done bool
		*batch, done = g.take(*batch)
		for _, pc := range *batch {
			ev := Event{Type: EventToken, Round: round, Agent: p.Name, Text: pc.text}
			switch {
			case pc.retry != nil:
				ev = retryEvent(round, p.Name, *pc.retry)
			case pc.activity != nil:
				ev = activityEvent(round, p.Name, *pc.activity)
			}
			if !r.send(ev) {
				return errCancelled
			}
			if ev.Type == EventToken {
				*streamed++
			}
			text.WriteString(pc.text)
		}
		if done {
			return nil
		}
		select {
		case <-g.ready:
		case <-r.ctx.Done():
			return errCancelled
		}
	}
}

// endTurn ends a turn whose generation is done: turn_end with its text and
// usage, or, when it failed, the cut (turn_end marked incomplete when
// anything was said) and the error that ends the debate.
func (r *run) endTurn(round int, p Persona, model, text string, seen func(Usage) Usage, usage Usage, truncated bool, err error) error {
	usage = r.cfg.Prices.Apply(model, usage)
	if err != nil {
		if r.ctx.Err() != nil {
			err = errCancelled
		} else {
			err = &TurnError{Provider: providerName(r.p, p), Agent: p.Name, Round: round, Err: err}
		}
		return r.cut(round, p, model, text, seen(usage), err)
	}
	if truncated {
		note := fmt.Sprintf("\n\n*[cut off: the reply passed the limit of %d tokens]*", r.cfg.MaxTurnTokens)
		if !r.send(Event{Type: EventToken, Round: round, Agent: p.Name, Text: note}) {
			return r.cut(round, p, model, text, usage, errCancelled)
		}
		text += note
	}
	r.total.Add(usage)
	t := Turn{Round: round, Agent: p.Name, Model: model, Text: text, Truncated: truncated}
	ev := Event{Type: EventTurnEnd, Round: round, Agent: p.Name, Model: model, Text: t.Text, Usage: &usage, Truncated: truncated}
	r.transcript = append(r.transcript, t)
	if !r.send(ev) {
		// Stopped just as the turn ended: the turn is whole, and is
		// delivered as such (as a cut one would be) before the debate ends.
		r.final(ev)
		return errCancelled
	}
	return nil
}

// retryEvent is the retry event of agent's request in round.
func retryEvent(round int, agent string, rt Retry) Event {
	return Event{
		Type: EventRetry, Round: round, Agent: agent, Text: rt.Reason(), Status: rt.Status,
		Attempt: rt.Attempt, Attempts: rt.Attempts, Wait: rt.Wait,
	}
}

// activityEvent is the activity event of agent's turn in round.
func activityEvent(round int, agent string, a Activity) Event {
	return Event{Type: EventActivity, Round: round, Agent: agent, Kind: a.Kind, Text: a.Text}
}

// cut ends a turn that stopped early: what was said is kept in a turn_end
// marked incomplete (when anything was said), then err ends the debate.
func (r *run) cut(round int, p Persona, model, text string, usage Usage, err error) error {
	r.total.Add(usage)
	if text != "" {
		r.final(Event{Type: EventTurnEnd, Round: round, Agent: p.Name, Model: model, Text: text, Usage: &usage, Incomplete: true})
		r.transcript = append(r.transcript, Turn{Round: round, Agent: p.Name, Model: model, Text: text, Incomplete: true})
	}
	return err
}

// silent runs a moderator request and returns the whole reply. Only the
// verdict streams (token events with the moderator's name); a consensus
// check is not shown.
func (r *run) silent(purpose Purpose) (string, Usage, error) {
	m := r.cfg.Moderator
	info := r.info(purpose, m, r.held, false)
	if purpose == PurposeVerdict {
		info.Rankings = slices.Clone(r.rankings)
	}
	msgs := verdictMessages(info)
	if purpose == PurposeConsensus {
		msgs = consensusMessages(info)
	}
	return r.ask(m, Request{Messages: msgs, Model: m.Model, Info: info}, true, purpose == PurposeVerdict)
}

// ask runs one request for p outside any turn (the moderator's, a peer
// ranking) and returns its whole reply and its usage, priced and added to
// the debate's total. With shown, its retries and its agent's activity
// are sent as events in p's name between the turns, and with stream each
// piece of its text as a token event too (the verdict); a ranking shows
// neither, having no turn to show them in. A stop returns errCancelled,
// with what the request had used counted.
func (r *run) ask(p Persona, req Request, shown, stream bool) (string, Usage, error) {
	g := startGen(r.gctx, &r.wg, r.p, req, r.cfg.TurnTimeout, r.cfg.MaxTurnTokens)
	defer g.cancel(nil)
	text, err := r.drain(g, p.Name, shown, stream)
	model := ModelLabel(r.p, p)
	usage, _, gerr := g.result()
	usage = r.cfg.Prices.Apply(model, usage)
	r.total.Add(usage)
	switch {
	case err != nil:
		return "", usage, err
	case gerr != nil && r.ctx.Err() != nil:
		return "", usage, errCancelled
	case gerr != nil:
		return "", usage, &TurnError{Provider: providerName(r.p, p), Agent: p.Name, Round: r.held, Err: gerr}
	}
	return text, usage, nil
}

// drain waits for g's whole reply, sending its retries and activity (when
// shown) and its text as tokens (when stream) in name's name as they come;
// errCancelled when the debate was stopped first.
func (r *run) drain(g *gen, name string, shown, stream bool) (string, error) {
	var text strings.Builder
	var batch []piece
	for {
		var done bool
		batch, done = g.take(batch)
		for _, pc := range batch {
			if pc.retry != nil || pc.activity != nil {
				if !shown {
					continue
				}
				var ev Event
				if pc.retry != nil {
					ev = retryEvent(r.held, name, *pc.retry)
				} else {
					ev = activityEvent(r.held, name, *pc.activity)
				}
				if !r.send(ev) {
					return "", errCancelled
				}
				continue
			}
			if stream && pc.text != "" {
				// The verdict streams as the moderator writes it; the
				// summary then carries it whole.
				if !r.send(Event{Type: EventToken, Round: r.held, Agent: name, Text: pc.text}) {
					return "", errCancelled
				}
			}
			text.WriteString(pc.text)
		}
		if done {
			return text.String(), nil
		}
		select {
		case <-g.ready:
		case <-r.ctx.Done():
			return "", errCancelled
		}
	}
}

// checkConsensus asks the moderator whether the panel agrees after the
// round just held.
func (r *run) checkConsensus() (bool, error) {
	reply, _, err := r.silent(PurposeConsensus)
	if err != nil {
		return false, err
	}
	return ParseConsensus(reply), nil
}

// verdict asks the moderator for the verdict and sends it as the summary.
func (r *run) verdict() error {
	if !r.closeNotes(r.held) {
		return errCancelled
	}
	text, usage, err := r.silent(PurposeVerdict)
	if err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		text = "**Decision:** No verdict: the moderator's reply was empty. Read the debate above and decide, or run it again."
	}
	m := r.cfg.Moderator
	if !r.send(Event{Type: EventSummary, Text: text, Round: r.held, Model: ModelLabel(r.p, m), Usage: &usage}) {
		return errCancelled
	}
	return nil
}
