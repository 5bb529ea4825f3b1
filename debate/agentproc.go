package debate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// agentProc is one running agent: its process (leading its own process
// group), the ACP connection over its stdin and stdout, and its session.
type agentProc struct {
	label  string
	grace  time.Duration
	mark   string      // agentMarkVar's value in its environment
	copy   *folderCopy // the disposable copy it works in; nil: in place
	cmd    *exec.Cmd
	conn   *acp.ClientSideConnection
	client *agentClient
	stdin  *os.File // our end of the agent's stdin
	stdout *os.File // our end of the agent's stdout
	stderr *tailWriter

	session acp.SessionId
	resumed bool          // the session is one an earlier run had (session/resume)
	died    chan struct{} // closed once the agent's process has exited
	exited  chan struct{} // closed once, after that, what it started is gone too (and its copy)
	waitErr error         // set before died closes

	garbage  atomic.Pointer[string] // the first line on stdout that was not ACP
	onJunk   atomic.Pointer[func()] // called on such a line during the handshake
	stopOnce sync.Once
	inTurn   atomic.Bool

	// Guarded by the slot's mutex: notes for the column at the next turn
	// (what keeps the agent from working fully), and what the speaker has
	// been sent.
	notes []string
	seen  int              // turns of the transcript already sent
	sent  map[Purpose]bool // purposes whose instructions were sent
}

// Reasons an agent could not speak, wrapped in the errors Stream returns.
var (
	errAgentGarbage  = errors.New("the agent printed something that is not ACP on stdout")
	errAgentExited   = errors.New("the agent exited")
	errAgentProtocol = errors.New("unsupported ACP protocol version")
)

// agentError is a sentence about an agent that errors.Is matches to one of
// the reasons above without repeating it.
type agentError struct {
	kind error
	msg  string
}

func (e *agentError) Error() string { return e.msg }
func (e *agentError) Unwrap() error { return e.kind }

