//go:build crashtest

package room

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

var crashHits atomic.Int64

// crashPoint kills the process with SIGKILL at the Nth time it reaches the
// point named by ROUNDTABLE_CRASH_AT=name:N. Only the crashtest build has it;
// the reliability suite uses it to die between a temp write and its rename,
// or while holding the room lock.
func crashPoint(name string) {
	want, nth, ok := strings.Cut(os.Getenv("ROUNDTABLE_CRASH_AT"), ":")
	if !ok || want != name {
		return
	}
	n, err := strconv.Atoi(nth)
	if err != nil {
		return
	}
	if crashHits.Add(1) == int64(n) {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}
