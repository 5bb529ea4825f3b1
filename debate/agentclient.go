package debate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"
)

// agentClient is roundtable's side of one agent's ACP connection: it
// passes the agent's updates to the turn in progress and answers its
// permission requests by the debate's rules. The SDK calls it from its own
// goroutines; everything it learns goes through the turn's channel, so the
// provider's callbacks run on Stream's goroutine.
type agentClient struct {
	tools AgentTools
	cwd   string

	// read counts the session/update notifications read off the wire,
	// handled those the SDK has handed to SessionUpdate: a permission
	// request waits for the updates sent before it, so what the turn sees
	// keeps the agent's order (the SDK runs requests beside notifications).
	read    atomic.Int64
	handled atomic.Int64
	// refusals counts the permissions refused, so a turn knows whether
	// one was refused while it ran.
	refusals atomic.Int64

	mu    sync.Mutex
	turn  *agentTurn                    // nil between turns: updates are dropped
	calls map[acp.ToolCallId]toolSketch // what each tool call said it was, for permission requests that omit it
}

// toolSketch is what a tool call reported about itself.
type toolSketch struct {
	kind    acp.ToolKind
	title   string
	locs    []acp.ToolCallLocation
	refused bool // roundtable refused it: its failure says nothing more
	ended   bool // its outcome was shown
}

// agentTurn is a turn in progress: updates go into ch until done closes.
type agentTurn struct {
	ch   chan agentUpdate
	done chan struct{}
}

// agentUpdate is one thing the agent said during a turn: a chunk of its
// reply, an activity, or only a sign of life.
type agentUpdate struct {
	text     string
	activity *Activity
}

var _ acp.Client = (*agentClient)(nil)

func newAgentClient(tools AgentTools, cwd string) *agentClient {
	return &agentClient{tools: tools, cwd: cwd, calls: map[acp.ToolCallId]toolSketch{}}
}

func (c *agentClient) begin(t *agentTurn) {
	c.mu.Lock()
	c.turn = t
	c.mu.Unlock()
}

func (c *agentClient) end(t *agentTurn) {
	c.mu.Lock()
	if c.turn == t {
		c.turn = nil
	}
	c.mu.Unlock()
	close(t.done)
}

// deliver hands u to the turn in progress, waiting while the turn's reader
// is busy (so a fast agent is slowed, never dropped), and drops it when no
// turn is listening.
func (c *agentClient) deliver(u agentUpdate) {
	c.mu.Lock()
	t := c.turn
	c.mu.Unlock()
	if t == nil {
		return
	}
	select {
	case t.ch <- u:
	case <-t.done:
	}
}

// SessionUpdate streams the agent's reply and reports its tool calls and
// plans as activity: a tool call when it starts, and again when it ends if
// it failed ("failed: touch x (Read-only file system)") or was a command
// that ran ("ran: go test ./..."); thoughts and other updates are signs of
// life.
func (c *agentClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	defer c.handled.Add(1)
	u := n.Update
	switch {
	case u.AgentMessageChunk != nil:
		if t := u.AgentMessageChunk.Content.Text; t != nil {
			c.deliver(agentUpdate{text: t.Text})
			return nil
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		sk := toolSketch{kind: tc.Kind, title: tc.Title, locs: tc.Locations}
		c.mu.Lock()
		c.calls[tc.ToolCallId] = sk
		c.mu.Unlock()
		c.deliver(agentUpdate{activity: &Activity{Kind: ActivityTool, Text: c.describe(sk, "")}})
		if a := c.outcome(tc.ToolCallId, tc.Status, tc.Content, tc.RawOutput); a != nil {
			c.deliver(agentUpdate{activity: a})
		}
		return nil
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		c.mu.Lock()
		sk, known := c.calls[tu.ToolCallId]
		if tu.Kind != nil {
			sk.kind = *tu.Kind
		}
		if tu.Title != nil && *tu.Title != "" {
			sk.title = *tu.Title
		}
		if len(tu.Locations) > 0 {
			sk.locs = tu.Locations
		}
		c.calls[tu.ToolCallId] = sk
		c.mu.Unlock()
		said := false
		if !known && sk.title != "" {
			c.deliver(agentUpdate{activity: &Activity{Kind: ActivityTool, Text: c.describe(sk, "")}})
			said = true
		}
		if tu.Status != nil {
			if a := c.outcome(tu.ToolCallId, *tu.Status, tu.Content, tu.RawOutput); a != nil {
				c.deliver(agentUpdate{activity: a})
				said = true
			}
		}
		if said {
			return nil
		}
	case u.Plan != nil:
		if text := planLine(u.Plan.Entries); text != "" {
			c.deliver(agentUpdate{activity: &Activity{Kind: ActivityPlan, Text: text}})
			return nil
		}
	}
	c.deliver(agentUpdate{}) // alive
	return nil
}

// RequestPermission allows reads and searches, and what --allow-agent-tools
// opts into; everything else (edits, deletes, moves, commands, fetches,
// anything unknown) is refused by picking the agent's reject option, and
// the refusal is reported as activity.
func (c *agentClient) RequestPermission(_ context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.waitUpdates()
	c.mu.Lock()
	sk := c.calls[p.ToolCall.ToolCallId]
	c.mu.Unlock()
	if p.ToolCall.Kind != nil {
		sk.kind = *p.ToolCall.Kind
	}
	if p.ToolCall.Title != nil && *p.ToolCall.Title != "" {
		sk.title = *p.ToolCall.Title
	}
	if len(p.ToolCall.Locations) > 0 {
		sk.locs = p.ToolCall.Locations
	}
	if c.allowed(sk.kind) {
		if id, ok := pickOption(p.Options, acp.PermissionOptionKindAllowOnce, acp.PermissionOptionKindAllowAlways); ok {
			return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(id)}, nil
		}
	}
	sk.refused = true
	c.refusals.Add(1)
	c.mu.Lock()
	c.calls[p.ToolCall.ToolCallId] = sk
	c.mu.Unlock()
	c.deliver(agentUpdate{activity: &Activity{Kind: ActivityRefused, Text: c.describe(sk, "refused")}})
	if id, ok := pickOption(p.Options, acp.PermissionOptionKindRejectOnce, acp.PermissionOptionKindRejectAlways); ok {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(id)}, nil
	}
	// No reject option offered: cancelling the request refuses it too.
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
}

