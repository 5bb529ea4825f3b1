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

// BenchmarkHostIdle100Rooms: one host process with 100 rooms and both
// seats of each parked in wait_for_message over HTTP (200 sessions). It
// reports the host's resident memory and the CPU it uses over 10 s while
// they wait. Run with -benchtime 1x.
func BenchmarkHostIdle100Rooms(b *testing.B) {
	const rooms = 100
	cwd := b.TempDir()
	toks := make([]map[string]string, rooms)
	for i := range rooms {
		toks[i] = issueTokens(b, cwd, fmt.Sprintf("room-%03d", i), 12)
	}
	h := hosttest.StartBin(b, hosttest.PlainBinary(b), "--rate-limit", "1000000", "--all", "--cwd", cwd)
	pid := h.Cmd.Process.Pid
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var parked sync.WaitGroup
	for i := range rooms {
		for _, g := range []string{room.GrantLead, room.GrantPeer} {
			cs := benchSession(b, h.URL, toks[i][g], hosttest.ProtoLegacy)
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
			log, _ := os.ReadFile(filepath.Join(cwd, ".roundtable", fmt.Sprintf("room-%03d", i), room.LogFile))
			if n := strings.Count(string(log), "tool=wait_for_message"); n < 2 {
				b.Fatalf("room %d: %d waits called, want both seats parked", i, n)
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
