package room

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// RescanInterval is how often a Notifier checks the room folder by itself,
// in case inotify events overflow or the filesystem has none. It is cheap:
// two stat calls, no listing.
const RescanInterval = time.Second

// rescanNoInotify is the rescan period when inotify is unavailable.
const rescanNoInotify = 250 * time.Millisecond

// Notifier tells its readers when a room changes: a message renamed into
// place, closed.json written, the room folder removed. It filters out
// temporary files and server.log. One Notifier serves any number of readers.
type Notifier struct {
	dir  string
	gen  atomic.Uint64
	mu   sync.Mutex
	ch   chan struct{}
	w    *fsnotify.Watcher
	stop context.CancelFunc
	done chan struct{}
}

// Watch starts a Notifier on a room folder. It runs until ctx ends or Close.
// When inotify cannot be used, the Notifier still works by rescanning.
func Watch(ctx context.Context, r *Room) *Notifier {
	ctx, cancel := context.WithCancel(ctx)
	n := &Notifier{dir: r.dir, ch: make(chan struct{}), stop: cancel, done: make(chan struct{})}
	if w, err := fsnotify.NewWatcher(); err == nil {
		if w.Add(r.dir) == nil && w.Add(filepath.Join(r.dir, "messages")) == nil {
			n.w = w
		} else {
			w.Close()
		}
	}
	go n.run(ctx)
	r.mu.Lock()
	r.notifier = n
	r.lastGen = ^uint64(0)
	r.mu.Unlock()
	return n
}

// Changed returns a channel that is closed at the next change after the
// call. Take it before reading the room, then wait on it, so no change
// between the read and the wait is missed.
func (n *Notifier) Changed() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.ch
}

// Gen counts the changes seen so far.
func (n *Notifier) Gen() uint64 { return n.gen.Load() }

// Inotify reports whether the Notifier gets events from the kernel (false:
// it only rescans).
func (n *Notifier) Inotify() bool { return n.w != nil }

// Close stops the Notifier and waits for its goroutine to end.
func (n *Notifier) Close() {
	n.stop()
	<-n.done
}

func (n *Notifier) fire() {
	n.gen.Add(1)
	n.mu.Lock()
	close(n.ch)
	n.ch = make(chan struct{})
	n.mu.Unlock()
}

func (n *Notifier) run(ctx context.Context) {
	defer close(n.done)
	var events chan fsnotify.Event
	var errs chan error
	period := rescanNoInotify
	if n.w != nil {
		defer n.w.Close()
		events, errs = n.w.Events, n.w.Errors
		period = RescanInterval
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	last := n.signature()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if ev.Name == filepath.Join(n.dir, "messages") && ev.Has(fsnotify.Create) {
				// A recreated messages folder is a new inode: watch it again.
				_ = n.w.Add(ev.Name)
			}
			if n.relevant(ev) {
				n.fire()
			}
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			n.fire() // overflow or trouble: let readers re-list
		case <-tick.C:
			if sig := n.signature(); sig != last {
				last = sig
				n.fire()
			}
		}
	}
}

func (n *Notifier) relevant(ev fsnotify.Event) bool {
	name := filepath.Base(ev.Name)
	if filepath.Dir(ev.Name) == filepath.Join(n.dir, "messages") {
		return strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".")
	}
	switch name {
	case "closed.json", "room.json", "messages":
		return true
	}
	return ev.Name == n.dir
}

type dirSignature struct {
	msgMod    int64
	msgSize   int64
	msgIno    uint64
	closed    bool
	roomExist bool
}

// signature is what the rescan compares: the messages folder's modification
// time and size, and whether closed.json and room.json exist.
func (n *Notifier) signature() dirSignature {
	var s dirSignature
	if fi, err := os.Stat(filepath.Join(n.dir, "messages")); err == nil {
		s.msgMod, s.msgSize = fi.ModTime().UnixNano(), fi.Size()
		s.msgIno = inode(fi)
	}
	_, err := os.Stat(filepath.Join(n.dir, "closed.json"))
	s.closed = err == nil
	_, err = os.Stat(filepath.Join(n.dir, "room.json"))
	s.roomExist = !errors.Is(err, os.ErrNotExist)
	return s
}
