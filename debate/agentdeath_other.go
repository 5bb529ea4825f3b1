//go:build unix && !linux

package debate

import "syscall"

// dieWithUs does nothing where the kernel cannot tie a child's life to
// its parent's.
func dieWithUs(*syscall.SysProcAttr) {}
