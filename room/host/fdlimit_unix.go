//go:build unix

package host

import "syscall"

// fileLimit is how many files the process may hold open (its soft
// RLIMIT_NOFILE, which Go raises to the hard limit at start), 0 when
// unknown.
func fileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur) //nolint:gosec // bounded above
}
