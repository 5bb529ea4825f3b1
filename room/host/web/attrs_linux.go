package web

import (
	"os/exec"
	"syscall"
)

// childAttrs makes a debate stop (SIGTERM) if the host dies without
// stopping it.
func childAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
