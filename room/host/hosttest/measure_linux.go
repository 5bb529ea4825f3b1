//go:build linux

package hosttest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// ProcMem is what the kernel says a process's memory is. The figures that
// stand for memory the seat really costs are RssAnon (its own heap and
// stacks, resident), Pss (its resident pages, each shared page divided
// among the processes mapping it) and VmHWM (the highest resident set it
// ever had). VmRSS also counts the pages of the executable file the process
// touched: clean page cache, shared by every roundtable process, which the
// kernel can drop at any time.
type ProcMem struct {
	HWM, RSS, Anon, Pss, PssAnon, PssFile int64 // bytes
}

// ReadProcMem reads /proc/PID/status and /proc/PID/smaps_rollup.
func ReadProcMem(tb testing.TB, pid int) ProcMem {
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
	m := ProcMem{HWM: kv["VmHWM"], RSS: kv["VmRSS"], Anon: kv["RssAnon"], Pss: kv["Pss"], PssAnon: kv["Pss_Anon"], PssFile: kv["Pss_File"]}
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
