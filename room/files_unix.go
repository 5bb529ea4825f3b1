//go:build unix

package room

import (
	"errors"
	"os"
	"syscall"
)

// OpenNoFollow opens path for reading without following a symbolic link in
// its last element (O_NOFOLLOW, checked by the kernel in the same call) and
// without blocking on a FIFO (O_NONBLOCK).
func OpenNoFollow(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, errSymlink
	}
	return f, err
}
