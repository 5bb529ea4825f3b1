package room

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// unwritableError is a folder of the store that cannot be created where
// the user runs roundtable (no permission, a read-only file system): what
// to do, in one sentence. It unwraps to the system's error.
type unwritableError struct {
	path string
	err  error
}

func (e *unwritableError) Error() string {
	why := e.err
	var pe *fs.PathError
	if errors.As(e.err, &pe) {
		why = pe.Err
	}
	return fmt.Sprintf("cannot create %s (%v): run roundtable in a folder you can write to, or pass --cwd", e.path, why)
}

func (e *unwritableError) Unwrap() error { return e.err }

// mkdirError words a failure to create the folder p: one the user cannot
// write to says what to do (unwritableError).
func mkdirError(p string, err error) error {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return &unwritableError{path: p, err: err}
	}
	return fmt.Errorf("create %s: %w", p, err)
}

// ResolveDir makes dir absolute (empty: the working directory) and checks
// that it is an existing folder, saying what to do when it is not.
func ResolveDir(dir string) (string, error) {
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return "", fmt.Errorf("find the working directory: %w", err)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("%s does not exist or cannot be read (%w); pass an existing folder", abs, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is a file, not a folder; pass the folder that holds .roundtable", abs)
	}
	return abs, nil
}

// mkdirNoLink creates a folder unless it exists, and refuses a symbolic link
// in its place: a link could point the room outside the cwd.
func mkdirNoLink(p string) error {
	err := os.Mkdir(p, dirMode)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return mkdirError(p, err)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("create %s: %w", p, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s is a symbolic link; rooms must be real folders", ErrUnsafePath, p)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s exists and is not a folder", ErrUnsafePath, p)
	}
	return nil
}

// writeIfAbsent creates path with data unless it exists, atomically: the
// data goes to a temporary file that is then hard-linked to path, so nobody
// ever sees a half-written file and an existing one is never overwritten.
// It returns an error wrapping fs.ErrExist when path exists.
func writeIfAbsent(path string, data []byte) error {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s: %w", path, fs.ErrExist)
	}
	tmp, err := writeTemp(filepath.Dir(path), data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	return os.Link(tmp, path)
}

// writeAtomic replaces path with data through a temporary file and a rename.
func writeAtomic(path string, data []byte) error { return writeAtomicMode(path, data, fileMode) }

// writeAtomicMode is writeAtomic for a file created with mode (before the
// umask) instead of fileMode: 0600 for a file only its owner may read.
func writeAtomicMode(path string, data []byte, mode fs.FileMode) error {
	tmp, err := writeTempMode(filepath.Dir(path), data, mode)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// tempPrefix starts every temporary file name; such names never end in
// .json, so no reader takes them for messages.
const tempPrefix = ".tmp-"

// fileMode and dirMode are what room files and folders are created with,
// before the umask: 0666 and 0777 &^ umask (0644 and 0755 under the usual
// 022), as the original server and every ordinary tool create them. So
// another user, or a reader in a container, can read a room. A private
// room is one umask away (077).
const (
	fileMode fs.FileMode = 0o666
	dirMode  fs.FileMode = 0o777
)

// writeTemp writes data to a new temporary file in dir and returns its
// path. os.CreateTemp would make the file 0600 whatever the umask; this
// creates it with fileMode, so the kernel applies the umask.
func writeTemp(dir string, data []byte) (string, error) { return writeTempMode(dir, data, fileMode) }

func writeTempMode(dir string, data []byte, mode fs.FileMode) (string, error) {
	var f *os.File
	var err error
	for range 100 {
		f, err = os.OpenFile(filepath.Join(dir, tempPrefix+randHex(12)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	// No fsync: the rename makes the file whole for every reader, and a
	// process killed with -9 loses nothing that reached the page cache.
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// errSymlink refuses a symbolic link where a room file should be: a link
// could point a reader at any file of the user's.
var errSymlink = errors.New("a symbolic link, not a file")

// readRegular reads a regular file without following a symbolic link and
// without blocking on a FIFO, refusing files larger than limit.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", fi.Mode().Type())
	}
	if fi.Size() > limit {
		return nil, &TooLargeError{What: "file", Size: int(fi.Size()), Limit: int(limit)}
	}
	// One read of the stated size. A message file never changes once
	// renamed into place; an appended log is read as it was at the stat.
	buf := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, buf)
	switch {
	case err == nil:
		return buf[:fi.Size()], nil
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return buf[:n], nil
	default:
		return nil, err
	}
}

// listNames lists a folder's entry names without sorting or stat calls.
func listNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// insideDir reports whether path, with symbolic links resolved as far as it
// exists, lies inside root.
func insideDir(root, path string) bool {
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	// Resolve the longest existing prefix of path.
	p := path
	var rest []string
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			p = filepath.Join(append([]string{real}, rest...)...)
			break
		}
		parent := filepath.Dir(p)
		if parent == p {
			return false
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
	rel, err := filepath.Rel(rootReal, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
