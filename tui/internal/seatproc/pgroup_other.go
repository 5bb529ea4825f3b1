//go:build !unix

package seatproc

import "os/exec"

// setGroup does nothing where there are no process groups.
func setGroup(*exec.Cmd) {}

// signalGroup kills the process itself: there is no group to signal and
// no SIGTERM to ask politely with.
func signalGroup(cmd *exec.Cmd, _ bool) {
	_ = cmd.Process.Kill()
}
