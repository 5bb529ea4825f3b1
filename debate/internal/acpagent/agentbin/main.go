// Command agentbin is the scripted ACP agent of package acpagent: it reads
// the script named by ACPAGENT_SCRIPT and plays it over stdio with
// acp-go-sdk's agent side.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

func main() {
	switch os.Getenv("ACPAGENT_CHILD") {
	case "":
	case "session":
		sessionChild()
		return
	default:
		child()
		return
	}
	var s acpagent.Script
	if p := os.Getenv(acpagent.EnvScript); p != "" {
		data, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "acpagent:", err)
			os.Exit(1)
		}
		if err := json.Unmarshal(data, &s); err != nil {
			fmt.Fprintln(os.Stderr, "acpagent: script:", err)
			os.Exit(1)
		}
	}
	if s.IgnoreStdinClose {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	}
	mark(s.PidDir, "agent", os.Getpid())
	for range s.Children {
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "ACPAGENT_CHILD=1")
		if err := c.Start(); err == nil {
			mark(s.PidDir, "child", c.Process.Pid)
		}
	}
	for range s.SessionChildren {
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "ACPAGENT_CHILD=session", "ACPAGENT_PIDDIR="+s.PidDir)
		newSession(c)
		if err := c.Start(); err == nil {
			mark(s.PidDir, "session", c.Process.Pid)
		}
	}
	for _, g := range s.Garbage {
		fmt.Fprintln(os.Stdout, g)
	}
	fmt.Fprintln(os.Stderr, "acpagent: ready")
	a := &agent{s: s, cancels: map[acp.SessionId]context.CancelFunc{}}
	out := &lockedStdout{}
	a.out = out
	conn := acp.NewAgentSideConnection(a, out, os.Stdin)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	a.conn = conn
	<-conn.Done()
	fmt.Fprintln(os.Stderr, "acpagent: stdin closed")
	if s.IgnoreStdinClose {
		forever()
	}
}

// forever blocks (a bare select{} would be Go's deadlock error once no
// other goroutine runs).
func forever() {
	for {
		time.Sleep(time.Hour)
	}
}

// child sleeps, like an MCP server an agent started, ignoring polite
// signals.
func child() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	time.Sleep(time.Hour)
}

// sessionChild is a child in a session of its own: it starts a grandchild
// with an empty environment, then sleeps like child.
func sessionChild() {
	c := exec.Command(os.Args[0])
	c.Env = []string{"ACPAGENT_CHILD=1"}
	if err := c.Start(); err == nil {
		mark(os.Getenv("ACPAGENT_PIDDIR"), "bare", c.Process.Pid)
	}
	child()
}

func mark(dir, kind string, pid int) {
	if dir == "" {
		return
	}
	_ = os.WriteFile(filepath.Join(dir, kind+"-"+strconv.Itoa(pid)), nil, 0o600)
}

// lockedStdout lets garbage lines and the SDK's messages share stdout
// without interleaving.
type lockedStdout struct{ mu sync.Mutex }

func (l *lockedStdout) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return os.Stdout.Write(p)
}

type agent struct {
	s    acpagent.Script
	conn *acp.AgentSideConnection
	out  *lockedStdout

	mu      sync.Mutex
	turn    int
	cancels map[acp.SessionId]context.CancelFunc
}

var _ acp.Agent = (*agent)(nil)

func (a *agent) record(v map[string]any) {
	if a.s.Record == "" {
		return
	}
	data, _ := json.Marshal(v)
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := os.OpenFile(a.s.Record, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(data, '\n'))
}

func (a *agent) Initialize(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
	v := a.s.ProtocolVersion
	if v == 0 {
		v = acp.ProtocolVersionNumber
	}
	resp := acp.InitializeResponse{ProtocolVersion: acp.ProtocolVersion(v), AuthMethods: []acp.AuthMethod{}}
	if a.s.Resume {
		resp.AgentCapabilities.SessionCapabilities.Resume = &acp.SessionResumeCapabilities{}
	}
	return resp, nil
}

func (a *agent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, nil
}

// Logout is the ACP method v0.13.5 added; the fake agent has nothing to
// end.
func (a *agent) Logout(context.Context, acp.LogoutRequest) (acp.LogoutResponse, error) {
	return acp.LogoutResponse{}, nil
}

