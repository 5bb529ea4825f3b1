//go:build unix && !linux

package seatproc

import "syscall"

// onParentDeath does nothing where there is no parent-death signal.
func onParentDeath(*syscall.SysProcAttr) {}
