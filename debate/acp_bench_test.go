//go:build linux

package debate

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
)

// stampsPerRun is how many timestamped chunks one benchmark run streams.
const stampsPerRun = 2000

// stampScript streams stampsPerRun chunks, each the agent's wall clock
// (Unix ns) just before it writes the chunk, 100 µs apart, so latency is
// measured on a stream that keeps up rather than on a backlog.
func stampScript(b *testing.B) []string {
	s := acpagent.Script{Turns: []acpagent.Turn{{Steps: []acpagent.Step{{Stamps: stampsPerRun, StampGapUs: 100}}}}}
	return []string{acpagent.EnvScript + "=" + acpagent.WriteScript(b, s)}
}

// lag is the time since the stamp a chunk carries.
func lag(text string, now time.Time) (time.Duration, bool) {
	ns, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
	if err != nil {
		return 0, false
	}
	return now.Sub(time.Unix(0, ns)), true
}

func reportLags(b *testing.B, lags []time.Duration) {
	if len(lags) == 0 {
		b.Fatal("no samples")
	}
	slices.Sort(lags)
	pct := func(p float64) float64 {
		return float64(lags[min(int(p*float64(len(lags))), len(lags)-1)].Microseconds())
	}
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.95), "p95-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(float64(len(lags)), "samples")
}

// BenchmarkAgentChunkLatency measures the time from an agent writing an
// agent_message_chunk to its text reaching: the SDK's client callback (the
// floor: what any ACP client pays), the provider's onDelta, and a token
// event read from a running debate's Session (the column's input).
func BenchmarkAgentChunkLatency(b *testing.B) {
	bin := acpagent.Build(b)
	b.Run("sdk-floor", func(b *testing.B) {
		env := stampScript(b)
		var lags []time.Duration
		for range b.N {
			lags = append(lags, sdkLags(b, bin, env)...)
		}
		reportLags(b, lags)
	})
	b.Run("provider", func(b *testing.B) {
		env := stampScript(b)
		var lags []time.Duration
		for range b.N {
			p, err := NewAgentProvider(AgentSpec{Command: []string{bin}}, AgentOptions{Cwd: b.TempDir(), Env: env})
			if err != nil {
				b.Fatal(err)
			}
			info := TurnInfo{Purpose: PurposeTurn, Topic: "t", Speaker: Persona{Name: "A", Persona: "x"}, Round: 1, Rounds: 1}
			_, err = p.Stream(context.Background(), Request{Messages: turnMessages(info), Info: info}, func(d string) error {
				if l, ok := lag(d, time.Now()); ok {
					lags = append(lags, l)
				}
				return nil
			})
			_ = p.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
		reportLags(b, lags)
	})
	b.Run("debate-event", func(b *testing.B) {
		env := stampScript(b)
		var lags []time.Duration
		for range b.N {
			s := Settings{
				Config: Config{
					Topic: "t", Rounds: 1, MaxTurnTokens: 10 * stampsPerRun,
					Personas: []Persona{{Name: "A", Persona: "x", Agent: []string{bin}}},
				},
				Cwd: b.TempDir(), AgentEnv: env,
			}
			sess, err := Start(context.Background(), s)
			if err != nil {
				b.Fatal(err)
			}
			for ev := range sess.Events() {
				if ev.Type == EventToken && ev.Agent == "A" {
					if l, ok := lag(ev.Text, time.Now()); ok {
						lags = append(lags, l)
					}
				}
			}
		}
		reportLags(b, lags)
	})
}

// sdkLags runs one prompt of the stamping agent through a bare SDK client
// and returns the lag of each chunk at the client's callback.
func sdkLags(b *testing.B, bin string, env []string) []time.Duration {
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &floorClient{}
	conn := acp.NewClientSideConnection(c, in, out)
	conn.SetLogger(slog.New(slog.DiscardHandler))
	ctx := context.Background()
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		b.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: b.TempDir(), McpServers: []acp.McpServer{}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("go")}}); err != nil {
		b.Fatal(err)
	}
	in.Close()
	_ = cmd.Wait()
	<-conn.Done()
	return c.lags
}

// floorClient only measures: the least an ACP client can do with a chunk.
type floorClient struct{ lags []time.Duration }

func (c *floorClient) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	if ch := n.Update.AgentMessageChunk; ch != nil && ch.Content.Text != nil {
		if l, ok := lag(ch.Content.Text.Text, time.Now()); ok {
			c.lags = append(c.lags, l)
		}
	}
	return nil
}

