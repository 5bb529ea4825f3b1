//go:build !linux

package mcpserver

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// children are the arguments of every process whose parent is ppid, as ps
// lists them (split at spaces: enough to find --room= and --seat=), where
// there is a ps; none elsewhere (Windows), where a seat server takes its
// seat at once as before.
func children(ppid int) (procs [][]string, start string) {
	out, err := exec.Command("ps", "-A", "-o", "ppid=,pid=,args=").Output()
	if err != nil {
		return nil, ""
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		parent, _ := strconv.Atoi(f[0])
		pid, _ := strconv.Atoi(f[1])
		if parent == ppid && pid != os.Getpid() {
			procs = append(procs, f[2:])
		}
	}
	return procs, ""
}