func agentErrorf(kind error, format string, args ...any) error {
	return &agentError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// startAgent starts the agent in cwd (or in a disposable copy of it, see
// needsCopy), in its own process group, and opens its session: initialize
// (no filesystem or terminal capability offered), then session/new, held
// by the agent's own restraints (agentrestraint.go). ctx bounds the
// start-up.
func startAgent(ctx context.Context, spec AgentSpec, opts AgentOptions, speaker string) (*agentProc, error) {
	path, err := spec.Check()
	if err != nil {
		return nil, err
	}
	a := &agentProc{label: spec.Label(), grace: opts.Grace, died: make(chan struct{}), exited: make(chan struct{}), stderr: &tailWriter{}, sent: map[Purpose]bool{}}
	dir := opts.Cwd
	if needsCopy(spec, opts.Tools) {
		c, err := copyFolder(ctx, opts.Cwd)
		if err != nil {
			return nil, err
		}
		a.copy, dir = c, c.dir
		a.notes = append(a.notes, copyNote)
	}
	args := slices.Concat(spec.Command[1:], restraintArgs(spec, opts.Tools))
	env := append(os.Environ(), opts.Env...)
	env = append(env, restraintEnv(spec, opts.Tools, env)...)
	if spec.Preset == "codex" {
		var extra []string
		var note string
		args, extra, note = codexLaunch(path, args, opts.Tools, env)
		env = append(env, extra...)
		if note != "" {
			a.notes = append(a.notes, note)
		}
	}
	a.mark = newAgentMark()
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = append(env, agentMarkVar+"="+a.mark)
	ownGroup(cmd)
	// Plain pipes rather than exec's copying goroutines: Wait then never
	// waits for a grandchild that holds stdout open, and what the agent
	// wrote before it died stays readable.
	inR, inW, err := os.Pipe()
	if err != nil {
		a.copy.remove()
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		a.copy.remove()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		a.copy.remove()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		a.copy.remove()
		return nil, fmt.Errorf("start the agent %s: %w", a.label, err)
	}
	a.cmd, a.stdin, a.stdout = cmd, inW, outR
	var sink io.Writer = a.stderr
	if opts.Stderr != nil {
		sink = io.MultiWriter(a.stderr, opts.Stderr)
	}
	go func() {
		_, _ = io.Copy(sink, errR)
		errR.Close()
	}()
	go func() {
		a.waitErr = cmd.Wait()
		close(a.died)
		// Whatever the agent left behind (an MCP server, a tool) goes
		// with it, also what moved to a group of its own.
		killGroup(cmd)
		killMarked(a.mark)
		a.copy.remove()
		close(a.exited)
	}()
	a.client = newAgentClient(opts.Tools, dir)
	a.conn = acp.NewClientSideConnection(a.client, inW, &acpLineReader{r: bufio.NewReaderSize(outR, 64<<10), junk: a.sawJunk, updates: &a.client.read})
	// The SDK logs through slog; its lines would land on our stderr (or an
	// MCP client's) and say nothing the errors below do not.
	a.conn.SetLogger(slog.New(slog.DiscardHandler))
	if err := a.handshake(ctx, dir, opts.Sessions, speaker); err != nil {
		a.stop(false)
		return nil, err
	}
	return a, nil
}

// handshake runs initialize, then session/resume of the session sessions
// kept for speaker when the agent offers it, else session/new (saved in
// sessions). A line on stdout that is not ACP, or the agent exiting, ends
// it at once with a sentence saying so.
func (a *agentProc) handshake(ctx context.Context, cwd string, sessions AgentSessions, speaker string) error {
	hctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	junk := func() { cancel(errAgentGarbage) }
	a.onJunk.Store(&junk)
	defer a.onJunk.Store(nil)
	// The reader starts with the connection: a line of junk it read before
	// the hook above was in place must end the handshake too.
	if a.garbage.Load() != nil {
		junk()
	}
	go func() {
		select {
		case <-a.died:
			cancel(errAgentExited)
		case <-hctx.Done():
		}
	}()
	fail := func(step string, err error) error {
		cause := context.Cause(hctx)
		switch {
		case errors.Is(cause, errAgentGarbage):
			return agentErrorf(errAgentGarbage, "the agent %s printed %q on stdout instead of ACP during %s; is it an ACP agent (for example `qwen --acp`, not `qwen`)?",
				a.label, a.junkLine(), step)
		case errors.Is(cause, errAgentExited):
			return a.exitError(step)
		case ctx.Err() != nil:
			return context.Cause(ctx)
		}
		var re *acp.RequestError
		if errors.As(err, &re) && re.Code == authRequiredCode {
			return a.authError(re)
		}
		if a.isDead() {
			return a.exitError(step)
		}
		return fmt.Errorf("the agent %s failed %s: %s", a.label, step, rpcMessage(err))
	}
	ires, err := a.conn.Initialize(hctx, acp.InitializeRequest{
		ProtocolVersion:    acp.ProtocolVersionNumber,
		ClientCapabilities: acp.ClientCapabilities{}, // no fs, no terminal: the agent uses its own tools, under our permission rules
		ClientInfo:         &acp.Implementation{Name: "roundtable", Version: "1"},
	})
	if err != nil {
		return fail("initialize", err)
	}
	if ires.ProtocolVersion != acp.ProtocolVersionNumber {
		return agentErrorf(errAgentProtocol, "the agent %s speaks ACP protocol version %d and roundtable speaks version %d; install a version of the agent that speaks version %d",
			a.label, ires.ProtocolVersion, acp.ProtocolVersionNumber, acp.ProtocolVersionNumber)
	}
	if sessions != nil && ires.AgentCapabilities.SessionCapabilities.Resume != nil {
		if id := sessions.Session(speaker); id != "" {
			rres, err := a.conn.ResumeSession(hctx, acp.ResumeSessionRequest{SessionId: acp.SessionId(id), Cwd: cwd, McpServers: []acp.McpServer{}})
			if err == nil {
				a.session, a.resumed = acp.SessionId(id), true
				// The agent's restraints hold for a resumed session as
				// for a new one.
				a.restrain(hctx, a.client.tools, acp.NewSessionResponse{SessionId: a.session, ConfigOptions: rres.ConfigOptions, Modes: rres.Modes})
				return nil
			}
			if a.isDead() || context.Cause(hctx) != nil {
				return fail("session/resume", err)
			}
			// A session the agent no longer has: a new one.
		}
	}
	sres, err := a.conn.NewSession(hctx, acp.NewSessionRequest{Cwd: cwd, McpServers: []acp.McpServer{}})
	if err != nil {
		return fail("session/new", err)
	}
	a.session = sres.SessionId
	a.restrain(hctx, a.client.tools, sres)
	if sessions != nil {
		sessions.SaveSession(speaker, string(a.session))
	}
	return nil
}

// authRequiredCode is ACP's "authentication required" error.
const authRequiredCode = -32000

func (a *agentProc) authError(re *acp.RequestError) error {
	return fmt.Errorf("the agent %s needs you to sign in first (it answered %q); run it once by itself and log in, then try again",
		a.label, re.Message)
}

// exitError says the agent exited during step, how, and the last line it
// wrote on stderr.
func (a *agentProc) exitError(step string) error {
	<-a.died
	how := "by itself"
	if a.waitErr != nil {
		how = "with " + a.waitErr.Error()
	}
	msg := fmt.Sprintf("the agent %s exited during %s (%s)", a.label, step, how)
	if last := a.stderr.lastLine(); last != "" {
		msg += fmt.Sprintf("; its last words on stderr: %q", last)
	}
	return &agentError{kind: errAgentExited, msg: msg}
}

// rpcMessage is an error from the SDK as one readable phrase: a JSON-RPC
// error's message and details rather than its JSON.
func rpcMessage(err error) string {
	var re *acp.RequestError
	if errors.As(err, &re) {
		s := re.Message
		if m, ok := re.Data.(map[string]any); ok {
			for _, k := range []string{"error", "details", "message"} {
				if v, ok := m[k].(string); ok && v != "" {
					s += ": " + v
					break
				}
			}
		}
		return s
	}
	return err.Error()
}

func (a *agentProc) sawJunk(line string) {
	a.garbage.CompareAndSwap(nil, &line)
	if f := a.onJunk.Load(); f != nil {
		(*f)()
	}
}

func (a *agentProc) junkLine() string {
	if s := a.garbage.Load(); s != nil {
		return *s
	}
	return ""
}

// isDead reports whether the agent's process has exited.
func (a *agentProc) isDead() bool {
	select {
	case <-a.died:
		return true
	default:
		return false
	}
}

// stop ends the agent: session/cancel when a turn is in progress (or
// cancel is set and a session is open), stdin closed, then after the grace
// period its whole process group killed. It waits until the agent has
// exited. Safe to call more than once and from several goroutines.
func (a *agentProc) stop(cancel bool) {
	a.stopOnce.Do(func() {
		if (cancel || a.inTurn.Load()) && a.session != "" && !a.isDead() {
			// In its own goroutine: an agent that stopped reading its
			// stdin would block the write, and the kill must not wait for
			// it (closing stdin below ends the write).
			sent := make(chan struct{})
			go func() {
				defer close(sent)
				_ = a.conn.Cancel(context.Background(), acp.CancelNotification{SessionId: a.session})
			}()
			select {
			case <-sent:
			case <-time.After(100 * time.Millisecond):
			}
		}
		a.stdin.Close()
		t := time.NewTimer(a.grace)
		select {
		case <-a.exited:
		case <-t.C:
			killGroup(a.cmd)
			<-a.exited
		}
		t.Stop()
		a.stdout.Close()
	})
	<-a.exited
}

// acpLineReader passes the agent's stdout to the SDK line by line, leaving
// out lines that cannot be JSON-RPC (a banner, a log line) and reporting
// them through junk.
type acpLineReader struct {
	r       *bufio.Reader
	pending []byte
	junk    func(line string)
	updates *atomic.Int64 // session/update notifications read so far
}

func (l *acpLineReader) Read(p []byte) (int, error) {
	for len(l.pending) == 0 {
		line, err := l.r.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			if t[0] == '{' {
				l.pending = line
				if l.updates != nil && bytes.Contains(t, sessionUpdate) && !bytes.Contains(t, []byte(`"id"`)) {
					l.updates.Add(1)
				}
			} else if l.junk != nil {
				l.junk(clipLine(strings.ToValidUTF8(string(t), "?"), 80))
			}
		}
		if err != nil {
			if len(l.pending) > 0 {
				break
			}
			return 0, err
		}
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

var sessionUpdate = []byte(`"session/update"`)

// tailWriter keeps the last few KiB written to it: an agent's stderr, for
// the sentence saying why it died.
type tailWriter struct {
	mu  sync.Mutex
	buf []byte
}

const tailKeep = 4 << 10

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailKeep {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailKeep:]...)
	}
	t.mu.Unlock()
	return len(p), nil
}

// lastLine is the last non-empty line written, clipped.
func (t *tailWriter) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.ToValidUTF8(string(t.buf), "?"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" {
			return clipLine(s, 160)
		}
	}
	return ""
}
