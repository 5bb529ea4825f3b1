package home

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"

	"github.com/roundtable-dev/roundtable/room"
)

// roomsWatch wakes its reader when anything changes under .roundtable: a
// room created, a message posted, a room closed. It watches the cwd (until
// .roundtable appears), .roundtable, every room folder and every messages
// folder. Without inotify it never fires; the list is still read each time
// the screen opens.
type roomsWatch struct {
	cwd string

	mu sync.Mutex
	ch chan struct{} // closed at the next change

	w       *fsnotify.Watcher
	watched map[string]bool // touched only before run starts and then by run

	cancel context.CancelFunc
	done   chan struct{}
}

// startRoomsWatch starts watching cwd's rooms until ctx ends or close.
func startRoomsWatch(ctx context.Context, cwd string) *roomsWatch {
	ctx, cancel := context.WithCancel(ctx)
	d := &roomsWatch{cwd: cwd, ch: make(chan struct{}), cancel: cancel, done: make(chan struct{})}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		close(d.done)
		return d
	}
	d.w, d.watched = w, map[string]bool{}
	// Watches are in place before the caller reads the list, so nothing
	// created after that read goes unnoticed.
	d.scan()
	go d.run(ctx)
	return d
}

func (d *roomsWatch) add(p string) {
	if d.watched[p] {
		return
	}
	if err := d.w.Add(p); err == nil {
		d.watched[p] = true
	}
}

// scan watches the cwd, .roundtable, and every room and messages folder.
func (d *roomsWatch) scan() {
	top := filepath.Join(d.cwd, room.Folder)
	d.add(d.cwd)
	d.add(top)
	entries, err := os.ReadDir(top)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && room.ValidateName(e.Name()) == nil {
			dir := filepath.Join(top, e.Name())
			d.add(dir)
			d.add(filepath.Join(dir, "messages"))
		}
	}
}

// changed returns a channel closed at the next change after the call.
func (d *roomsWatch) changed() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ch
}

// close stops the watch and waits for its goroutine.
func (d *roomsWatch) close() {
	d.cancel()
	<-d.done
}

func (d *roomsWatch) fire() {
	d.mu.Lock()
	close(d.ch)
	d.ch = make(chan struct{})
	d.mu.Unlock()
}

func (d *roomsWatch) run(ctx context.Context) {
	defer close(d.done)
	defer d.w.Close()
	top := filepath.Join(d.cwd, room.Folder)
	w := d.w
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if !d.relevant(top, ev.Name) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				d.scan()
			}
			d.fire()
		case _, ok := <-w.Errors:
			if !ok {
				return
			}
		}
	}
}

// relevant reports whether an event on path concerns the list: anything
// under .roundtable but temporary and lock files (a message being written
// counts once renamed into place) and server.log, or .roundtable itself
// appearing in the cwd.
func (d *roomsWatch) relevant(top, path string) bool {
	if path == top {
		return true
	}
	rel, err := filepath.Rel(top, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	base := filepath.Base(path)
	return !strings.HasPrefix(base, ".") && base != room.LogFile
}
