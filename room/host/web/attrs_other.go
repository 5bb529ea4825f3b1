//go:build !linux

package web

import "os/exec"

// childAttrs: only Linux stops a child when its parent dies; elsewhere a
// host that dies without Close leaves its debates running to their end.
func childAttrs(*exec.Cmd) {}
