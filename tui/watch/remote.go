package watch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/roundtable-dev/roundtable/room"
)

// A remote watch (`roundtable watch --url URL --token OBSERVER`) shows a
// room that `roundtable host` serves on another machine. An observer
// (remote_client.go) calls the host's observe_room tool in a loop and
// writes each snapshot into a mirror of the room in a temporary folder
// (room.ApplySnapshot); the watch screen runs on the mirror as on any
// local room, read-only: no note, no seat, no spec, no close. A persona
// debate's mirror is shown in the debate screen instead (app.RunRemote,
// which imports both screens; DialRemote is the part they share).

// RemoteOptions configure a remote watch.
type RemoteOptions struct {
	// URL is the host's address (https://host:8765; /mcp is added when
	// the URL has no path).
	URL string
	// Token is the room's observer token.
	Token string
	// ExportDir is where e and E write transcripts; empty: the working
	// directory.
	ExportDir string
	// Dark selects the dark styles until the terminal reports its
	// background.
	Dark bool
}

// RemoteLink is a remote watch's link to its host as the screen sees it:
// the host's name for the header, and the state of the connection for the
// status line.
type RemoteLink struct {
	label string

	mu     sync.Mutex
	status string
	ok     bool
	wake   chan struct{} // one pending wake-up at most
}

// NewRemoteLink makes the link of a screen showing a room from host
// (host:port).
func NewRemoteLink(host string) *RemoteLink {
	return &RemoteLink{label: host, wake: make(chan struct{}, 1)}
}

// Set puts a new status of the connection on the screen; ok is false for
// trouble.
func (l *RemoteLink) Set(status string, ok bool) {
	l.mu.Lock()
	l.status, l.ok = status, ok
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Label is the host the link goes to (host:port).
func (l *RemoteLink) Label() string { return l.label }

// Wake returns the channel that receives once after each new status (one
// pending at most): a screen waits on it, then reads Status.
func (l *RemoteLink) Wake() <-chan struct{} { return l.wake }

// Status is the connection's latest status; ok is false for trouble.
func (l *RemoteLink) Status() (status string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.status, l.ok
}

// remoteStatusMsg is the link's latest status.
type remoteStatusMsg struct {
	id     int64
	status string
	ok     bool
}

// remoteStatusCmd waits for the link's next status.
func remoteStatusCmd(id int64, s *session, l *RemoteLink) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-l.wake:
		case <-s.ctx.Done():
			return nil
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		return remoteStatusMsg{id: id, status: l.status, ok: l.ok}
	}
}

// remoteInit starts listening to the link of a remote screen.
func (m *Model) remoteInit() tea.Cmd {
	if m.opts.Remote == nil {
		return nil
	}
	return remoteStatusCmd(m.id, m.sess, m.opts.Remote)
}

// remoteStatus shows a status of the link and waits for the next.
func (m *Model) remoteStatus(msg remoteStatusMsg) tea.Cmd {
	if msg.id != m.id || m.opts.Remote == nil {
		return nil
	}
	m.setStatus(msg.status, msg.ok)
	return remoteStatusCmd(m.id, m.sess, m.opts.Remote)
}

// isCertError reports a TLS certificate this machine does not trust.
func isCertError(err error) bool {
	var unknownCA x509.UnknownAuthorityError
	var badCert *tls.CertificateVerificationError
	return err != nil && (errors.As(err, &unknownCA) || errors.As(err, &badCert))
}

// readOnly reports a screen that shows a room it cannot write to.
func (m *Model) readOnly() bool { return m.opts.Remote != nil }

// syncRemoteKeys turns off, on a remote screen, the keys that write.
func (m *Model) syncRemoteKeys() {
	if !m.readOnly() {
		return
	}
	m.keys.Note.SetEnabled(false)
	m.keys.Take.SetEnabled(false)
	m.keys.WriteSpec.SetEnabled(false)
	m.keys.CloseRoom.SetEnabled(false)
	m.keys.Verdict.SetEnabled(false) // it would be saved in the mirror, a temporary folder
}

// remoteKey answers, on a remote screen, the keys that would write: they
// are off (not in the help), and pressing one says why.
func (m *Model) remoteKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !m.readOnly() {
		return nil, false
	}
	switch msg.String() {
	case "i", "t", "S", "C":
		m.setStatus("read-only: an observer cannot send notes, take a seat, write the spec or close", false)
		return nil, true
	}
	return nil, false
}

// remoteSegment is the header's "remote: host:port", on a remote screen.
func (m *Model) remoteSegment() []string {
	if !m.readOnly() {
		return nil
	}
	return []string{m.styles.Warning.Render("remote: " + m.opts.Remote.label)}
}

// Remote is a room a host serves, copied into a local mirror and followed
// (DialRemote): what a remote screen shows. Close stops following and
// removes the mirror.
type Remote struct {
	// Cwd is the mirror's folder, holding .roundtable/<Room>: open the
	// room there (room.Open) as any local one.
	Cwd string
	// Room is the room's name; Config its room.json as the host sent it.
	Room   string
	Config room.Config
	// Link is the link to the host: its name and the connection's state.
	Link *RemoteLink

	close func()
}

// Close stops following the host and removes the mirror. It waits for
// the follower to stop, so nothing is written to the mirror afterwards.
func (rm *Remote) Close() {
	if rm != nil && rm.close != nil {
		rm.close()
		rm.close = nil
	}
}

