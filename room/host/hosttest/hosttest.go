// Package hosttest runs the roundtable binary for the end-to-end tests of
// room/host and room/mcpserver: Main builds it once per test binary; Run
// runs a command of it; StartSeat starts a seat over stdio (mcp-go's
// client) and Start a host over HTTP, which ConnectHTTP reaches with the
// official Go SDK's client (an SDKSeat, as a seat process is reached by
// room/mcpserver's tests); ProcCPU and ReadProcMem measure a process for
// the benchmarks. Only tests import it.
package hosttest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// binary is the roundtable binary Main built for the tests of a package.
var binary string

// Main builds roundtable with the race detector into a temporary folder,
// runs the package's tests and exits with their code, the folder removed.
// A package's TestMain is `func TestMain(m *testing.M) { hosttest.Main(m) }`.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "roundtable-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "roundtable")
	build := exec.Command("go", "build", "-race", "-o", binary, "github.com/roundtable-dev/roundtable/cmd/roundtable")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building roundtable:", err)
		os.Exit(1)
	}
	// The race runtime sleeps 1 s at exit by default; seat processes are
	// measured on how fast they leave, so not here.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Binary is the roundtable binary Main built (with -race).
func Binary() string {
	if binary == "" {
		panic("hosttest: Binary called before Main built it; the package's TestMain must call hosttest.Main")
	}
	return binary
}

var (
	plainOnce   sync.Once
	plainBinary string
)

// PlainBinary builds roundtable without the race detector, for measurements.
func PlainBinary(tb testing.TB) string {
	tb.Helper()
	plainOnce.Do(func() {
		plainBinary = filepath.Join(filepath.Dir(Binary()), "roundtable-plain")
		out, err := exec.Command("go", "build", "-o", plainBinary, "github.com/roundtable-dev/roundtable/cmd/roundtable").CombinedOutput()
		if err != nil {
			tb.Fatalf("build: %v\n%s", err, out)
		}
	})
	return plainBinary
}

// Run runs the binary with args, stdin empty, and returns what it printed
// and its exit code.
func Run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return RunEnv(t, nil, args...)
}

// RunEnv is Run with env added to the environment.
func RunEnv(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(Binary(), args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Stdin = bytes.NewReader(nil)
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// LockedBuffer is a buffer a process (or a transport's stderr goroutine)
// writes while the test reads it. The zero value is ready.
type LockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
