// Package seatproc starts and stops the `roundtable seat` processes the
// terminal app runs for the seats of an MCP room that roundtable plays
// (a model or an ACP agent). Each runs in a process group of its own, so
// stopping it also stops the agent and the MCP servers it started; its
// stderr goes to a log file in the room's folder, and the last line of
// that log is kept as the reason when it exits with an error.
package seatproc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Grace is how long Stop waits after SIGTERM before it kills a group.
const Grace = 2 * time.Second

// Status is what is known of a seat process.
type Status struct {
	Room, Seat string
	// Mind is what plays the seat (Spec.Mind).
	Mind string
	PID  int
	// Log is the path of the file its stderr goes to.
	Log string
	// Running is true until the process has exited.
	Running bool
	// Stopped is true when the app stopped it (it did not fail).
	Stopped bool
	// Err is set when it exited with an error: the exit status, and
	// LastLine the last line it wrote to stderr.
	Err      error
	LastLine string
}

// Failed reports whether the process ended by itself with an error.
func (s Status) Failed() bool { return !s.Running && !s.Stopped && s.Err != nil }

// ExitedMsg tells the app's screens that a seat process it started has
// exited (a tea.Msg).
type ExitedMsg struct{ Status Status }

// Proc is one started seat process.
type Proc struct {
	g    *Group
	cmd  *exec.Cmd
	done chan struct{}
	idx  int // its entry in g.procs
}

// Group is every seat process the app started. Its methods are safe for
// concurrent use; none blocks but Wait and StopAll.
type Group struct {
	mu     sync.Mutex
	procs  []*Proc
	status []Status
	closed bool
}

// ErrClosed is returned by Start once StopAll has run.
var ErrClosed = errors.New("the app is quitting: no seat is started")

// Start runs the seat process s describes, in a process group of its own,
// with stderr appended to roomDir/seat-<seat>.log and stdin and stdout
// discarded. It returns once the process runs.
func (g *Group) Start(s Spec, roomDir string, env []string) (*Proc, error) {
	logPath := filepath.Join(roomDir, LogName(s.Seat))
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil, ErrClosed
	}
	logf, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the seat's log: %w", err)
	}
	defer logf.Close() // the child holds its own copy
	argv := s.Argv()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.Cwd
	cmd.Env = env
	cmd.Stderr = logf
	setGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", filepath.Base(argv[0]), err)
	}
	p := &Proc{g: g, cmd: cmd, done: make(chan struct{}), idx: len(g.procs)}
	g.procs = append(g.procs, p)
	g.status = append(g.status, Status{Room: s.Room, Seat: s.Seat, Mind: s.Mind(), PID: cmd.Process.Pid, Log: logPath, Running: true})
	go p.reap()
	return p, nil
}

// reap waits for the process and records how it ended.
func (p *Proc) reap() {
	err := p.cmd.Wait()
	p.g.mu.Lock()
	st := &p.g.status[p.idx]
	st.Running = false
	if err != nil && !st.Stopped {
		st.Err = err
		log := st.Log
		p.g.mu.Unlock()
		last := lastLine(log)
		p.g.mu.Lock()
		p.g.status[p.idx].LastLine = last
	}
	p.g.mu.Unlock()
	close(p.done)
}

// PID is the process's id (and its group's).
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// Wait blocks until the process has exited and returns its status.
func (p *Proc) Wait() Status {
	<-p.done
	return p.Status()
}

// Status is the process's status now.
func (p *Proc) Status() Status {
	p.g.mu.Lock()
	defer p.g.mu.Unlock()
	return p.g.status[p.idx]
}

// Lookup is the process that plays a seat of a room: the one running, or
// else the latest started (a second start for a seat that is played is
// refused by the seat itself, and must not hide the one playing it).
func (g *Group) Lookup(roomName, seat string) (Status, bool) {
	if g == nil {
		return Status{}, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	found := -1
	for i := len(g.status) - 1; i >= 0; i-- {
		if s := g.status[i]; s.Room == roomName && s.Seat == seat {
			if s.Running {
				return s, true
			}
			if found < 0 {
				found = i
			}
		}
	}
	if found < 0 {
		return Status{}, false
	}
	return g.status[found], true
}

// StopAll stops every process still running: SIGTERM to its group, then,
// after grace, SIGKILL to the groups still there. It waits until each has
// exited and returns the ones it stopped. Start fails afterwards.
func (g *Group) StopAll(grace time.Duration) []Status {
	g.mu.Lock()
	g.closed = true
	var live, exited []*Proc
	for i, p := range g.procs {
		if g.status[i].Running {
			g.status[i].Stopped = true
			live = append(live, p)
		} else {
			exited = append(exited, p)
		}
	}
	g.mu.Unlock()
	// A seat that ended by itself may have left what it started (an
	// agent, its MCP servers) in its group.
	for _, p := range exited {
		signalGroup(p.cmd, true)
	}
	for _, p := range live {
		signalGroup(p.cmd, false)
	}
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	out := make([]Status, 0, len(live))
	for _, p := range live {
		select {
		case <-p.done:
		case <-deadline.C:
			for _, q := range live {
				signalGroup(q.cmd, true)
			}
			<-p.done
		}
		// The seat itself may be gone while what it started lingers in
		// its group: kill what is left.
		signalGroup(p.cmd, true)
		out = append(out, p.Status())
	}
	return out
}

// tailBytes is how much of a log's end lastLine reads.
const tailBytes = 8 << 10

// lastLine is the last line of the file at path that says something: not
// empty, nor roundtable's "Try roundtable --help" pointer that follows a
// usage error; roundtable's "roundtable: " prefix is dropped. "" when
// there is none.
func lastLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > tailBytes {
		_, _ = f.Seek(-tailBytes, io.SeekEnd)
	}
	data, _ := io.ReadAll(io.LimitReader(f, tailBytes))
	lines := bytes.Split(data, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(string(lines[i]))
		if l == "" || strings.HasPrefix(l, "Try roundtable ") {
			continue
		}
		return strings.TrimPrefix(l, "roundtable: ")
	}
	return ""
}
