//go:build linux

package debate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

// scripted is a provider for one scripted agent playing s, with the pids
// it and its children write, and the record of what it was sent.
type scripted struct {
	p      *AgentProvider
	pidDir string
	record string
	cwd    string
}

func newScripted(t *testing.T, s acpagent.Script, tools AgentTools) *scripted {
	t.Helper()
	bin := acpagent.Build(t)
	sc := &scripted{pidDir: t.TempDir(), cwd: t.TempDir()}
	sc.record = filepath.Join(t.TempDir(), "record.jsonl")
	s.PidDir, s.Record = sc.pidDir, sc.record
	// Scripts name files under the agent's folder as ROOT; the agent
	// puts in its working folder (a copy when it works on one).
	script := acpagent.WriteScript(t, s)
	p, err := NewAgentProvider(AgentSpec{Command: []string{bin}}, AgentOptions{
		Cwd: sc.cwd, Tools: tools, Env: []string{acpagent.EnvScript + "=" + script}, Grace: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	sc.p = p
	t.Cleanup(func() {
		_ = p.Close()
		sc.checkGone(t)
	})
	return sc
}

// checkGone fails the test if any process the agents started is alive:
// agents, and their children in their process groups.
func (sc *scripted) checkGone(t *testing.T) {
	t.Helper()
	agents, _ := acpagent.Pids(sc.pidDir)
	for _, pid := range agents {
		if m := acpagent.GroupMembers(pid); len(m) > 0 {
			t.Errorf("process group %d still has %v", pid, m)
		}
	}
}

// speak runs one turn of speaker through sc's provider and returns its
// text, its activity and the error.
func (sc *scripted) speak(ctx context.Context, speaker string, transcript []Turn) (string, []Activity, error) {
	info := TurnInfo{Purpose: PurposeTurn, Topic: "Adopt GraphQL", Speaker: Persona{Name: speaker, Persona: "x"}, Round: len(transcript)/2 + 1, Rounds: 3, Transcript: transcript}
	var acts []Activity
	req := Request{Messages: turnMessages(info), Info: info, OnActivity: func(a Activity) { acts = append(acts, a) }}
	var b strings.Builder
	_, err := sc.p.Stream(ctx, req, func(d string) error {
		b.WriteString(d)
		return nil
	})
	return b.String(), acts, err
}

func (sc *scripted) prompts(t *testing.T) []string {
	var out []string
	for _, r := range acpagent.Records(t, sc.record) {
		if p, ok := r["prompt"].(string); ok {
			out = append(out, p)
		}
	}
	return out
}

func TestAgentStreamsAndSendsOnlyWhatIsNew(t *testing.T) {
	sc := newScripted(t, acpagent.Script{Turns: []acpagent.Turn{
		{Steps: []acpagent.Step{{Say: "First, I read the store.", ChunkSize: 5}}},
		{Steps: []acpagent.Step{{Say: "Second thoughts."}}},
	}}, 0)
	ctx := context.Background()
	text, _, err := sc.speak(ctx, "Claude", nil)
	if err != nil || text != "First, I read the store." {
		t.Fatalf("turn 1: %q, %v", text, err)
	}
	tr := []Turn{
		{Round: 1, Agent: "Claude", Text: text},
		{Round: 1, Agent: "Gemma", Text: "GEMMA-SAID-THIS"},
	}
	text, _, err = sc.speak(ctx, "Claude", tr)
	if err != nil || text != "Second thoughts." {
		t.Fatalf("turn 2: %q, %v", text, err)
	}
	ps := sc.prompts(t)
	if len(ps) != 2 {
		t.Fatalf("prompts %d, want 2", len(ps))
	}
	if !strings.Contains(ps[0], "Adopt GraphQL") || !strings.Contains(ps[0], "change nothing") {
		t.Errorf("first prompt lacks the debate or the read-only note:\n%s", ps[0])
	}
	if !strings.Contains(ps[1], "GEMMA-SAID-THIS") || strings.Contains(ps[1], "First, I read the store.") || strings.Contains(ps[1], "Adopt GraphQL") {
		t.Errorf("second prompt should hold only the new turn of the others:\n%s", ps[1])
	}
	if agents, _ := acpagent.Pids(sc.pidDir); len(agents) != 1 {
		t.Errorf("one speaker, %d agents started", len(agents))
	}
	var cwd string
	for _, r := range acpagent.Records(t, sc.record) {
		if c, ok := r["cwd"].(string); ok {
			cwd = c
		}
	}
	// A command agent that may only read works on a copy of the folder.
	if want, _ := filepath.Abs(sc.cwd); cwd == want || filepath.Base(cwd) != filepath.Base(want) {
		t.Errorf("session cwd %q, want a copy of %q", cwd, want)
	}
}

func TestAgentActivityAndPermissions(t *testing.T) {
	steps := []acpagent.Step{
		{Tool: &acpagent.Tool{Kind: "read", Path: "ROOT/room/store.go"}},
		{Plan: []string{"read the store", "answer"}},
		{Permission: &acpagent.Tool{Kind: "read", Title: "Read go.mod", Path: "ROOT/go.mod"}},
		{Permission: &acpagent.Tool{Kind: "edit", Path: "ROOT/main.go"}},
		{Permission: &acpagent.Tool{Kind: "execute", Title: "go test ./..."}},
		{Permission: &acpagent.Tool{Kind: "delete", Path: "ROOT/x.go"}},
		{Permission: &acpagent.Tool{Kind: "other", Title: "mcp tool"}},
		{Thought: "hmm"},
		{Say: "Done."},
	}
	for _, tc := range []struct {
		name  string
		tools AgentTools
		want  map[string]string // permission kind → outcome
	}{
		{"read-only", 0, map[string]string{"read": "allow", "edit": "reject", "execute": "reject", "delete": "reject", "other": "reject"}},
		{"write,exec", AllowWrite | AllowExec, map[string]string{"read": "allow", "edit": "allow", "execute": "allow", "delete": "allow", "other": "reject"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScripted(t, acpagent.Script{Turns: []acpagent.Turn{{Steps: steps}}}, tc.tools)
			text, acts, err := sc.speak(context.Background(), "Claude", nil)
			if err != nil || text != "Done." {
				t.Fatalf("turn: %q, %v (activity and refusals must not be text)", text, err)
			}
			got := map[string]string{}
			for _, r := range acpagent.Records(t, sc.record) {
				if k, ok := r["permission"].(string); ok {
					got[k] = r["outcome"].(string)
				}
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("permission %s: %q, want %q", k, got[k], v)
				}
			}
			var lines []string
			for _, a := range acts {
				lines = append(lines, a.Kind+"|"+a.Text)
			}
			joined := strings.Join(lines, "\n")
			for _, want := range []string{"tool|reading room/store.go", "plan|plan 1/2: read the store"} {
				if !strings.Contains(joined, want) {
					t.Errorf("activity lacks %q:\n%s", want, joined)
				}
			}
			refused := []string{"refused|refused: edit main.go", "refused|refused: go test ./...", "refused|refused: delete x.go", "refused|refused: mcp tool"}
			for _, want := range refused {
				has := strings.Contains(joined, want)
				if tc.tools == 0 && !has {
					t.Errorf("activity lacks %q:\n%s", want, joined)
				}
				if tc.tools != 0 && has && !strings.Contains(want, "mcp tool") {
					t.Errorf("opted in, yet %q:\n%s", want, joined)
				}
			}
		})
	}
}

func TestAgentFailures(t *testing.T) {
	for _, tc := range []struct {
		name    string
		script  acpagent.Script
		timeout time.Duration
		text    string // kept partial text
		want    []string
	}{
		{
			"crash mid-turn",
			acpagent.Script{Turns: []acpagent.Turn{{Steps: []acpagent.Step{{Say: "Half a thought"}, {SleepMs: 20}, {Exit: 3}}}}},
			0, "Half a thought",
			[]string{"exited", "exit status 3", "crashing as scripted"},
		},
		{"asks to authenticate", acpagent.Script{AuthRequired: true}, 0, "", []string{"sign in", "log in"}},
		{"unsupported protocol", acpagent.Script{ProtocolVersion: 99}, 0, "", []string{"protocol version 99", "version 1"}},
		{"garbage on stdout", acpagent.Script{Garbage: []string{"Welcome to FancyAgent 3.0!"}}, 0, "", []string{"instead of ACP", "Welcome to FancyAgent 3.0!"}},
		{
			"stall past the timeout",
			acpagent.Script{Turns: []acpagent.Turn{{Steps: []acpagent.Step{{Say: "I will now"}, {Stall: true}}}}},
			500 * time.Millisecond, "I will now",
			[]string{"turn timeout"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScripted(t, tc.script, 0)
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 20 * time.Second
			}
			var wg sync.WaitGroup
			info := TurnInfo{Purpose: PurposeTurn, Topic: "t", Speaker: Persona{Name: "A", Persona: "x"}, Round: 1, Rounds: 1}
			g := startGen(context.Background(), &wg, sc.p, Request{Messages: turnMessages(info), Info: info}, timeout, 1000)
			wg.Wait()
			var text strings.Builder
			ps, _ := g.take(nil)
			for _, pc := range ps {
				text.WriteString(pc.text)
			}
			_, _, err := g.result()
			if err == nil {
				t.Fatalf("no error; text %q", text.String())
			}
			if text.String() != tc.text {
				t.Errorf("partial text %q, want %q", text.String(), tc.text)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if tc.timeout > 0 && !errors.Is(err, ErrTurnTimeout) {
				t.Errorf("error %v is not ErrTurnTimeout", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestAgentCancelKillsGroupEvenIfItIgnoresStdinClose(t *testing.T) {
	sc := newScripted(t, acpagent.Script{
		IgnoreStdinClose: true, IgnoreCancel: true, Children: 2,
		Turns: []acpagent.Turn{{Steps: []acpagent.Step{{Say: "Thinking"}, {Stall: true}}}},
	}, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var got strings.Builder
	var mu sync.Mutex
	go func() {
		info := TurnInfo{Purpose: PurposeTurn, Topic: "t", Speaker: Persona{Name: "A", Persona: "x"}, Round: 1, Rounds: 1}
		_, err := sc.p.Stream(ctx, Request{Messages: turnMessages(info), Info: info}, func(d string) error {
			mu.Lock()
			got.WriteString(d)
			mu.Unlock()
			return nil
		})
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		s := got.String()
		mu.Unlock()
		if s == "Thinking" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no text: %q", s)
		}
		time.Sleep(5 * time.Millisecond)
	}
	agents, children := acpagent.Pids(sc.pidDir)
	if len(agents) != 1 || len(children) != 2 {
		t.Fatalf("agents %v children %v", agents, children)
	}
	if m := acpagent.GroupMembers(agents[0]); len(m) != 3 {
		t.Fatalf("group %d has %v, want the agent and 2 children", agents[0], m)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Stream: %v, want context.Canceled", err)
	}
	// Stream returns once the group is gone.
	if m := acpagent.GroupMembers(agents[0]); len(m) != 0 {
		t.Fatalf("after cancel, group %d still has %v", agents[0], m)
	}
	var cancelled bool
	for _, r := range acpagent.Records(t, sc.record) {
		cancelled = cancelled || r["cancel"] == true
	}
	if !cancelled {
		t.Error("the agent was never sent session/cancel")
	}
}

func TestAgentCloseKillsIdleAgentsThatIgnoreStdinClose(t *testing.T) {
	sc := newScripted(t, acpagent.Script{IgnoreStdinClose: true, Children: 1}, 0)
	for _, who := range []string{"A", "B"} {
		if _, _, err := sc.speak(context.Background(), who, nil); err != nil {
			t.Fatal(err)
		}
	}
	agents, _ := acpagent.Pids(sc.pidDir)
	if len(agents) != 2 || len(sc.p.Pids()) != 2 {
		t.Fatalf("two speakers: agents %v, live %v", agents, sc.p.Pids())
	}
	start := time.Now()
	if err := sc.p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range agents {
		if m := acpagent.GroupMembers(pid); len(m) != 0 {
			t.Errorf("after Close (%s), group %d has %v", time.Since(start), pid, m)
		}
	}
	if _, _, err := sc.speak(context.Background(), "A", nil); !errors.Is(err, ErrProviderClosed) {
		t.Errorf("Stream after Close: %v", err)
	}
}

func TestAgentMissingCommand(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, tc := range []struct{ spec, want string }{
		{"acp:claude", "npm i -g @zed-industries/claude-agent-acp"},
		{"acp:qwen", "npm i -g @qwen-code/qwen-code"},
		{"acp:opencode", "npm i -g opencode-ai"},
		{"acp:codex", "npm i -g @zed-industries/codex-acp"},
		{"acp:gemini", "npm i -g @google/gemini-cli"},
		{"acp:my-agent --x", "my-agent is not on PATH"},
		{"acp:/no/such/agent", "/no/such/agent cannot be run"},
	} {
		spec, err := ParseAgent(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		_, err = NewAgentProvider(spec, AgentOptions{})
		if !errors.Is(err, ErrAgentMissing) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", tc.spec, err, tc.want)
		}
	}
}

func TestScriptedAgentBuilds(t *testing.T) {
	if fi, err := os.Stat(acpagent.Build(t)); err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("built agent: %v", err)
	}
}

// TestAgentTraps: codex-acp's opening warning is a note, not the persona's
// words; a caller that hands over no transcript (a seat) has its request
// sent whole each turn.
func TestAgentTraps(t *testing.T) {
	warn := "Model metadata for `tiny` not found. Defaulting to fallback metadata; this can degrade performance."
	sc := newScripted(t, acpagent.Script{Turns: []acpagent.Turn{{Steps: []acpagent.Step{{Say: warn, ChunkSize: 1000}, {Say: "Real words."}}}}}, 0)
	var acts []Activity
	seat := func(prompt string) string {
		info := TurnInfo{Purpose: PurposeTurn, Speaker: Persona{Name: "peer"}}
		req := Request{
			Messages: []Message{{Role: RoleSystem, Content: "SEAT-RULES"}, {Role: RoleUser, Content: prompt}}, Info: info,
			OnActivity: func(a Activity) { acts = append(acts, a) },
		}
		var b strings.Builder
		if _, err := sc.p.Stream(context.Background(), req, func(d string) error {
			b.WriteString(d)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if got := seat("FIRST-REQUEST"); got != "Real words." {
		t.Fatalf("text %q: the warning must not be the persona's words", got)
	}
	if len(acts) != 2 || acts[0].Text != copyNote || acts[1].Kind != ActivityNote || !strings.HasPrefix(acts[1].Text, "Model metadata for") {
		t.Fatalf("activity %+v", acts)
	}
	seat("SECOND-REQUEST")
	ps := sc.prompts(t)
	if len(ps) != 2 || !strings.Contains(ps[0], "SEAT-RULES") || !strings.Contains(ps[0], "FIRST-REQUEST") ||
		ps[1] != "SECOND-REQUEST" {
		t.Fatalf("prompts %q", ps)
	}
}

// TestAgentReadOnlyMode: an agent offering a read-only session mode (like
// codex-acp, which edits without asking) is switched to it, unless tools
// were allowed.
func TestAgentReadOnlyMode(t *testing.T) {
	for _, tc := range []struct {
		tools AgentTools
		want  string
	}{{0, "read-only"}, {AllowWrite, ""}} {
		sc := newScripted(t, acpagent.Script{Modes: []string{"auto", "read-only", "full-access"}}, tc.tools)
		if _, _, err := sc.speak(context.Background(), "Codex", nil); err != nil {
			t.Fatal(err)
		}
		mode := ""
		for _, r := range acpagent.Records(t, sc.record) {
			if m, ok := r["mode"].(string); ok {
				mode = m
			}
		}
		if mode != tc.want {
			t.Errorf("tools %q: mode set %q, want %q", tc.tools, mode, tc.want)
		}
	}
}

// TestAgentBlindOpeningThroughStart: agents answer a blind opening at once,
// each in its own process, through debate.Start with an agent moderator;
// the stream keeps its invariants and, once it has closed, no agent is left.
func TestAgentBlindOpeningThroughStart(t *testing.T) {
	bin := acpagent.Build(t)
	pidDir := t.TempDir()
	s := acpagent.Script{PidDir: pidDir, Children: 1, IgnoreStdinClose: true, Turns: []acpagent.Turn{
		{Steps: []acpagent.Step{{Tool: &acpagent.Tool{Kind: "search", Title: "grep Store"}}, {SleepMs: 200}, {Say: "**Decision:** opening words."}}},
	}}
	cfg := Config{Topic: "Split the store", Rounds: 2, BlindOpening: true, Personas: []Persona{
		{Name: "A", Persona: "x", Agent: []string{bin}},
		{Name: "B", Persona: "y", Agent: []string{"acp:" + bin}},
		{Name: "M", Persona: "a model"},
	}, Moderator: Persona{Name: "Moderator", Persona: "neutral", Agent: []string{bin}}}
	sess, err := Start(context.Background(), Settings{
		Config: cfg, Cwd: t.TempDir(), AgentGrace: 200 * time.Millisecond,
		AgentEnv: []string{acpagent.EnvScript + "=" + acpagent.WriteScript(t, s)},
	})
	if err != nil {
		t.Fatal(err)
	}
	evs := collect(t, sess.Events())
	checkInvariants(t, evs, sess.Config())
	if last := evs[len(evs)-1]; last.Type != EventDone {
		t.Fatalf("ended with %+v", last)
	}
	models := map[string]string{}
	for _, ev := range evs {
		if ev.Type == EventTurnStart {
			models[ev.Agent] = ev.Model
		}
	}
	if models["A"] != "acp:acpagent" || models["B"] != "acp:acpagent" || models["M"] != ProviderMock {
		t.Errorf("model labels %v", models)
	}
	agents, _ := acpagent.Pids(pidDir)
	if len(agents) != 3 {
		t.Errorf("agents started %v, want A's, B's and the moderator's", agents)
	}
	for _, pid := range agents {
		if m := acpagent.GroupMembers(pid); len(m) != 0 {
			t.Errorf("after the stream closed, group %d has %v", pid, m)
		}
	}
}
