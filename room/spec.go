package room

import (
	"errors"
	"fmt"
	"path/filepath"
)

// MaxSpecBytes is the largest spec ReadSpec reads: a larger file is for an
// editor, not a screen.
const MaxSpecBytes = 4 << 20

// SpecFor is the spec a room names: the path its closed.json names when
// the room was closed naming one, else room.json's spec. It is relative to
// the room's cwd and made safe the way the store settles a spec path
// (SafeSpec), since closed.json is written by other processes.
func SpecFor(cfg Config, closed *Closed) string {
	if closed != nil && closed.SpecPath != "" {
		spec, _ := SafeSpec(cfg.Room, closed.SpecPath)
		return spec
	}
	spec, _ := SafeSpec(cfg.Room, cfg.Spec)
	return spec
}

// ReadSpec reads the room's spec file. spec is its path relative to the
// cwd as the room names it (SpecFor); empty means room.json's. The path is
// made safe again, and the file is read only if it lies inside the cwd, is
// a regular file (not a symbolic link, not a FIFO that would block) and is
// at most MaxSpecBytes; a larger one is a *TooLargeError.
func (r *Room) ReadSpec(spec string) ([]byte, error) {
	if spec == "" {
		spec = r.cfg.Spec
	}
	spec, _ = SafeSpec(r.cfg.Room, spec)
	path := filepath.Join(r.cwd, filepath.FromSlash(spec))
	if !insideDir(r.cwd, path) {
		return nil, fmt.Errorf("%w: the spec %s leads outside %s", ErrUnsafePath, spec, r.cwd)
	}
	data, err := readRegular(path, MaxSpecBytes)
	if tl := (*TooLargeError)(nil); errors.As(err, &tl) {
		tl.What = "spec"
	}
	return data, err
}
