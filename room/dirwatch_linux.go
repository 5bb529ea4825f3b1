package room

import "syscall"

// Filesystem magic numbers (statfs f_type) of local filesystems, where
// inotify reports every change made to a watched folder.
var localFSTypes = map[int64]bool{
	0xEF53:     true, // ext2, ext3, ext4
	0x58465342: true, // xfs
	0x9123683E: true, // btrfs
	0x01021994: true, // tmpfs
	0x794C7630: true, // overlayfs
	0xF2F52010: true, // f2fs
	0x2FC12FC1: true, // zfs
	0x3153464A: true, // jfs
	0x52654973: true, // reiserfs
}

// eventsComplete reports whether inotify sees every change under path:
// true on a local filesystem; false on a network or FUSE one (NFS, SMB,
// 9p, sshfs), where a change made on another machine sends no event, or
// when path cannot be examined.
func eventsComplete(path string) bool {
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) != nil {
		return false
	}
	return localFSTypes[int64(st.Type)]
}
