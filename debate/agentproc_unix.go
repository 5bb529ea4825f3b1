//go:build unix

package debate

import (
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts cmd in a process group of its own, so the agent and
// everything it starts (MCP servers, tool processes) can be killed at once:
// several agents do not exit when their stdin closes.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithUs(cmd.SysProcAttr)
}

// killGroup kills the process group the agent leads: the agent and what
// it started. It waits (up to a second) until the kernel reports the group
// empty, so "stopped" means gone.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	pgid := cmd.Process.Pid
	if syscall.Kill(-pgid, syscall.SIGKILL) != nil {
		return // nobody left
	}
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		if groupGone(pgid) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}
