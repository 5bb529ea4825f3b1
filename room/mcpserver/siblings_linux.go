package mcpserver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// children are the arguments of every process whose parent is ppid, read
// from /proc, and the parent's start time (its field 22 of stat, in clock
// ticks since boot), which makes its ID unique across pid reuse.
func children(ppid int) (procs [][]string, start string) {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if parent, _ := statFields(pid); parent != ppid {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		procs = append(procs, strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00"))
	}
	_, start = statFields(ppid)
	return procs, start
}

// statFields are pid's parent and start time from /proc/pid/stat (0, ""
// when it cannot be read).
func statFields(pid int) (ppid int, start string) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, ""
	}
	// The command sits in parentheses and may hold anything: the fields
	// after its last ')' start with the state (field 3).
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return 0, ""
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[19]
}
