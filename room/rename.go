package room

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrRoomExists is the cause when a room's new name is taken.
var ErrRoomExists = errors.New("a room of that name exists")

// ErrSeatsConnected is the cause when a room cannot be moved because a seat
// is still connected to it.
var ErrSeatsConnected = errors.New("a seat is still connected")

// Rename gives room from under cwd the name to: its folder is moved whole,
// then room.json's room, its spec path when it was the default
// (SPEC-<from>.md, the file moving along when it exists) and the seat
// prompts are rewritten to name the room to. It refuses a name that is not
// valid or already taken, and a room in use (InUse: a seat still
// connected, or a live process running its debate), whose agent or run
// would lose it. A spec path chosen by hand stays.
func Rename(cwd, from, to string) error {
	if err := ValidateName(from); err != nil {
		return err
	}
	if err := ValidateName(to); err != nil {
		return fmt.Errorf("new name: %w", err)
	}
	if from == to {
		return nil
	}
	src, dst := Dir(cwd, from), Dir(cwd, to)
	fi, err := os.Lstat(src)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %q under %s", ErrNoRoom, from, filepath.Join(cwd, Folder))
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a folder", ErrNoRoom, src)
	}
	var busy *InUseError
	if err := InUse(cwd, from); errors.As(err, &busy) {
		return fmt.Errorf("%w: rename it once its agents have left and its debate has stopped", busy)
	}
	if err := moveRoom(src, dst, to); err != nil {
		return err
	}
	if err := renamed(cwd, dst, from, to); err != nil {
		return fmt.Errorf("room %q is now %q, but what names it inside was not updated: %w", from, to, err)
	}
	return nil
}

// Restore moves a room folder out of the trash (a path Trash returned)
// back to .roundtable/<name> under cwd. It refuses when that name has been
// taken since.
func Restore(cwd, trashed, name string) error {
	if err := ValidateName(name); err != nil {
		return err
	}
	trash := filepath.Join(cwd, Folder, TrashFolder)
	if filepath.Dir(filepath.Clean(trashed)) != filepath.Clean(trash) {
		return fmt.Errorf("%s is not in the trash folder %s", trashed, trash)
	}
	if _, err := os.Lstat(trashed); err != nil {
		return fmt.Errorf("the trashed room %q is no longer at %s: %w", name, trashed, err)
	}
	return moveRoom(trashed, Dir(cwd, name), name)
}

// moveRoom renames folder src to dst, refusing to replace anything there.
func moveRoom(src, dst, name string) error {
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("%w: %q (%s); choose another name", ErrRoomExists, name, dst)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("move %s to %s: %w", src, dst, err)
	}
	return nil
}
