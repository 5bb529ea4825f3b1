package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// TrashFolder is the folder under .roundtable that deleted rooms are moved
// into. Its name starts with a dot, which no room name may (ValidateName),
// so listing the rooms never shows it or what it holds.
const TrashFolder = ".trash"

// trashStamp dates a trashed room's folder name.
const trashStamp = "20060102T150405Z"

// Trash deletes room name under cwd the way it can be undone: its folder
// is moved, whole, to <cwd>/.roundtable/.trash/<name>-<UTC time>; moving it
// back restores the room. It returns the folder's new path. A room whose
// room.json cannot be read can be trashed too: only the folder has to be
// there.
func Trash(cwd, name string, now time.Time) (string, error) {
	if err := ValidateName(name); err != nil {
		return "", err
	}
	src := Dir(cwd, name)
	fi, err := os.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: %q under %s", ErrNoRoom, name, filepath.Join(cwd, Folder))
	}
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%w: %s is not a folder", ErrNoRoom, src)
	}
	trash := filepath.Join(cwd, Folder, TrashFolder)
	if err := mkdirNoLink(trash); err != nil {
		return "", err
	}
	base := name + "-" + now.UTC().Format(trashStamp)
	dst := filepath.Join(trash, base)
	for i := 2; ; i++ {
		if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
			break
		}
		dst = filepath.Join(trash, fmt.Sprintf("%s-%d", base, i))
	}
	if err := os.Rename(src, dst); err != nil {
		return "", fmt.Errorf("move room %q to %s: %w", name, trash, err)
	}
	return dst, nil
}

// LiveSeats are the seats that server.log in room folder dir shows
// connected (not disconnected, not absent) and whose process, when the log
// names it, still runs on this machine. Trashing a room under a live seat
// pulls it from under an agent that is still talking in it.
func LiveSeats(dir string) ([]SeatInfo, error) {
	seats, err := ReadSeats(dir)
	if err != nil {
		return nil, err
	}
	var live []SeatInfo
	for _, s := range seats {
		if s.State == StateDisconnected || s.State == StateAbsent {
			continue
		}
		if s.PID > 0 && !processAlive(s.PID) {
			continue
		}
		live = append(live, s)
	}
	return live, nil
}

// processAlive reports whether pid runs: signal 0 tests it without
// touching it. Where that cannot be asked (Windows), the process counts as
// running, so the caller warns rather than stays silent.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