// waitUpdates waits (briefly, at most orderWait) until every session/update
// read before now has been handled.
func (c *agentClient) waitUpdates() {
	target := c.read.Load()
	for deadline := time.Now().Add(orderWait); c.handled.Load() < target && time.Now().Before(deadline); {
		time.Sleep(100 * time.Microsecond)
	}
}

// orderWait bounds waitUpdates: an update the SDK refused as invalid is
// never handled.
const orderWait = 200 * time.Millisecond

// allowed reports whether a tool of kind may run without asking anyone:
// reading, searching and thinking always; the rest only when opted in.
func (c *agentClient) allowed(kind acp.ToolKind) bool {
	switch kind {
	case acp.ToolKindRead, acp.ToolKindSearch, acp.ToolKindThink:
		return true
	case acp.ToolKindEdit, acp.ToolKindDelete, acp.ToolKindMove:
		return c.tools&AllowWrite != 0
	case acp.ToolKindExecute:
		return c.tools&AllowExec != 0
	default: // fetch, switch_mode, other, anything new: refused
		return false
	}
}

// pickOption finds the first option of the first kind in kinds.
func pickOption(opts []acp.PermissionOption, kinds ...acp.PermissionOptionKind) (acp.PermissionOptionId, bool) {
	for _, k := range kinds {
		for _, o := range opts {
			if o.Kind == k {
				return o.OptionId, true
			}
		}
	}
	return "", false
}

// errNotOffered answers client methods roundtable does not advertise.
var errNotOffered = errors.New("roundtable does not offer this client capability; use your own tools")

// ReadTextFile is not offered (no fs capability is advertised).
func (c *agentClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errNotOffered
}

// WriteTextFile is not offered (no fs capability is advertised).
func (c *agentClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	c.deliver(agentUpdate{activity: &Activity{Kind: ActivityRefused, Text: "refused: write a file through roundtable"}})
	return acp.WriteTextFileResponse{}, errNotOffered
}

// CreateTerminal is not offered (no terminal capability is advertised).
func (c *agentClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	c.deliver(agentUpdate{activity: &Activity{Kind: ActivityRefused, Text: "refused: open a terminal through roundtable"}})
	return acp.CreateTerminalResponse{}, errNotOffered
}

// KillTerminal is not offered.
func (c *agentClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNotOffered
}

// TerminalOutput is not offered.
func (c *agentClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNotOffered
}

// ReleaseTerminal is not offered.
func (c *agentClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNotOffered
}

// WaitForTerminalExit is not offered.
func (c *agentClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNotOffered
}

// toolVerbs word each kind of tool call, as under way and as refused.
var toolVerbs = map[acp.ToolKind]struct{ doing, do string }{
	acp.ToolKindRead:    {"reading", "read"},
	acp.ToolKindSearch:  {"searching", "search"},
	acp.ToolKindEdit:    {"editing", "edit"},
	acp.ToolKindDelete:  {"deleting", "delete"},
	acp.ToolKindMove:    {"moving", "move"},
	acp.ToolKindExecute: {"running", "run"},
	acp.ToolKindFetch:   {"fetching", "fetch"},
	acp.ToolKindThink:   {"thinking", "think"},
}

