//go:build unix && !linux

package debate

import "syscall"

// groupGone reports whether process group pgid is empty (zombies count as
// members here, so a caller waits for them to be reaped, within its bound).
func groupGone(pgid int) bool {
	return syscall.Kill(-pgid, 0) != nil
}
