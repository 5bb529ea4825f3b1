package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/roundtable-dev/roundtable/room"
)

// A debate started through the web face runs as a headless child of the
// host (roundtable debate --format jsonl), in a new room under the host's
// folder, with the host's provider settings and budgets: the child's
// crash is not the host's, and it stops as a debate stopped from its
// terminal does (SIGTERM: the turn in progress is kept and closed.json
// says why). Its output goes to LogFile in its room, never to the host's
// stdout; its personas, when the request names them, to PersonasFile.
// The host serves the room once its room.json is written (Serve), and
// stops every child when it stops (Close).

// The files a started debate adds to its room.
const (
	LogFile      = "debate.log"
	PersonasFile = "web-personas.toml"
)

// MaxRunning is how many debates a host runs at once for the web face.
const MaxRunning = 8

// roomWait is how long a start waits for the child's room.
const roomWait = 30 * time.Second

// debateRequest is a checked POST /api/sessions.
type debateRequest struct {
	Topic    string
	Rounds   int
	Personas []Persona // nil: the default panel
	// The debate's caps (Limits): MaxTokensTotal always, MaxCost when
	// more than 0 and CostCounted (the provider counts a cost).
	MaxTokensTotal int
	MaxCost        float64
	CostCounted    bool
	// Rank and Stances are roundtable debate's --rank and --stances.
	Rank, Stances bool
}

// Starter starts debates as children of the host.
type Starter struct {
	// Exe is the roundtable binary (os.Executable()).
	Exe string
	// Cwd is the folder whose .roundtable/ holds the rooms.
	Cwd string
	// Args are the host's debate flags, passed to every debate: provider,
	// model, base URL (--flag=value each); the caps come with each
	// request (debateRequest).
	Args []string
	// RoomName names a debate's room (Engine.RoomName).
	RoomName func(topic string, t time.Time) string
	// Serve serves a new room from the host (and prints its tokens).
	Serve func(ctx context.Context, r *room.Room) error
	// Stop is how long Close lets the debates write their end before
	// killing them; 0: 10 s.
	Stop time.Duration

	mu      sync.Mutex
	running map[string]*exec.Cmd
	closed  bool
	wg      sync.WaitGroup
}

// errStopping refuses a start while the host stops.
var errStopping = errors.New("the host is stopping; start the debate on another host, or once this one runs again")

// busyError is a start refused because too many debates run.
type busyError struct{ n int }

func (e *busyError) Error() string {
	return fmt.Sprintf("the host already runs %d debates started here, the most it runs at once; wait for one to finish, then retry", e.n)
}

// newRoomName is a fresh room name for a debate on topic started now:
// the name `roundtable debate` gives it (the topic's slug and the time),
// and a few random letters, since two may start in one second.
func newRoomName(roomName func(string, time.Time) string, topic string, now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	name := roomName(topic, now.UTC())
	if err := room.ValidateName(name + "-" + hex.EncodeToString(b[:])); err != nil {
		name = roomName("", now.UTC())
	}
	return name + "-" + hex.EncodeToString(b[:])
}

