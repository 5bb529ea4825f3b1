//go:build windows

package room

import (
	"io/fs"
	"syscall"
)

// inode stands in for an inode number, which Windows does not give through
// a FileInfo: the file's creation time. A file renamed into place over
// another keeps its own creation time, so a rescan still tells the two
// apart unless both were created in the same 100 ns tick.
func inode(fi fs.FileInfo) uint64 {
	if d, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		return uint64(d.CreationTime.Nanoseconds())
	}
	return 0
}
