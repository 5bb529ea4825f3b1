//go:build linux

package debate

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/roundtable-dev/roundtable/debate/internal/acpagent"
	"github.com/roundtable-dev/roundtable/room"
)

// seatMem is what the kernel says a process's memory is: RssAnon (its own
// heap and stacks, resident), VmHWM (the most it was ever resident, the
// executable's touched pages included).
type seatMem struct{ anon, hwm int64 }

func readSeatMem(tb testing.TB, pid int) seatMem {
	tb.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	var m seatMem
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, rest, _ := strings.Cut(sc.Text(), ":")
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			continue
		}
		n, _ := strconv.ParseInt(f[0], 10, 64)
		switch name {
		case "RssAnon":
			m.anon = n << 10
		case "VmHWM":
			m.hwm = n << 10
		}
	}
	if m.anon <= 0 || m.hwm <= 0 {
		tb.Fatalf("no memory figures for pid %d", pid)
	}
	return m
}

func reportSeatMem(b *testing.B, prefix string, runs []seatMem) {
	med := func(get func(seatMem) int64) float64 {
		v := make([]int64, len(runs))
		for i, r := range runs {
			v[i] = get(r)
		}
		slices.Sort(v)
		return float64(v[len(v)/2]) / (1 << 20)
	}
	b.ReportMetric(med(func(m seatMem) int64 { return m.anon }), prefix+"RssAnon-MiB")
	b.ReportMetric(med(func(m seatMem) int64 { return m.hwm }), prefix+"VmHWM-MiB")
}

// parkedAfter waits until server.log shows seat parked in a wait, then
// lets it sit two seconds.
func parkedAfter(b *testing.B, dir, seat string) {
	b.Helper()
	waitFor(b, func() bool {
		seats, _ := room.ReadSeats(dir)
		for _, s := range seats {
			if s.Seat == seat && s.State == room.StateParked {
				return true
			}
		}
		return false
	})
	time.Sleep(2 * time.Second)
}

// BenchmarkIdlePlayedSeatMemory measures `roundtable seat` processes parked
// waiting for their turn, each next to an MCP seat server parked in
// wait_for_message in the same room (the peer figure): a mock seat that has
// not spoken yet, and a model seat (--provider openai, against a local
// server speaking OpenAI's streaming format) parked after one turn, its HTTP
// client and the prompts of that turn behind it.
func BenchmarkIdlePlayedSeatMemory(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "roundtable")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/roundtable").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	env := os.Environ()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := startSSE(w)
		s.chunk("kind: answer\n\n", "")
		s.chunk("Reads dominate; write-through keeps the cache honest.", "stop")
		s.done()
	}))
	defer srv.Close()
	agentBin := acpagent.Build(b)
	var mockRuns, modelRuns, mcpRuns, agentRuns []seatMem
	for b.Loop() {
		// A mock peer that has not spoken: the lead (MCP) has not posted.
		cwd := b.TempDir()
		lead := startMCPSeat(b, bin, cwd, "mem", room.SeatLead, "--topic", "Should the cache be write-through", "--budget", "3")
		mock := startSeatProc(b, bin, env, "--room", "mem", "--seat", "peer", "--provider", "mock", "--cwd", cwd)
		parkedAfter(b, room.Dir(cwd, "mem"), room.SeatPeer)
		mockRuns = append(mockRuns, readSeatMem(b, mock.cmd.Process.Pid))
		_ = mock.cmd.Process.Kill()
		lead.c.Close()

		// A model peer parked after its first answer, and the MCP lead
		// parked in wait_for_message for its peer figure.
		cwd = b.TempDir()
		lead = startMCPSeat(b, bin, cwd, "mem", room.SeatLead, "--topic", "Should the cache be write-through", "--budget", "3")
		model := startSeatProc(b, bin, env, "--room", "mem", "--seat", "peer", "--provider", "openai", "--base-url", srv.URL+"/v1", "--model", "m", "--cwd", cwd)
		lead.ok("post", map[string]any{"text": "Write-through?", "kind": "brief"})
		only(b, lead.next())
		lead.ok("post", map[string]any{"text": "Why?", "kind": "question"})
		only(b, lead.next()) // the peer answered twice and is parked again
		parked := make(chan struct{})
		go func() {
			// Closing the client ends this call: its error is expected.
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = room.WaitTool, map[string]any{"timeout_seconds": 10}
			_, _ = lead.c.CallTool(context.Background(), req)
			close(parked)
		}()
		parkedAfter(b, room.Dir(cwd, "mem"), room.SeatLead)
		modelRuns = append(modelRuns, readSeatMem(b, model.cmd.Process.Pid))
		mcpPID := mcpServerPID(b, room.Dir(cwd, "mem"))
		mcpRuns = append(mcpRuns, readSeatMem(b, mcpPID))
		_ = model.cmd.Process.Kill()
		lead.c.Close()
		<-parked

		// An agent peer (the scripted ACP agent) parked after its first
		// answer: the roundtable seat process only, not the agent's.
		cwd = b.TempDir()
		script := acpagent.WriteScript(b, acpagent.Script{Turns: []acpagent.Turn{
			{Steps: []acpagent.Step{{Say: "kind: answer\n\nReads dominate; write-through keeps the cache honest."}}},
		}})
		lead = startMCPSeat(b, bin, cwd, "mem", room.SeatLead, "--topic", "Should the cache be write-through", "--budget", "3")
		agent := startSeatProc(b, bin, append(env, acpagent.EnvScript+"="+script), "--room", "mem", "--seat", "peer", "--agent", "acp:"+agentBin, "--cwd", cwd)
		lead.ok("post", map[string]any{"text": "Write-through?", "kind": "brief"})
		only(b, lead.next())
		parkedAfter(b, room.Dir(cwd, "mem"), room.SeatPeer)
		agentRuns = append(agentRuns, readSeatMem(b, agent.cmd.Process.Pid))
		_ = agent.cmd.Process.Signal(os.Interrupt) // stops its agent's group too
		_ = agent.cmd.Wait()
		lead.c.Close()
	}
	reportSeatMem(b, "agent-", agentRuns)
	reportSeatMem(b, "mock-", mockRuns)
	reportSeatMem(b, "model-", modelRuns)
	reportSeatMem(b, "mcp-", mcpRuns)
}

// mcpServerPID is the pid the lead's seat server logged on connect.
func mcpServerPID(b *testing.B, dir string) int {
	seats, err := room.ReadSeats(dir)
	if err != nil || seats[0].PID == 0 {
		b.Fatalf("no lead pid in server.log: %v", err)
	}
	return seats[0].PID
}