func (a *agent) NewSession(_ context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	if a.s.AuthRequired {
		return acp.NewSessionResponse{}, acp.NewAuthRequired(map[string]any{"details": "run `acpagent login` first"})
	}
	a.record(map[string]any{"cwd": p.Cwd, "argv": os.Args[1:]})
	for _, name := range a.s.RecordEnv {
		a.record(map[string]any{"env": name, "value": os.Getenv(name)})
	}
	resp := acp.NewSessionResponse{SessionId: acp.SessionId(fmt.Sprintf("s-%d", os.Getpid()))}
	resp.ConfigOptions, resp.Modes = a.offers()
	return resp, nil
}

// offers are the config options and modes the script gives a session,
// new or resumed.
func (a *agent) offers() ([]acp.SessionConfigOption, *acp.SessionModeState) {
	var opts []acp.SessionConfigOption
	if len(a.s.ConfigModes) > 0 {
		var vals acp.SessionConfigSelectOptionsUngrouped
		for _, m := range a.s.ConfigModes {
			vals = append(vals, acp.SessionConfigSelectOption{Value: acp.SessionConfigValueId(m), Name: m})
		}
		opts = []acp.SessionConfigOption{acp.NewSessionConfigOptionSelect(acp.SessionConfigValueId(a.s.ConfigModes[0]), acp.SessionConfigSelectOptions{Ungrouped: &vals})}
		opts[0].Select.Id = "mode"
		opts[0].Select.Name = "Session Mode"
	}
	var modes *acp.SessionModeState
	if len(a.s.Modes) > 0 {
		modes = &acp.SessionModeState{CurrentModeId: acp.SessionModeId(a.s.Modes[0])}
		for _, m := range a.s.Modes {
			modes.AvailableModes = append(modes.AvailableModes, acp.SessionMode{Id: acp.SessionModeId(m), Name: m})
		}
	}
	return opts, modes
}

func (a *agent) Cancel(_ context.Context, p acp.CancelNotification) error {
	a.record(map[string]any{"cancel": true})
	if a.s.IgnoreCancel {
		return nil
	}
	a.mu.Lock()
	c := a.cancels[p.SessionId]
	a.mu.Unlock()
	if c != nil {
		c()
	}
	return nil
}

func (a *agent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	text := ""
	for _, b := range p.Prompt {
		if b.Text != nil {
			text += b.Text.Text
		}
	}
	a.record(map[string]any{"prompt": text})
	a.mu.Lock()
	n := a.turn
	a.turn++
	tctx, cancel := context.WithCancel(ctx)
	a.cancels[p.SessionId] = cancel
	a.mu.Unlock()
	defer cancel()

	t := acpagent.Turn{Steps: []acpagent.Step{{Say: "ok"}}}
	if len(a.s.Turns) > 0 {
		t = a.s.Turns[min(n, len(a.s.Turns)-1)]
	}
	update := func(u acp.SessionUpdate) {
		_ = a.conn.SessionUpdate(context.Background(), acp.SessionNotification{SessionId: p.SessionId, Update: u})
	}
	cancelled := func() bool { return tctx.Err() != nil && !a.s.IgnoreCancel }
	for i, st := range t.Steps {
		if cancelled() {
			return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
		}
		switch {
		case st.Say != "":
			size := st.ChunkSize
			if size <= 0 {
				size = 8
			}
			r := []rune(st.Say)
			for len(r) > 0 {
				k := min(size, len(r))
				update(acp.UpdateAgentMessageText(string(r[:k])))
				r = r[k:]
			}
		case st.Stamps > 0:
			for range st.Stamps {
				update(acp.UpdateAgentMessageText(strconv.FormatInt(time.Now().UnixNano(), 10) + "\n"))
				if st.StampGapUs > 0 {
					time.Sleep(time.Duration(st.StampGapUs) * time.Microsecond)
				}
			}
		case st.Thought != "":
			update(acp.UpdateAgentThoughtText(st.Thought))
		case st.Tool != nil:
			id := acp.ToolCallId(fmt.Sprintf("call-%d-%d", n, i))
			update(acp.StartToolCall(id, title(st.Tool),
				acp.WithStartKind(acp.ToolKind(st.Tool.Kind)), acp.WithStartLocations(locs(st.Tool))))
			if st.Tool.End != "" {
				update(toolEnd(id, st.Tool))
			}
		case len(st.Plan) > 0:
			var es []acp.PlanEntry
			for j, c := range st.Plan {
				status := acp.PlanEntryStatusPending
				if j == 0 {
					status = acp.PlanEntryStatusInProgress
				}
				es = append(es, acp.PlanEntry{Content: c, Priority: acp.PlanEntryPriorityMedium, Status: status})
			}
			update(acp.UpdatePlan(es...))
		case st.Permission != nil:
			id := acp.ToolCallId(fmt.Sprintf("perm-%d-%d", n, i))
			update(acp.StartToolCall(id, title(st.Permission), acp.WithStartKind(acp.ToolKind(st.Permission.Kind)),
				acp.WithStartStatus(acp.ToolCallStatusPending), acp.WithStartLocations(locs(st.Permission))))
			resp, err := a.conn.RequestPermission(tctx, acp.RequestPermissionRequest{
				SessionId: p.SessionId,
				ToolCall: acp.ToolCallUpdate{
					ToolCallId: id, Title: acp.Ptr(title(st.Permission)), Kind: acp.Ptr(acp.ToolKind(st.Permission.Kind)),
					Locations: locs(st.Permission),
				},
				Options: []acp.PermissionOption{
					{Kind: acp.PermissionOptionKindAllowOnce, Name: "Allow", OptionId: "allow"},
					{Kind: acp.PermissionOptionKindRejectOnce, Name: "Reject", OptionId: "reject"},
				},
			})
			outcome := "error"
			switch {
			case err != nil:
			case resp.Outcome.Selected != nil:
				outcome = string(resp.Outcome.Selected.OptionId)
			case resp.Outcome.Cancelled != nil:
				outcome = "cancelled"
			}
			a.record(map[string]any{"permission": st.Permission.Kind, "outcome": outcome})
			if st.Permission.End != "" {
				update(toolEnd(id, st.Permission))
			}
		case st.SleepMs > 0:
			select {
			case <-time.After(time.Duration(st.SleepMs) * time.Millisecond):
			case <-tctx.Done():
			}
		case st.Exit != 0:
			fmt.Fprintln(os.Stderr, "acpagent: crashing as scripted")
			os.Exit(st.Exit)
		case st.Stall:
			if a.s.IgnoreCancel {
				forever()
			}
			<-tctx.Done()
		case st.Garbage != "":
			_, _ = a.out.Write([]byte(st.Garbage + "\n"))
		}
	}
	if cancelled() {
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	}
	stop := acp.StopReasonEndTurn
	if t.StopReason != "" {
		stop = acp.StopReason(t.StopReason)
	}
	return acp.PromptResponse{StopReason: stop}, nil
}

