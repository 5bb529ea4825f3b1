//go:build llm

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The product's side of the real-agent tests: the roundtable binary, run as
// separate processes with an agent's isolated environment, and a watch on
// every process those runs start.

var (
	builtOnce sync.Once
	builtBin  string
	builtErr  error
)

// roundtableBin builds the roundtable binary (with the race detector, so a
// race in the ACP path under a real agent fails the test) once per process.
func roundtableBin(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "roundtable-llm-bin-")
		if err != nil {
			builtErr = err
			return
		}
		builtBin = filepath.Join(dir, "roundtable")
		out, err := exec.Command("go", "build", "-race", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			builtErr = &buildError{err: err, out: string(out)}
		}
	})
	if builtErr != nil {
		t.Fatalf("go build: %v", builtErr)
	}
	return builtBin
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// withRace makes the race-enabled binary exit without its 1 s pause and
// fail (exit 66) on a race.
func withRace(env []string) []string {
	return append(slices.Clone(env), "GORACE=atexit_sleep_ms=0 exitcode=66")
}

// runIn runs the binary in cwd with env and returns its output and exit
// code. A run still going after runTimeout gets SIGTERM (roundtable then
// stops its agents), and SIGKILL 10 s later.
func runIn(t *testing.T, env []string, cwd string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, roundtableBin(t), args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	cmd.Dir = cwd
	cmd.Env = withRace(env)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("roundtable %s ran for over %v; stopped", strings.Join(args, " "), runTimeout)
	}
	code = 0
	if err != nil {
		code = -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
	}
	return out.String(), errb.String(), code
}

// runTimeout bounds one roundtable run with a real agent: start-up is up
// to 10 s per agent, a turn of the tiny model a few seconds.
const runTimeout = 6 * time.Minute

// procWatch samples /proc while a test runs and remembers every process
// group that held a process marked with the test's HOME, other than the
// processes the test started itself: the agents' groups.
type procWatch struct {
	marker string
	skip   func(pid int) bool
	stop   chan struct{}
	done   chan struct{}

	once   sync.Once
	mu     sync.Mutex
	groups map[int]string // pgid -> a command line seen in it
}

// watchProcs starts the watch; when the test ends (also by t.Fatal) the
// watch is finished, failing the test on anything left and killing it.
func watchProcs(t *testing.T, marker string, skip func(pid int) bool) *procWatch {
	w := &procWatch{marker: marker, skip: skip, stop: make(chan struct{}), done: make(chan struct{}), groups: map[int]string{}}
	t.Cleanup(func() { w.finish(t) })
	go func() {
		defer close(w.done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			w.sample()
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *procWatch) sample() {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || w.skip(pid) {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !slices.Contains(strings.Split(string(env), "\x00"), w.marker) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 3 {
			continue
		}
		pgid, err := strconv.Atoi(f[2])
		if err != nil {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		w.mu.Lock()
		if _, ok := w.groups[pgid]; !ok {
			w.groups[pgid] = shortCmd(cmd)
		}
		w.mu.Unlock()
	}
}

// waitGroup waits until an agent's group has been seen, and returns false
// when none is seen within d.
func (w *procWatch) waitGroup(d time.Duration) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		w.mu.Lock()
		n := len(w.groups)
		w.mu.Unlock()
		if n > 0 {
			return true
		}
	}
	return false
}

// finish stops sampling and fails the test when any group seen, or any
// process with the marker, is still running; it returns the groups seen.
func (w *procWatch) finish(t *testing.T) map[int]string {
	t.Helper()
	w.once.Do(func() {
		close(w.stop)
		<-w.done
		w.mu.Lock()
		groups := w.groups
		w.mu.Unlock()
		for pgid := range groups {
			checkNoLeftovers(t, pgid, "")
		}
		checkNoLeftovers(t, 0, w.marker)
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.groups
}

// isOwnGroup reports whether pid leads the group of the test process
// itself; the roundtable processes a test starts stay in that group, while
// every agent gets a group of its own.
func isOwnGroup(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return true
	}
	f := strings.Fields(string(stat[i+1:]))
	return len(f) < 3 || f[2] == strconv.Itoa(ownPgid)
}

var ownPgid = func() int {
	pg, err := syscall.Getpgid(os.Getpid())
	if err != nil {
		return -1
	}
	return pg
}()

// shortCmd is a /proc cmdline as one short line for the log.
func shortCmd(cmdline []byte) string {
	s := strings.Join(strings.Fields(strings.ReplaceAll(string(cmdline), "\x00", " ")), " ")
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}

// TestLLMHarnessSeesLeftovers shows the watch the agent tests rely on can
// fail: a process in a group of its own, marked with the test's HOME, is
// seen while it runs and reported as left over until it is gone.
func TestLLMHarnessSeesLeftovers(t *testing.T) {
	home := t.TempDir()
	marker := "HOME=" + home
	w := watchProcs(t, marker, isOwnGroup)
	cmd := exec.Command("sleep", "60")
	cmd.Env = []string{marker, "PATH=" + os.Getenv("PATH")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if !w.waitGroup(10 * time.Second) {
		t.Fatal("the watch did not see a marked process in its own group")
	}
	if left := leftovers(pid, ""); len(left) != 1 || !strings.Contains(left[0], "sleep 60") {
		t.Fatalf("leftovers of group %d: %v", pid, left)
	}
	if left := leftovers(0, marker); len(left) != 1 {
		t.Fatalf("leftovers with %s: %v", marker, left)
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = cmd.Wait()
	if left := leftovers(pid, marker); len(left) != 0 {
		t.Fatalf("still reported after it exited: %v", left)
	}
	if groups := w.finish(t); groups[pid] == "" {
		t.Fatalf("groups seen %v, want %d", groups, pid)
	}
}

// watched is a started process whose exit is awaited in the background:
// done closes once it has exited, with err set.
type watched struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// startWatched starts cmd and waits for it in the background.
func startWatched(t *testing.T, cmd *exec.Cmd) *watched {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &watched{cmd: cmd, done: make(chan struct{})}
	go func() { w.err = cmd.Wait(); close(w.done) }()
	return w
}

// kill kills the process unless it has exited, and waits until it has.
func (w *watched) kill() {
	select {
	case <-w.done:
	default:
		_ = w.cmd.Process.Kill()
		<-w.done
	}
}

// stopWith sends sig, waits up to 20 s for the process to exit, fails the
// test unless it exits with 130 (interrupted, after saving), and returns
// how long the exit took. stderr is shown when it fails.
func (w *watched) stopWith(t *testing.T, sig os.Signal, stderr fmt.Stringer) time.Duration {
	t.Helper()
	sent := time.Now()
	if err := w.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s still runs 20 s after %v; stderr: %s", filepath.Base(w.cmd.Path), sig, stderr)
	}
	took := time.Since(sent)
	var ee *exec.ExitError
	if !errors.As(w.err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit %v after %v, want 130; stderr: %s", w.err, sig, stderr)
	}
	return took
}
