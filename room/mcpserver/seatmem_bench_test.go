//go:build linux

package mcpserver_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// reportMem reports the median of each figure over the runs, and the
// highest VmHWM of any run.
func reportMem(b *testing.B, runs []hosttest.ProcMem) {
	const mib = 1 << 20
	med := func(get func(hosttest.ProcMem) int64) float64 {
		v := make([]int64, len(runs))
		for i, r := range runs {
			v[i] = get(r)
		}
		slices.Sort(v)
		return float64(v[len(v)/2]) / mib
	}
	b.ReportMetric(med(func(m hosttest.ProcMem) int64 { return m.HWM }), "VmHWM-MiB")
	var top int64
	for _, r := range runs {
		top = max(top, r.HWM)
	}
	b.ReportMetric(float64(top)/mib, "max-VmHWM-MiB")
	b.ReportMetric(med(func(m hosttest.ProcMem) int64 { return m.Anon }), "RssAnon-MiB")
	b.ReportMetric(med(func(m hosttest.ProcMem) int64 { return m.Pss }), "Pss-MiB")
	b.ReportMetric(med(func(m hosttest.ProcMem) int64 { return m.PssFile }), "PssFile-MiB")
	b.ReportMetric(med(func(m hosttest.ProcMem) int64 { return m.RSS }), "VmRSS-MiB")
}

// BenchmarkIdleSeatMemory: a fresh seat in an empty room, initialized and
// parked in wait_for_message for two seconds, as an agent leaves it.
func BenchmarkIdleSeatMemory(b *testing.B) {
	cwd := b.TempDir()
	prefill(b, cwd, "mem", 0, 12)
	bin := hosttest.PlainBinary(b)
	var runs []hosttest.ProcMem
	for b.Loop() {
		c := startRaw(b, bin, "--room", "mem", "--seat", "peer", "--cwd", cwd)
		c.initialize(b)
		<-c.tool("room_status", nil)
		reply := c.tool("wait_for_message", map[string]any{"timeout_seconds": 3})
		time.Sleep(2 * time.Second)
		m := hosttest.ReadProcMem(b, c.cmd.Process.Pid)
		if res := <-reply; res["error"] != nil {
			b.Fatal(res["error"])
		}
		c.close()
		runs = append(runs, m)
	}
	reportMem(b, runs)
}

// BenchmarkParkedSeat10k: a seat in a room of 10,000 messages. It catches
// up first, as an agent joining the room does: wait_for_message returns the
// other seat's 5,000 messages in one reply. Then it is parked 10 s in
// wait_for_message (the call must end idle, or the seat was not parked).
// Reported: the CPU it used while parked, its memory at the end of the
// park, and VmHWM, which includes the peak of the catch-up.
func BenchmarkParkedSeat10k(b *testing.B) {
	cwd := b.TempDir()
	prefill(b, cwd, "idle", 10000, 1<<30)
	bin := hosttest.PlainBinary(b)
	var runs []hosttest.ProcMem
	var cpus []time.Duration
	for b.Loop() {
		c := startRaw(b, bin, "--room", "idle", "--seat", "lead", "--cwd", cwd)
		c.initialize(b)
		caught := <-c.tool("wait_for_message", map[string]any{"timeout_seconds": 5})
		if got := strings.Count(resultText(caught), `"seq"`); got != 5000 {
			b.Fatalf("the catch-up returned %d messages, want the peer's 5000", got)
		}
		reply := c.tool("wait_for_message", map[string]any{"timeout_seconds": 10.5})
		time.Sleep(250 * time.Millisecond)
		pid := c.cmd.Process.Pid
		cpu0 := hosttest.ProcCPU(pid)
		time.Sleep(10 * time.Second)
		cpu := hosttest.ProcCPU(pid) - cpu0
		m := hosttest.ReadProcMem(b, pid)
		res := <-reply
		if txt := resultText(res); res["error"] != nil || !strings.Contains(txt, `"idle": true`) {
			b.Fatalf("the second wait did not end idle: %v %.300s", res["error"], txt)
		}
		c.close()
		runs, cpus = append(runs, m), append(cpus, cpu)
	}
	b.ReportMetric(float64(hosttest.Percentile(cpus, 0.5).Microseconds())/1000, "cpu-ms/10s")
	reportMem(b, runs)
}

// resultText is the text content of a tools/call response.
func resultText(res map[string]any) string {
	r, _ := res["result"].(map[string]any)
	content, _ := r["content"].([]any)
	var b strings.Builder
	for _, c := range content {
		if m, ok := c.(map[string]any); ok {
			t, _ := m["text"].(string)
			b.WriteString(t)
		}
	}
	return b.String()
}