// DialRemote connects to the host, reads the room and copies it into a
// new mirror, then follows the host in the background until Close, each
// new snapshot written into the mirror (a lost connection is retried with
// backoff and said through Link). A 401 returns ErrUnauthorized, an
// unreachable host an error saying so, before any screen is drawn.
func DialRemote(ctx context.Context, ro RemoteOptions) (*Remote, error) {
	endpoint, label, err := observeURL(ro.URL)
	if err != nil {
		return nil, err
	}
	o := newObserver(endpoint, ro.Token)
	first, hasNext, err := o.observe(ctx, room.Cursor{}, 0)
	switch {
	case err == nil && hasNext && first.Config != nil:
	case unauthorized(err):
		err = ErrUnauthorized
	case isCertError(err) || errors.As(err, new(*RedirectError)):
		err = fmt.Errorf("cannot watch the room at %s: %s", label, describeLinkError(err))
	case seatToken(err):
		err = fmt.Errorf("cannot watch the room at %s: the token is a seat's (lead or peer), not the observer's; give the room's observer token, which roundtable host printed with the others (roundtable host --room R --rotate observer makes a new one)", label)
	case isToolError(err):
		err = fmt.Errorf("cannot watch the room at %s: %s", label, describeLinkError(err))
	case err != nil:
		err = fmt.Errorf("cannot watch the room at %s: %s; check the URL and that roundtable host runs there", label, describeLinkError(err))
	default:
		err = fmt.Errorf("the host at %s sent no room; check the URL and the token", label)
	}
	if err != nil {
		o.close()
		return nil, err
	}
	mirror, err := os.MkdirTemp("", "roundtable-remote-")
	if err != nil {
		o.close()
		return nil, fmt.Errorf("make a folder for the room's local copy: %w", err)
	}
	link := NewRemoteLink(label)
	var skip *room.MirrorSkipError
	if err := room.ApplySnapshot(mirror, first); err != nil && !errors.As(err, &skip) {
		o.close()
		os.RemoveAll(mirror)
		return nil, fmt.Errorf("copy the room from %s: %w", label, err)
	}
	loopCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		followRemote(loopCtx, o, mirror, first, link)
	}()
	return &Remote{
		Cwd: mirror, Room: first.Room, Config: *first.Config, Link: link,
		close: func() {
			stop()
			<-done
			o.close()
			os.RemoveAll(mirror)
		},
	}, nil
}

// Watch shows the mirrored room in the watch screen, read-only, until the
// user quits or ctx ends.
func (rm *Remote) Watch(ctx context.Context, ro RemoteOptions, progOpts ...tea.ProgramOption) error {
	return Run(ctx, Options{Cwd: rm.Cwd, Room: rm.Room, ExportDir: ro.ExportDir, Dark: ro.Dark, Remote: rm.Link}, progOpts...)
}

// RunRemote shows a room served by a host in the watch screen until the
// user quits or ctx ends (DialRemote, then Watch); the mirror is removed
// on the way out. roundtable watch --url goes through app.RunRemote,
// which shows a persona debate in the debate screen instead.
func RunRemote(ctx context.Context, ro RemoteOptions, progOpts ...tea.ProgramOption) error {
	rm, err := DialRemote(ctx, ro)
	if err != nil {
		return err
	}
	defer rm.Close()
	return rm.Watch(ctx, ro, progOpts...)
}

// Backoff of a lost connection: doubling from backoffMin to backoffMax.
var (
	backoffMin = time.Second
	backoffMax = 30 * time.Second
)

// followRemote calls observe_room until ctx ends, from the snapshot last,
// writing each new one into the mirror under cwd.
func followRemote(ctx context.Context, o *observer, cwd string, last room.Snapshot, link *RemoteLink) {
	cur, more := last.Next, last.More
	delay := time.Duration(0)
	failing := false
	// lost says the connection failed and waits before the next try;
	// false when ctx ended.
	lost := func(err error) bool {
		if ctx.Err() != nil {
			return false
		}
		delay = min(max(delay*2, backoffMin), backoffMax)
		failing = true
		if unauthorized(err) {
			// A rotated token: asking often will not make it work.
			delay = backoffMax
			link.Set(fmt.Sprintf("%s (trying again in %s)", ErrUnauthorized, formatDuration(delay)), false)
		} else {
			link.Set(fmt.Sprintf("connection to %s lost (%s); retrying in %s", link.label, describeLinkError(err), formatDuration(delay)), false)
		}
		return sleepCtx(ctx, delay)
	}
	for ctx.Err() == nil {
		if failing && o.c == nil {
			// Say "reconnected" as soon as the host answers, not when the
			// first wait on it ends.
			if err := o.connect(ctx); err != nil {
				if !lost(err) {
					return
				}
				continue
			}
			failing, delay = false, 0
			link.Set("reconnected to "+link.label, true)
		}
		wait := observeWait
		if more {
			wait = 0
		}
		began := time.Now()
		s, hasNext, err := o.observe(ctx, cur, wait)
		if err != nil {
			if !lost(err) {
				return
			}
			continue
		}
		if failing {
			failing, delay = false, 0
			link.Set("reconnected to "+link.label, true)
		}
		if !hasNext || s.Empty() {
			// Nothing new: a host that answered at once (shutting down,
			// or not parking) is not asked again at once.
			more = false
			if time.Since(began) < backoffMin && !sleepCtx(ctx, backoffMin) {
				return
			}
			if !hasNext {
				continue
			}
		}
		var skip *room.MirrorSkipError
		if err := room.ApplySnapshot(cwd, s); err != nil {
			if !errors.As(err, &skip) {
				// The local copy cannot be written (a full disk?): keep
				// the cursor and try again.
				link.Set(fmt.Sprintf("cannot update the local copy of the room (%v); retrying", err), false)
				if !sleepCtx(ctx, backoffMax) {
					return
				}
				continue
			}
			link.Set(skip.Error(), false)
		}
		cur, more = s.Next, s.More
	}
}

// sleepCtx waits d, or less when ctx ends; false when it did.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