func (c *floorClient) RequestPermission(context.Context, acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
}

func (c *floorClient) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errNotOffered
}

func (c *floorClient) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errNotOffered
}

func (c *floorClient) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errNotOffered
}

func (c *floorClient) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNotOffered
}

func (c *floorClient) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNotOffered
}

func (c *floorClient) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNotOffered
}

func (c *floorClient) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNotOffered
}

// BenchmarkAgentCancel measures the time from cancelling a turn (esc,
// Ctrl+C, Stop) to the agent's whole process group (the agent and two
// children, like MCP servers) being gone: for an agent that honors
// session/cancel and exits when stdin closes, and for one that ignores
// both (killed after the default grace, DefaultAgentGrace).
func BenchmarkAgentCancel(b *testing.B) {
	bin := acpagent.Build(b)
	for _, tc := range []struct {
		name     string
		stubborn bool
	}{{"cooperative", false}, {"ignores-cancel-and-stdin", true}} {
		b.Run(tc.name, func(b *testing.B) {
			var worst, total time.Duration
			for range b.N {
				pidDir := b.TempDir()
				s := acpagent.Script{
					PidDir: pidDir, Children: 2, IgnoreStdinClose: tc.stubborn, IgnoreCancel: tc.stubborn,
					Turns: []acpagent.Turn{{Steps: []acpagent.Step{{Say: "x"}, {Stall: true}}}},
				}
				p, err := NewAgentProvider(AgentSpec{Command: []string{bin}}, AgentOptions{
					Cwd: b.TempDir(), Env: []string{acpagent.EnvScript + "=" + acpagent.WriteScript(b, s)},
				})
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				said := make(chan struct{}, 1)
				done := make(chan time.Time, 1)
				go func() {
					info := TurnInfo{Purpose: PurposeTurn, Topic: "t", Speaker: Persona{Name: "A", Persona: "x"}, Round: 1, Rounds: 1}
					_, _ = p.Stream(ctx, Request{Messages: turnMessages(info), Info: info}, func(d string) error {
						if d != "" {
							select {
							case said <- struct{}{}:
							default:
							}
						}
						return nil
					})
					done <- time.Now()
				}()
				<-said
				agents, _ := acpagent.Pids(pidDir)
				start := time.Now()
				cancel()
				<-done
				for len(acpagent.GroupMembers(agents[0])) > 0 {
					time.Sleep(time.Millisecond)
				}
				d := time.Since(start)
				total += d
				worst = max(worst, d)
				_ = p.Close()
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/cancel")
			b.ReportMetric(float64(worst.Milliseconds()), "worst-ms")
		})
	}
}

// BenchmarkAgentIdleMemory measures what an idle agent session costs
// roundtable (the agent's own process excluded): n speakers each finish a
// turn and sit idle; the Go heap and stacks in use, and the process's
// anonymous resident memory, are compared before and after.
func BenchmarkAgentIdleMemory(b *testing.B) {
	bin := acpagent.Build(b)
	const n = 20
	env := []string{acpagent.EnvScript + "=" + acpagent.WriteScript(b, acpagent.Script{})}
	for range b.N {
		before, rssBefore := inUse()
		p, err := NewAgentProvider(AgentSpec{Command: []string{bin}}, AgentOptions{Cwd: b.TempDir(), Env: env})
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			info := TurnInfo{Purpose: PurposeTurn, Topic: "t", Speaker: Persona{Name: "P" + strconv.Itoa(i), Persona: "x"}, Round: 1, Rounds: 1}
			if _, err := p.Stream(context.Background(), Request{Messages: turnMessages(info), Info: info}, func(string) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
		time.Sleep(100 * time.Millisecond) // idle
		after, rssAfter := inUse()
		if len(p.Pids()) != n {
			b.Fatalf("%d agents alive, want %d", len(p.Pids()), n)
		}
		b.ReportMetric(float64(after-before)/n/1024, "KiB-go/session")
		b.ReportMetric(float64(rssAfter-rssBefore)/n/1024, "KiB-rss/session")
		_ = p.Close()
	}
}

// inUse is the Go heap and stacks in use after a collection, and the
// process's RssAnon (0 where /proc is missing).
func inUse() (goBytes, rssAnon int64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	goBytes = int64(ms.HeapInuse + ms.StackInuse)
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			rssAnon = kb * 1024
		}
	}
	return goBytes, rssAnon
}
