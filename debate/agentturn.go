package debate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// turnUpdates is how many updates may wait between the SDK and the turn's
// reader before the agent is slowed down.
const turnUpdates = 64

// lateQuiet is how long a turn whose agent disconnected keeps reading
// updates that were received before the disconnect: the SDK answers the
// prompt as failed at once, while its notifications may still be on their
// way.
const lateQuiet = 50 * time.Millisecond

type promptResult struct {
	resp acp.PromptResponse
	err  error
}

// turn sends the speaker what it has not seen and streams its reply: text
// to onDelta, tool calls, plans and refusals to req.OnActivity, both on
// this goroutine. Thoughts and tool progress are keep-alives (empty
// deltas). When ctx is done the agent is sent session/cancel and the
// caller stops it. An agent that stops its turn right after roundtable
// refused it something is told so and asked to go on (maxRefusalAsks
// times at most).
func (a *agentProc) turn(ctx context.Context, req Request, onDelta func(string) error) (Usage, error) {
	text := a.promptFor(req)
	if req.OnActivity != nil {
		for _, n := range a.notes {
			req.OnActivity(Activity{Kind: ActivityNote, Text: clipLine(n, maxActivityRunes)})
		}
		a.notes = nil
	}
	t := &agentTurn{ch: make(chan agentUpdate, turnUpdates), done: make(chan struct{})}
	a.client.begin(t)
	defer a.client.end(t)
	a.inTurn.Store(true)
	defer a.inTurn.Store(false)

	spoke := false
	handle := func(u agentUpdate) error {
		switch {
		case u.activity != nil:
			if req.OnActivity != nil {
				req.OnActivity(*u.activity)
			}
			return onDelta("") // a working agent is alive
		case u.text != "" && !spoke && isAgentWarning(u.text):
			// codex-acp opens some turns with a warning about its model's
			// metadata: a note, not the persona's words.
			if req.OnActivity != nil {
				req.OnActivity(Activity{Kind: ActivityNote, Text: clipLine(u.text, maxActivityRunes)})
			}
			return onDelta("")
		case u.text != "":
			spoke = true
		}
		return onDelta(u.text)
	}
	var total Usage
	for asked := 0; ; asked++ {
		refused := a.client.refusals.Load()
		r, err := a.prompt(ctx, t, text, handle)
		if err != nil {
			return Usage{}, err
		}
		u, err := a.finish(r)
		total.Add(u)
		// An agent whose only way to take a refusal is to stop its turn
		// (codex-acp's one reject option is "abort") is told what was
		// refused and asked to go on, a few times.
		if err != nil && r.err == nil && r.resp.StopReason == acp.StopReasonCancelled &&
			a.client.refusals.Load() > refused && asked < maxRefusalAsks {
			text = refusedPrompt(a.client.tools)
			continue
		}
		return total, err
	}
}

// maxRefusalAsks bounds how many times one turn is asked to go on after
// the agent stopped on a refusal.
const maxRefusalAsks = 3

// refusedPrompt asks an agent that stopped its turn on a refusal to go on
// within what it may do.
func refusedPrompt(tools AgentTools) string {
	may := "read and search"
	switch {
	case tools&AllowWrite != 0 && tools&AllowExec == 0:
		may = "read, search and edit files, but not run commands"
	case tools&AllowExec != 0 && tools&AllowWrite == 0:
		may = "read, search and run commands, but not edit files"
	}
	return "Roundtable refused that: in this debate you may only " + may + ". Do not try it again; give your answer now."
}

// prompt sends text as one prompt of turn t and hands its updates to
// handle until the agent answers; it returns the answer, or why the turn
// ended without one (ctx done, handle failing).
func (a *agentProc) prompt(ctx context.Context, t *agentTurn, text string, handle func(agentUpdate) error) (promptResult, error) {
	// The prompt's own context is not ctx: on cancel the stop sends
	// session/cancel itself, then kills the agent after the grace period.
	pctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := make(chan promptResult, 1)
	go func() {
		r, err := a.conn.Prompt(pctx, acp.PromptRequest{SessionId: a.session, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
		res <- promptResult{r, err}
	}()
	for {
		select {
		case u := <-t.ch:
			if err := handle(u); err != nil {
				return promptResult{}, err
			}
		case r := <-res:
			if err := a.drain(t, r.err != nil, handle); err != nil {
				return promptResult{}, err
			}
			return r, nil
		case <-ctx.Done():
			return promptResult{}, context.Cause(ctx)
		case <-a.died:
			// The agent died. Its last updates and the failed prompt are
			// on their way; the prompt's answer says how it ended.
			select {
			case r := <-res:
				if err := a.drain(t, true, handle); err != nil {
					return promptResult{}, err
				}
				return r, nil
			case <-ctx.Done():
				return promptResult{}, context.Cause(ctx)
			}
		}
	}
}

// drain hands the turn every update already received. After a failure it
// also waits for stragglers until none comes for lateQuiet.
func (a *agentProc) drain(t *agentTurn, failed bool, handle func(agentUpdate) error) error {
	for {
		select {
		case u := <-t.ch:
			if err := handle(u); err != nil {
				return err
			}
			continue
		default:
		}
		if !failed {
			return nil
		}
		select {
		case u := <-t.ch:
			if err := handle(u); err != nil {
				return err
			}
		case <-time.After(lateQuiet):
			return nil
		}
	}
}

// finish reads the prompt's answer: its usage, or why the turn failed.
func (a *agentProc) finish(r promptResult) (Usage, error) {
	if r.err != nil {
		var re *acp.RequestError
		switch {
		case a.isDead():
			return Usage{}, a.exitError("its turn")
		case errors.As(r.err, &re) && re.Code == authRequiredCode:
			return Usage{}, a.authError(re)
		}
		return Usage{}, &turnRefusedError{msg: fmt.Sprintf("the agent %s failed its turn: %s", a.label, rpcMessage(r.err))}
	}
	var u Usage
	if r.resp.Usage != nil {
		u = Usage{PromptTokens: r.resp.Usage.InputTokens, CompletionTokens: r.resp.Usage.OutputTokens}
	}
	switch r.resp.StopReason {
	case acp.StopReasonRefusal:
		return u, fmt.Errorf("the agent %s refused to answer (stop reason: refusal)", a.label)
	case acp.StopReasonCancelled:
		return u, fmt.Errorf("the agent %s cancelled its turn by itself", a.label)
	default: // end_turn; max_tokens and max_turn_requests end a turn too (agents.md: cut-off replies end "end_turn" as well)
	}
	return u, nil
}

// isAgentWarning reports whether a chunk that opens a turn is an agent's
// own warning rather than the persona's words.
func isAgentWarning(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "Model metadata for") || strings.HasPrefix(t, "⚠")
}

// turnRefusedError is an agent that answered its prompt with an error (its
// model's stream ended empty, say) while it still runs: asking again may
// work, unlike an agent that died or wants a sign-in.
type turnRefusedError struct{ msg string }

func (e *turnRefusedError) Error() string { return e.msg }
