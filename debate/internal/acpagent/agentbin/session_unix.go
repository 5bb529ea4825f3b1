//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// newSession starts c in a session (and process group) of its own, as
// codex starts its shell snapshot: out of the agent's group.
func newSession(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
