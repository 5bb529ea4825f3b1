package mcpserver_test

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/roundtable-dev/roundtable/room/host/hosttest"
)

// linkFloor builds testdata/linkfloor: a program that links only Glamour
// and mcp-go's server and does nothing. Go runs the init of every linked
// package before main, so its spawn → exit is the least any one binary that
// holds both the screens and the seat server can take to start.
func linkFloor(tb testing.TB) string {
	tb.Helper()
	floor := filepath.Join(tb.TempDir(), "linkfloor")
	if out, err := exec.Command("go", "build", "-o", floor, "./testdata/linkfloor").CombinedOutput(); err != nil {
		tb.Fatalf("build linkfloor: %v\n%s", err, out)
	}
	return floor
}

// spawnExit times one run of argv from spawn to exit.
func spawnExit(tb testing.TB, argv ...string) time.Duration {
	tb.Helper()
	t0 := time.Now()
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		tb.Fatalf("%s: %v\n%s", argv[0], err, out)
	}
	return time.Since(t0)
}

// spawnInitialize times a seat from spawn to its reply to initialize.
func spawnInitialize(tb testing.TB, bin, cwd string) time.Duration {
	tb.Helper()
	t0 := time.Now()
	c := startRaw(tb, bin, "--room", "spawn", "--seat", "lead", "--cwd", cwd)
	res := <-c.send("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}})
	d := time.Since(t0)
	if res["result"] == nil {
		tb.Fatalf("initialize: %v", res)
	}
	c.close()
	return d
}

// BenchmarkColdStart: spawn → initialize answered by a seat, beside spawn →
// exit of the link floor and of `roundtable version`, alternated in each
// iteration so all three share the machine's conditions. The figure that
// holds from one machine to another is the ratio seat/floor.
func BenchmarkColdStart(b *testing.B) {
	floor := linkFloor(b)
	bin := hosttest.PlainBinary(b)
	cwd := b.TempDir()
	prefill(b, cwd, "spawn", 0, 12)
	// One untimed round warms the page cache for both executables.
	spawnExit(b, floor)
	spawnInitialize(b, bin, cwd)
	var seat, flo, ver []time.Duration
	for b.Loop() {
		flo = append(flo, spawnExit(b, floor))
		seat = append(seat, spawnInitialize(b, bin, cwd))
		ver = append(ver, spawnExit(b, bin, "version"))
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(hosttest.Percentile(seat, 0.5)), "seat-init-p50-ms")
	b.ReportMetric(ms(hosttest.Percentile(seat, 0.95)), "seat-init-p95-ms")
	b.ReportMetric(ms(hosttest.Percentile(flo, 0.5)), "floor-exit-p50-ms")
	b.ReportMetric(ms(hosttest.Percentile(flo, 0.95)), "floor-exit-p95-ms")
	b.ReportMetric(ms(hosttest.Percentile(ver, 0.5)), "version-exit-p50-ms")
	b.ReportMetric(float64(hosttest.Percentile(seat, 0.5))/float64(hosttest.Percentile(flo, 0.5)), "seat/floor-p50")
	// The paired ratio: each iteration's seat over the floor run just
	// before it, so a burst of load on the machine cancels out.
	pairs := make([]time.Duration, len(seat))
	for i := range seat {
		pairs[i] = time.Duration(float64(seat[i]) / float64(flo[i]) * 1e6)
	}
	b.ReportMetric(float64(hosttest.Percentile(pairs, 0.5))/1e6, "seat/floor-paired-p50")
}
