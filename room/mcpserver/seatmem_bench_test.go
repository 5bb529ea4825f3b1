//go:build linux

package mcpserver_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procMem is what the kernel says a process's memory is. The figures that
// stand for memory the seat really costs are RssAnon (its own heap and
// stacks, resident), Pss (its resident pages, each shared page divided
// among the processes mapping it) and VmHWM (the highest resident set it
// ever had). VmRSS also counts the pages of the executable file the process
// touched: clean page cache, shared by every roundtable process, which the
// kernel can drop at any time.
type procMem struct {
	HWM, RSS, Anon, Pss, PssAnon, PssFile int64 // bytes
}

// readProcMem reads /proc/PID/status and /proc/PID/smaps_rollup.
func readProcMem(tb testing.TB, pid int) procMem {
	tb.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatalf("read the seat's status: %v", err)
	}
	rollup, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		tb.Fatalf("read the seat's smaps_rollup: %v", err)
	}
	kv := kbFields(status)
	for k, v := range kbFields(rollup) {
		kv[k] = v
	}
	m := procMem{HWM: kv["VmHWM"], RSS: kv["VmRSS"], Anon: kv["RssAnon"], Pss: kv["Pss"], PssAnon: kv["Pss_Anon"], PssFile: kv["Pss_File"]}
	if m.HWM <= 0 || m.Anon <= 0 || m.Pss <= 0 {
		tb.Fatalf("incomplete memory figures for pid %d: %+v", pid, m)
	}
	return m
}

// kbFields parses "Name:   123 kB" lines into bytes.
func kbFields(data []byte) map[string]int64 {
	out := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		f := strings.Fields(rest)
		if !ok || len(f) != 2 || f[1] != "kB" {
			continue
		}
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			out[name] = n << 10
		}
	}
	return out
}

// reportMem reports the median of each figure over the runs, and the
// highest VmHWM of any run.
func reportMem(b *testing.B, runs []procMem) {
	const mib = 1 << 20
	med := func(get func(procMem) int64) float64 {
		v := make([]int64, len(runs))
		for i, r := range runs {
			v[i] = get(r)
		}
		slices.Sort(v)
		return float64(v[len(v)/2]) / mib
	}
	b.ReportMetric(med(func(m procMem) int64 { return m.HWM }), "VmHWM-MiB")
	var top int64
	for _, r := range runs {
		top = max(top, r.HWM)
	}
	b.ReportMetric(float64(top)/mib, "max-VmHWM-MiB")
	b.ReportMetric(med(func(m procMem) int64 { return m.Anon }), "RssAnon-MiB")
	b.ReportMetric(med(func(m procMem) int64 { return m.Pss }), "Pss-MiB")
	b.ReportMetric(med(func(m procMem) int64 { return m.PssFile }), "PssFile-MiB")
	b.ReportMetric(med(func(m procMem) int64 { return m.RSS }), "VmRSS-MiB")
}

// BenchmarkIdleSeatMemory: a fresh seat in an empty room, initialized and
// parked in wait_for_message for two seconds, as an agent leaves it.
func BenchmarkIdleSeatMemory(b *testing.B) {
	cwd := b.TempDir()
	prefill(b, cwd, "mem", 0, 12)
	bin := plainBin(b)
	var runs []procMem
	for b.Loop() {
		c := startRaw(b, bin, "--room", "mem", "--seat", "peer", "--cwd", cwd)
		c.initialize(b)
		<-c.tool("room_status", nil)
		reply := c.tool("wait_for_message", map[string]any{"timeout_seconds": 3})
		time.Sleep(2 * time.Second)
		m := readProcMem(b, c.cmd.Process.Pid)
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
	bin := plainBin(b)
	var runs []procMem
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
		cpu0 := procCPU(pid)
		time.Sleep(10 * time.Second)
		cpu := procCPU(pid) - cpu0
		m := readProcMem(b, pid)
		res := <-reply
		if txt := resultText(res); res["error"] != nil || !strings.Contains(txt, `"idle": true`) {
			b.Fatalf("the second wait did not end idle: %v %.300s", res["error"], txt)
		}
		c.close()
		runs, cpus = append(runs, m), append(cpus, cpu)
	}
	b.ReportMetric(float64(percentile(cpus, 0.5).Microseconds())/1000, "cpu-ms/10s")
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
