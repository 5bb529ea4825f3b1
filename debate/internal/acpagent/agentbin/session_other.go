//go:build !unix

package main

import "os/exec"

// newSession does nothing where there are no sessions: the child stays
// with the agent.
func newSession(*exec.Cmd) {}
