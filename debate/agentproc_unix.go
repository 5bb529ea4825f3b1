//go:build unix

package debate

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so the agent and
// everything it starts (MCP servers, tool processes) can be killed at once:
// several agents do not exit when their stdin closes.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process group led by pid: the agent and what it
// started.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
