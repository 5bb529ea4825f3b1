package hosttest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ProcCPU is the CPU time all threads of a process have used, from
// schedstat (nanoseconds, not clock ticks).
func ProcCPU(pid int) time.Duration {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var total int64
	for _, p := range tasks {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		f := strings.Fields(string(data))
		if len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			total += n
		}
	}
	return time.Duration(total)
}

// Percentile is the p-th (0 to 1) of the durations d.
func Percentile(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(float64(len(s)-1)*p)]
}

// ReportMs reports the median and the 95th percentile of d in ms.
func ReportMs(b *testing.B, d []time.Duration) {
	b.ReportMetric(float64(Percentile(d, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(Percentile(d, 0.95).Microseconds())/1000, "p95-ms")
}