// Start starts the debate req in a new room and returns the room's name
// once the host serves it.
func (s *Starter) Start(ctx context.Context, req debateRequest) (string, error) {
	name := newRoomName(s.RoomName, req.Topic, time.Now())
	top := filepath.Join(s.Cwd, room.Folder)
	dir := filepath.Join(top, name)
	if err := os.MkdirAll(top, 0o755); err != nil {
		return "", fmt.Errorf("create %s for the debate's room: %w; check the host's folder", top, err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("create the debate's room folder %s: %w; check the host's folder", dir, err)
	}
	args := []string{
		"debate", "--room=" + name, "--cwd=" + s.Cwd, "--topic=" + req.Topic,
		"--rounds=" + strconv.Itoa(req.Rounds), "--format=jsonl",
	}
	if req.Personas != nil {
		path := filepath.Join(dir, PersonasFile)
		if err := writePersonas(path, req.Personas); err != nil {
			_ = os.RemoveAll(dir)
			return "", err
		}
		args = append(args, "--personas="+path, "--no-user-personas")
	}
	if req.MaxTokensTotal > 0 {
		args = append(args, "--max-tokens-total="+strconv.Itoa(req.MaxTokensTotal))
	}
	if req.Rank {
		args = append(args, "--rank")
	}
	if req.Stances {
		args = append(args, "--stances")
	}
	if req.MaxCost > 0 && req.CostCounted {
		args = append(args, "--max-cost="+strconv.FormatFloat(req.MaxCost, 'f', -1, 64))
	}
	args = append(args, s.Args...)
	log, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_EXCL, 0o600)
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("create the debate's log in %s: %w", dir, err)
	}
	cmd := exec.Command(s.Exe, args...)
	cmd.Dir = s.Cwd
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	childAttrs(cmd)

	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		log.Close()
		_ = os.RemoveAll(dir)
		return "", errStopping
	}
	if len(s.running) >= MaxRunning {
		n := len(s.running)
		s.mu.Unlock()
		log.Close()
		_ = os.RemoveAll(dir)
		return "", &busyError{n}
	}
	if err := cmd.Start(); err != nil {
		s.mu.Unlock()
		log.Close()
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("start the debate (%s): %w", s.Exe, err)
	}
	if s.running == nil {
		s.running = map[string]*exec.Cmd{}
	}
	s.running[name] = cmd
	s.wg.Add(1)
	s.mu.Unlock()
	exited := make(chan struct{})
	go func() {
		defer s.wg.Done()
		_ = cmd.Wait()
		log.Close()
		s.mu.Lock()
		delete(s.running, name)
		s.mu.Unlock()
		close(exited)
	}()
	r, err := waitRoom(ctx, s.Cwd, name, exited)
	if err != nil {
		why := lastLine(filepath.Join(dir, LogFile))
		if _, serr := os.Stat(filepath.Join(dir, "room.json")); errors.Is(serr, os.ErrNotExist) {
			s.stopOne(cmd, exited)
			_ = os.RemoveAll(dir)
		}
		if why != "" {
			return "", fmt.Errorf("the debate did not start: %s", why)
		}
		return "", fmt.Errorf("the debate did not start: %w", err)
	}
	if err := s.Serve(ctx, r); err != nil {
		return "", fmt.Errorf("the debate runs in room %s, but the host cannot serve it: %w", name, err)
	}
	return name, nil
}

// waitRoom waits for room name's room.json, until the child exits or
// roomWait passes.
func waitRoom(ctx context.Context, cwd, name string, exited <-chan struct{}) (*room.Room, error) {
	deadline := time.Now().Add(roomWait)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		r, err := room.Open(cwd, name)
		if err == nil {
			return r, nil
		}
		if !errors.Is(err, room.ErrNoRoom) {
			return nil, err
		}
		select {
		case <-exited:
			if r, err := room.Open(cwd, name); err == nil {
				return r, nil
			}
			return nil, errors.New("it exited before creating its room")
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("its room did not appear within %s", roomWait)
			}
		}
	}
}

// lastLine is the last non-blank line of the file at path (a child's
// log), for an error.
func lastLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	last := ""
	// The last line that says what went wrong, not the command's hint
	// at its help ("Try roundtable --help").
	for i := len(lines) - 1; i >= 0 && last == ""; i-- {
		if l := strings.TrimSpace(lines[i]); !strings.HasPrefix(l, "Try roundtable") {
			last = l
		}
	}
	if len(last) > 500 {
		last = last[:500] + "…"
	}
	return last
}

// writePersonas writes the personas as a persona file (TOML) at path.
func writePersonas(path string, ps []Persona) error {
	var buf bytes.Buffer
	buf.WriteString("# The personas of a debate started through roundtable host's web API.\n")
	if err := toml.NewEncoder(&buf).Encode(struct {
		Persona []Persona `toml:"persona"`
	}{ps}); err != nil {
		return fmt.Errorf("write the debate's personas: %w", err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("write the debate's personas to %s: %w", path, err)
	}
	return nil
}

// stopOne stops a child and waits for it (exited closes).
func (s *Starter) stopOne(cmd *exec.Cmd, exited <-chan struct{}) {
	_ = terminate(cmd.Process)
	select {
	case <-exited:
	case <-time.After(s.stopWait()):
		_ = cmd.Process.Kill()
		<-exited
	}
}

func (s *Starter) stopWait() time.Duration {
	if s.Stop > 0 {
		return s.Stop
	}
	return 10 * time.Second
}

// Running is how many debates run.
func (s *Starter) Running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.running)
}

// Close stops every debate (SIGTERM, then a kill after Stop) and waits
// for them; no debate starts after it.
func (s *Starter) Close() {
	s.mu.Lock()
	s.closed = true
	cmds := make([]*exec.Cmd, 0, len(s.running))
	for _, c := range s.running {
		cmds = append(cmds, c)
	}
	s.mu.Unlock()
	for _, c := range cmds {
		_ = terminate(c.Process)
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(s.stopWait()):
	}
	for _, c := range cmds {
		_ = c.Process.Kill()
	}
	<-done
}
