//go:build !unix

package room

import (
	"fmt"
	"io/fs"
	"os"
)

// OpenNoFollow opens path for reading unless it is a symbolic link. Without
// O_NOFOLLOW (Windows has no such open flag) the check and the open are two
// steps: the link test is made with Lstat, and the file then opened is
// compared with the one tested, so a link swapped in between is refused
// rather than followed. Windows has no FIFOs to block on.
func OpenNoFollow(path string) (*os.File, error) {
	before, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if before.Mode()&fs.ModeSymlink != 0 {
		return nil, errSymlink
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	after, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !os.SameFile(before, after) {
		f.Close()
		return nil, fmt.Errorf("%s changed while it was opened; try again", path)
	}
	return f, nil
}
