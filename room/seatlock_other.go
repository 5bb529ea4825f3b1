//go:build !unix

package room

import (
	"os"
	"strconv"
	"strings"
)

// holderFile is where a seat's holder writes its pid: beside the lock file,
// since on Windows a locked byte range cannot be read by another process.
func holderFile(lockPath string) string { return strings.TrimSuffix(lockPath, ".lock") + ".pid" }

func writeHolder(path string, pid int) error {
	return writeAtomic(path, []byte(strconv.Itoa(pid)+"\n"))
}

func clearHolder(path string) { _ = os.Remove(path) }
