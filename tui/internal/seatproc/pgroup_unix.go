//go:build unix

package seatproc

import (
	"os/exec"
	"syscall"
)

// setGroup starts the command as the leader of a new process group, and,
// where the system allows, has it sent SIGTERM should the app die without
// stopping it (killed, or its terminal closed).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	onParentDeath(cmd.SysProcAttr)
}

// signalGroup sends SIGTERM (or SIGKILL) to the command's whole group.
// A group that is gone already is fine.
func signalGroup(cmd *exec.Cmd, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
