//go:build unix

package web

import (
	"os"
	"syscall"
)

// terminate asks a debate to stop as a terminal's Ctrl-C would: it keeps
// what was said and writes closed.json.
func terminate(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
