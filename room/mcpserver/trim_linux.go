//go:build linux

package mcpserver

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// trimResident drops the pages of the executable's read-only mappings
// (code and constant data) from the process's resident set. The binary also
// holds the terminal UI, whose packages' start-up code touches tens of
// megabytes the seat server never uses again; a parked seat should not be
// charged for them. The pages stay in the page cache, and anything the
// server still needs faults back in from there. Writable mappings are never
// touched.
func trimResident() {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[5] != exe || len(f[1]) < 2 || f[1][1] != '-' {
			continue // another file, or writable
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED)
	}
}
