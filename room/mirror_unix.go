//go:build unix

package room

import (
	"errors"
	"os"
	"syscall"
)

// openLogNoFollow opens a log for appending (emptied when trunc), creating
// it, without following a symbolic link in its place (O_NOFOLLOW) and
// without blocking on a FIFO.
func openLogNoFollow(path string, trunc bool) (*os.File, error) {
	flags := os.O_WRONLY | os.O_APPEND | os.O_CREATE | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
	if trunc {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, fileMode)
	if errors.Is(err, syscall.ELOOP) {
		return nil, errSymlink
	}
	return f, err
}
