//go:build unix

package web_test

import (
	"os/exec"
	"syscall"
)

// inGroup starts cmd in a process group of its own, so killGroup ends
// Chromium's helpers too.
func inGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