// describe words a tool call as one line: "reading room/store.go" while
// under way (verdict ""), or with a verdict ("refused", "failed", "ran")
// "refused: edit main.go".
func (c *agentClient) describe(sk toolSketch, verdict string) string {
	// A kind not listed: the tool's own title says what it is.
	v := toolVerbs[sk.kind]
	doing, do := v.doing, v.do
	target := ""
	if len(sk.locs) > 0 && sk.locs[0].Path != "" {
		target = c.rel(sk.locs[0].Path)
	}
	var s string
	switch {
	case verdict != "" && do != "" && target != "":
		s = verdict + ": " + do + " " + target
	case verdict != "" && sk.title != "":
		s = verdict + ": " + sk.title
	case verdict != "" && do != "":
		s = verdict + ": " + do
	case verdict != "":
		s = verdict + ": a tool the agent did not name"
	case doing != "" && target != "":
		s = doing + " " + target
	case sk.title != "":
		s = sk.title
	case doing != "":
		s = doing
	default:
		s = "using a tool"
	}
	return clipLine(s, maxActivityRunes)
}

// outcome is the line saying how tool call id ended, once: a failure
// ("failed: touch x (touch: cannot touch 'x': Read-only file system)"),
// unless roundtable refused it and said so already, or a command that ran
// ("ran: go test ./..."). Other ends, and calls still under way, are nil.
func (c *agentClient) outcome(id acp.ToolCallId, status acp.ToolCallStatus, content []acp.ToolCallContent, raw any) *Activity {
	c.mu.Lock()
	sk := c.calls[id]
	failed := status == acp.ToolCallStatusFailed
	ran := status == acp.ToolCallStatusCompleted && sk.kind == acp.ToolKindExecute
	if sk.ended || (!failed && !ran) || (failed && sk.refused) {
		c.mu.Unlock()
		return nil
	}
	sk.ended = true
	c.calls[id] = sk
	c.mu.Unlock()
	if ran {
		return &Activity{Kind: ActivityTool, Text: c.describe(sk, "ran")}
	}
	text := c.describe(sk, "failed")
	if why := failReason(content, raw); why != "" {
		text = clipLine(text+" ("+why+")", maxActivityRunes)
	}
	return &Activity{Kind: ActivityFailed, Text: text}
}

// failReason is a short reason for a failed tool call: the last line of
// its text output (an error message, usually), else what its raw output
// says (stderr, an exit code), else "".
func failReason(content []acp.ToolCallContent, raw any) string {
	var text strings.Builder
	for _, cc := range content {
		if cc.Content != nil && cc.Content.Content.Text != nil {
			text.WriteString(cc.Content.Content.Text.Text)
			text.WriteByte('\n')
		}
	}
	if why := lastLine(text.String()); why != "" {
		return why
	}
	switch r := raw.(type) {
	case string:
		return lastLine(r)
	case map[string]any:
		for _, k := range []string{"stderr", "error", "output"} {
			if s, ok := r[k].(string); ok {
				if why := lastLine(s); why != "" {
					return why
				}
			}
		}
		for _, k := range []string{"exit_code", "exitCode"} {
			if n, ok := r[k].(float64); ok && n != 0 {
				return fmt.Sprintf("exit code %d", int(n))
			}
		}
	}
	return ""
}

// lastLine is the last line of s with words in it, skipping Markdown code
// fences, clipped to maxReasonRunes.
func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		return clipLine(l, maxReasonRunes)
	}
	return ""
}

// maxReasonRunes bounds the reason a failure line gives.
const maxReasonRunes = 72

// rel is path relative to the session's folder when it is inside it.
func (c *agentClient) rel(path string) string {
	if c.cwd != "" && filepath.IsAbs(path) {
		if r, err := filepath.Rel(c.cwd, path); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.ToSlash(r)
		}
	}
	return path
}

// planLine words a plan as one line: the entry in progress (or the first
// one not done) and how far along the plan is.
func planLine(entries []acp.PlanEntry) string {
	if len(entries) == 0 {
		return ""
	}
	at := -1
	for i, e := range entries {
		if e.Status == acp.PlanEntryStatusInProgress {
			at = i
			break
		}
	}
	if at < 0 {
		for i, e := range entries {
			if e.Status != acp.PlanEntryStatusCompleted {
				at = i
				break
			}
		}
	}
	if at < 0 {
		return clipLine(fmt.Sprintf("plan done (%d steps)", len(entries)), maxActivityRunes)
	}
	return clipLine(fmt.Sprintf("plan %d/%d: %s", at+1, len(entries), entries[at].Content), maxActivityRunes)
}

// maxActivityRunes bounds an activity line.
const maxActivityRunes = 120

// clipLine makes s one line of at most n runes.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
