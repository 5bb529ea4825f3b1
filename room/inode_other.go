//go:build !unix && !windows

package room

import "io/fs"

// inode is 0 where the system gives no file identity: a rescan then compares
// only size and modification time, and the folder watch's events do the rest.
func inode(fs.FileInfo) uint64 { return 0 }
