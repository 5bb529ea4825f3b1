package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/roundtable-dev/roundtable/room"
)

// dirWatch wakes its reader when something it cares about changes in a few
// folders: inotify events through fsnotify, and, in case events are lost or
// the filesystem has none, a stat signature compared every
// room.RescanInterval. It serves two waits the room's own Notifier does not
// cover: a room that does not exist yet (its folders appear one by one),
// and server.log, whose appends say what the seats are doing.
type dirWatch struct {
	paths  []string               // folders to watch, added once they exist
	match  func(path string) bool // whether an event on path matters
	sig    func() string          // what the rescan compares
	period time.Duration

	mu sync.Mutex
	ch chan struct{}

	cancel context.CancelFunc
	done   chan struct{}
}

// startDirWatch starts watching; it runs until ctx ends or close.
func startDirWatch(ctx context.Context, paths []string, match func(string) bool, sig func() string) *dirWatch {
	ctx, cancel := context.WithCancel(ctx)
	d := &dirWatch{
		paths: paths, match: match, sig: sig, period: room.RescanInterval,
		ch: make(chan struct{}), cancel: cancel, done: make(chan struct{}),
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		w = nil // the rescan alone still works
	}
	go d.run(ctx, w)
	return d
}

// changed returns a channel closed at the next change after the call. Take
// it before looking, then wait on it, so no change in between is missed.
func (d *dirWatch) changed() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ch
}

// close stops the watch and waits for its goroutine.
func (d *dirWatch) close() {
	d.cancel()
	<-d.done
}

func (d *dirWatch) fire() {
	d.mu.Lock()
	close(d.ch)
	d.ch = make(chan struct{})
	d.mu.Unlock()
}

func (d *dirWatch) run(ctx context.Context, w *fsnotify.Watcher) {
	defer close(d.done)
	var events chan fsnotify.Event
	var errs chan error
	added := map[string]bool{}
	// addAll watches the folders that exist now. A folder that just
	// appeared may already hold what we wait for, so a new watch fires.
	addAll := func(initial bool) {
		if w == nil {
			return
		}
		for _, p := range d.paths {
			if added[p] {
				continue
			}
			if w.Add(p) == nil {
				added[p] = true
				if !initial {
					d.fire()
				}
			}
		}
	}
	if w != nil {
		defer w.Close()
		events, errs = w.Events, w.Errors
	}
	addAll(true)
	tick := time.NewTicker(d.period)
	defer tick.Stop()
	last := d.sig()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				delete(added, ev.Name)
			}
			if d.match(ev.Name) {
				d.fire()
			}
			addAll(false)
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			d.fire() // overflow or trouble: let the reader look again
		case <-tick.C:
			addAll(false)
			if s := d.sig(); s != last {
				last = s
				d.fire()
			}
		}
	}
}

// statSig is a file's size and modification time, or that it is missing.
func statSig(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "missing"
	}
	return fmt.Sprintf("%d/%d", fi.Size(), fi.ModTime().UnixNano())
}

// roomAppearWatch waits for room name to appear under cwd: .roundtable,
// then the room's folder, then its room.json.
func roomAppearWatch(ctx context.Context, cwd, name string) *dirWatch {
	top := filepath.Join(cwd, room.Folder)
	dir := filepath.Join(top, name)
	cfg := filepath.Join(dir, "room.json")
	match := func(p string) bool { return p == top || p == dir || p == cfg }
	return startDirWatch(ctx, []string{cwd, top, dir}, match, func() string { return statSig(cfg) })
}

// logWatch waits for server.log in a room's folder to change.
func logWatch(ctx context.Context, dir string) *dirWatch {
	log := filepath.Join(dir, room.LogFile)
	match := func(p string) bool { return p == log }
	return startDirWatch(ctx, []string{dir}, match, func() string { return statSig(log) })
}
