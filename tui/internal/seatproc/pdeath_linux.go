package seatproc

import "syscall"

// onParentDeath asks Linux to send the seat SIGTERM when the app's thread
// that started it ends: the app was killed or lost its terminal. The Go
// runtime never ends a thread that has not been locked, so this fires only
// when the app is gone; the seat then stops its agents as on any SIGTERM.
func onParentDeath(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
