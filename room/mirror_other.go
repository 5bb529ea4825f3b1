//go:build !unix

package room

import (
	"io/fs"
	"os"
)

// openLogNoFollow opens a log for appending (emptied when trunc), creating
// it, unless a symbolic link is in its place: without O_NOFOLLOW the check
// and the open are two steps.
func openLogNoFollow(path string, trunc bool) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, errSymlink
	}
	flags := os.O_WRONLY | os.O_APPEND | os.O_CREATE
	if trunc {
		flags |= os.O_TRUNC
	}
	return os.OpenFile(path, flags, fileMode)
}
