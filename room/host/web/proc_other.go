//go:build !unix

package web

import "os"

// terminate stops a debate; without signals it is a kill, and the room
// is left as a debate whose process died (roundtable debate --resume).
func terminate(p *os.Process) error { return p.Kill() }
