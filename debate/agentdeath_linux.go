package debate

import "syscall"

// dieWithUs has the kernel kill the agent if roundtable itself is killed
// (SIGKILL leaves no chance to stop it): the agent's pipes then close and
// what it started sees them close.
func dieWithUs(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
