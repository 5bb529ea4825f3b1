//go:build unix

package room

import (
	"io/fs"
	"syscall"
)

// inode is the file's inode number: a rescan that sees the same size and
// modification time still tells a file replaced by a rename from the one it
// replaced.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
