//go:build linux

package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room"
	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// BenchmarkHostIdleCouncils: one host process with 25 councils of four
// seats, every seat of each parked in wait_for_message over HTTP (100
// sessions). It reports the host's resident memory and the CPU it uses
// over 10 s while they wait. Run with -benchtime 1x.
func BenchmarkHostIdleCouncils(b *testing.B) {
	const rooms = 25
	seats := []string{"lead", "critic", "security", "peer"}
	cwd := b.TempDir()
	toks := make([]map[string]string, rooms)
	for i := range rooms {
		r, _, err := room.Create(cwd, fmt.Sprintf("council-%02d", i), room.CreateOptions{Topic: "bench", Budget: 12, Seats: seats})
		if err != nil {
			b.Fatal(err)
		}
		if toks[i], err = r.IssueTokens(); err != nil || len(toks[i]) != len(seats)+1 {
			b.Fatalf("tokens of council %d: %d, %v", i, len(toks[i]), err)
		}
	}
	h := hosttest.StartBin(b, hosttest.PlainBinary(b), "--rate-limit", "1000000", "--all", "--cwd", cwd)
	pid := h.Cmd.Process.Pid
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var parked sync.WaitGroup
	for i := range rooms {
		for _, seat := range seats {
			cs := benchSession(b, h.URL, toks[i][seat], hosttest.ProtoLegacy)
			parked.Add(1)
			go func() {
				defer parked.Done()
				for ctx.Err() == nil {
					if _, err := cs.CallTool(ctx, callParams("wait_for_message", map[string]any{"timeout_seconds": 55})); err != nil {
						return
					}
				}
			}()
		}
	}
	for b.Loop() {
		time.Sleep(3 * time.Second) // every wait parked, start-up garbage collected
		for i := range rooms {
			log, _ := os.ReadFile(filepath.Join(cwd, ".roundtable", fmt.Sprintf("council-%02d", i), room.LogFile))
			if n := strings.Count(string(log), "tool=wait_for_message"); n < len(seats) {
				b.Fatalf("council %d: %d waits called, want every seat parked", i, n)
			}
		}
		c0, t0 := hosttest.ProcCPU(pid), time.Now()
		time.Sleep(10 * time.Second)
		cpu := float64(hosttest.ProcCPU(pid)-c0) / float64(time.Since(t0)) * 100
		m := hosttest.ReadProcMem(b, pid)
		b.ReportMetric(float64(m.RSS)/(1<<20), "VmRSS-MiB")
		b.ReportMetric(float64(m.PssAnon)/(1<<20), "PssAnon-MiB")
		b.ReportMetric(cpu, "cpu-%")
	}
	cancel()
	_ = h.Stop()
	parked.Wait()
}
