//go:build unix

package room

import (
	"os"
	"strconv"
)

// holderFile is where a seat's holder writes its pid: on Unix the lock file
// itself, since flock is advisory and the file stays readable.
func holderFile(lockPath string) string { return lockPath }

func writeHolder(path string, pid int) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, fileMode)
	if err != nil {
		return err
	}
	_, err = f.WriteString(strconv.Itoa(pid) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// clearHolder empties the lock file, so a pid is never read from a seat
// nobody holds.
func clearHolder(path string) { _ = os.Truncate(path, 0) }
