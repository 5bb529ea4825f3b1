package room

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

// TestMkdirErrorSaysWhatToDo: a store folder that cannot be created for
// want of permission (or on a read-only file system) says so and what to
// do, and is still the system's error underneath; another failure keeps
// the plain wording. (Tests run as root, whom permissions do not stop, so
// the system's errors are made here.)
func TestMkdirErrorSaysWhatToDo(t *testing.T) {
	const p = "/work/.roundtable"
	for _, errno := range []syscall.Errno{syscall.EACCES, syscall.EPERM, syscall.EROFS} {
		sys := &fs.PathError{Op: "mkdir", Path: p, Err: errno}
		err := mkdirError(p, sys)
		want := "cannot create " + p + " (" + errno.Error() + "): run roundtable in a folder you can write to, or pass --cwd"
		if err.Error() != want || !errors.Is(err, errno) {
			t.Errorf("%v: %q (is the errno: %v); want %q", errno, err, errors.Is(err, errno), want)
		}
	}
	sys := &fs.PathError{Op: "mkdir", Path: p, Err: syscall.ENOSPC}
	if err := mkdirError(p, sys); !strings.HasPrefix(err.Error(), "create "+p+": ") || strings.Contains(err.Error(), "--cwd") || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("no space: %q", err)
	}
}