// toolEnd is the tool_call_update that ends call id as t.End says.
func toolEnd(id acp.ToolCallId, t *acpagent.Tool) acp.SessionUpdate {
	opts := []acp.ToolCallUpdateOpt{acp.WithUpdateStatus(acp.ToolCallStatus(t.End))}
	if t.Output != "" {
		opts = append(opts, acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock(t.Output))}))
	}
	if t.ExitCode != 0 {
		opts = append(opts, acp.WithUpdateRawOutput(map[string]any{"exit_code": t.ExitCode}))
	}
	return acp.UpdateToolCall(id, opts...)
}

func title(t *acpagent.Tool) string {
	if t.Title != "" {
		return t.Title
	}
	return t.Kind + " " + path(t)
}

func locs(t *acpagent.Tool) []acp.ToolCallLocation {
	if t.Path == "" {
		return nil
	}
	return []acp.ToolCallLocation{{Path: path(t)}}
}

// path is the tool's path with a leading ROOT replaced by the folder the
// agent works in, as a real agent names its files.
func path(t *acpagent.Tool) string {
	if rest, ok := strings.CutPrefix(t.Path, "ROOT"); ok {
		if wd, err := os.Getwd(); err == nil {
			return wd + rest
		}
	}
	return t.Path
}

func (a *agent) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, nil
}

func (a *agent) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, nil
}

func (a *agent) ResumeSession(_ context.Context, p acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	if !a.s.Resume {
		return acp.ResumeSessionResponse{}, acp.NewMethodNotFound("session/resume")
	}
	a.record(map[string]any{"resume": string(p.SessionId), "cwd": p.Cwd})
	var resp acp.ResumeSessionResponse
	resp.ConfigOptions, resp.Modes = a.offers()
	return resp, nil
}

func (a *agent) SetSessionConfigOption(_ context.Context, p acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	if v := p.ValueId; v != nil {
		a.record(map[string]any{"config": string(v.ConfigId), "value": string(v.Value)})
	}
	return acp.SetSessionConfigOptionResponse{}, nil
}

func (a *agent) SetSessionMode(_ context.Context, p acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	a.record(map[string]any{"mode": string(p.ModeId)})
	return acp.SetSessionModeResponse{}, nil
}
