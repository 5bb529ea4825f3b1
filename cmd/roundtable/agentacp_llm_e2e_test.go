//go:build llm

package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// TestLLMAgentACP drives each installed agent directly over ACP with the
// SDK's client side, as roundtable's provider does, but with nothing of
// roundtable in between: initialize, session/new, session/prompt against
// llama-server. When a debate test fails, this one tells whether the agent
// itself works here. It also shows the agents' start-up and reply times.
func TestLLMAgentACP(t *testing.T) {
	for _, a := range realAgents {
		t.Run(a.preset, func(t *testing.T) {
			env := agentEnv(t, a)
			home := envValue(env, "HOME")
			cwd := t.TempDir()
			writeFile(t, filepath.Join(cwd, "NOTES.md"), "# Notes\nThe cache is write-through.\n")

			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			prog, err := lookPathIn(a.argv[0], envValue(env, "PATH"))
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(prog, a.argv[1:]...)
			cmd.Dir = cwd
			cmd.Env = env
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var stderr lockedBuffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pgid := cmd.Process.Pid
			defer func() {
				_ = stdin.Close()
				// Several agents do not exit when stdin closes (agents.md):
				// kill the group, as roundtable does after its grace period.
				waited := make(chan struct{})
				go func() { _ = cmd.Wait(); close(waited) }()
				select {
				case <-waited:
				case <-time.After(time.Second):
					_ = syscall.Kill(-pgid, syscall.SIGKILL)
					<-waited
				}
				_ = syscall.Kill(-pgid, syscall.SIGKILL) // children of an agent that did exit
				checkNoLeftovers(t, pgid, "HOME="+home)
				if t.Failed() {
					t.Logf("%s stderr:\n%s", a.argv[0], tail(stderr.String(), 4000))
				}
			}()

			cl := &recordingClient{}
			conn := acp.NewClientSideConnection(cl, stdin, stdout)
			conn.SetLogger(slog.New(slog.DiscardHandler))
			init, err := conn.Initialize(ctx, acp.InitializeRequest{
				ProtocolVersion: acp.ProtocolVersionNumber,
				ClientInfo:      &acp.Implementation{Name: "roundtable-e2e", Version: "0"},
			})
			if err != nil {
				t.Fatalf("initialize: %v", err)
			}
			tInit := time.Since(start)
			sess, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
			if err != nil {
				t.Fatalf("session/new: %v", err)
			}
			tSession := time.Since(start)
			resp, err := conn.Prompt(ctx, acp.PromptRequest{
				SessionId: sess.SessionId,
				Prompt:    []acp.ContentBlock{acp.TextBlock("In one short sentence: should a cache be write-through?")},
			})
			if err != nil {
				t.Fatalf("session/prompt: %v", err)
			}
			tPrompt := time.Since(start)
			text, first, chunks := cl.result()
			if resp.StopReason != acp.StopReasonEndTurn {
				t.Errorf("stop reason %q, want end_turn", resp.StopReason)
			}
			if strings.TrimSpace(text) == "" || chunks == 0 {
				t.Fatalf("no agent_message_chunk text (updates: %s)", strings.Join(cl.kinds(), ", "))
			}
			t.Logf("%s (protocol %v): initialize %v, session/new %v, first chunk %v, end_turn %v; %d chunks, %d bytes: %q",
				strings.Join(a.argv, " "), init.ProtocolVersion, tInit.Round(time.Millisecond), tSession.Round(time.Millisecond),
				first.Sub(start).Round(time.Millisecond), tPrompt.Round(time.Millisecond), chunks, len(text), tail(text, 200))
		})
	}
}

// recordingClient is the client side of the smoke test: it records the
// streamed text and update kinds, refuses every permission and offers no
// file system or terminal.
type recordingClient struct {
	mu      sync.Mutex
	text    strings.Builder
	chunks  int
	first   time.Time
	updates []string
}

func (c *recordingClient) result() (string, time.Time, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.text.String(), c.first, c.chunks
}

func (c *recordingClient) kinds() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.updates...)
}

func (c *recordingClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := n.Update
	switch {
	case u.AgentMessageChunk != nil:
		c.updates = append(c.updates, "agent_message_chunk")
		if tb := u.AgentMessageChunk.Content.Text; tb != nil {
			if c.chunks == 0 {
				c.first = time.Now()
			}
			c.chunks++
			c.text.WriteString(tb.Text)
		}
	case u.AgentThoughtChunk != nil:
		c.updates = append(c.updates, "agent_thought_chunk")
	case u.ToolCall != nil:
		c.updates = append(c.updates, "tool_call "+u.ToolCall.Title)
	case u.ToolCallUpdate != nil:
		c.updates = append(c.updates, "tool_call_update")
	case u.Plan != nil:
		c.updates = append(c.updates, "plan")
	default:
		c.updates = append(c.updates, "other")
	}
	return nil
}

func (c *recordingClient) RequestPermission(_ context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	title := ""
	if p.ToolCall.Title != nil {
		title = *p.ToolCall.Title
	}
	c.updates = append(c.updates, "request_permission "+title)
	c.mu.Unlock()
	for _, o := range p.Options {
		if o.Kind == acp.PermissionOptionKindRejectOnce {
			return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Selected: &acp.RequestPermissionOutcomeSelected{OptionId: o.OptionId}}}, nil
		}
	}
	return acp.RequestPermissionResponse{Outcome: acp.RequestPermissionOutcome{Cancelled: &acp.RequestPermissionOutcomeCancelled{}}}, nil
}

func (*recordingClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, os.ErrPermission
}

func (*recordingClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, os.ErrPermission
}

func (*recordingClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, os.ErrPermission
}

func (*recordingClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, os.ErrPermission
}

func (*recordingClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, os.ErrPermission
}

func (*recordingClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, os.ErrPermission
}

func (*recordingClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, os.ErrPermission
}

// lockedBuffer is a bytes.Buffer safe to write from the exec package's copy
// goroutine while a failing test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
