package room

import (
	"errors"
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// watchHub is the one inotify instance a process's DirWatches share: one
// fsnotify.Watcher, one goroutine reading it, and the folders each DirWatch
// asked for, counted, so a folder two of them watch has one kernel watch,
// removed when the last lets go. Linux allows 128 inotify instances per
// user by default (fs.inotify.max_user_instances): a host serving a room
// each, or a home screen following them all, used to take one per room and
// leave none to the user's other programs. Now a process holds one,
// whatever the number of rooms (two for a moment when the last DirWatch
// closes as a new one starts).
//
// The kernel names an event by the watched folder and the name within it,
// so an event on path p is handed to the DirWatches watching filepath.Dir(p)
// and, for what happens to p itself (removed, moved, its attributes), to
// those watching p: each sees what its own watcher showed it before. An
// overflow, or any error from the watcher, is handed to every DirWatch, and
// each rescans. Events are handled on the hub's goroutine, one at a time,
// as each DirWatch's own goroutine did: a handler does no more than note
// the name, wake its readers and, on a creation, watch the folders that
// appeared.
type watchHub struct {
	w    *fsnotify.Watcher
	done chan struct{} // closed when the goroutine ends

	// The fields below are guarded by hubMu.
	closed bool
	paths  map[string]map[*DirWatch]struct{} // folder (clean) → who watches it
	users  map[*DirWatch]map[string]struct{} // every DirWatch of the hub → its folders
	buf    []*DirWatch                       // the recipients of the event being handed out
}

var (
	hubMu  sync.Mutex
	theHub *watchHub // nil until a DirWatch needs it, again once none does

	// newWatcher makes the hub's fsnotify.Watcher (tests make it fail, to
	// check the rescan-only fallback).
	newWatcher = fsnotify.NewWatcher
)

// errHubClosed is what adding a folder to a hub no DirWatch uses returns.
var errHubClosed = errors.New("room: the inotify hub is closed")

// joinHub returns the process's hub, starting it if need be, with d among
// its users; nil when inotify cannot be used (d then only rescans). A
// failed start is tried again by the next DirWatch.
func joinHub(d *DirWatch) *watchHub {
	hubMu.Lock()
	defer hubMu.Unlock()
	if theHub == nil {
		w, err := newWatcher()
		if err != nil {
			return nil
		}
		theHub = &watchHub{
			w: w, done: make(chan struct{}),
			paths: map[string]map[*DirWatch]struct{}{},
			users: map[*DirWatch]map[string]struct{}{},
		}
		go theHub.run()
	}
	theHub.users[d] = map[string]struct{}{}
	return theHub
}

// add watches folder p (clean) for d: a kernel watch if no one had one.
func (h *watchHub) add(p string, d *DirWatch) error {
	hubMu.Lock()
	defer hubMu.Unlock()
	mine, ok := h.users[d]
	if h.closed || !ok {
		return errHubClosed
	}
	subs := h.paths[p]
	if subs == nil {
		if err := h.w.Add(p); err != nil {
			return err
		}
		subs = map[*DirWatch]struct{}{}
		h.paths[p] = subs
	}
	subs[d] = struct{}{}
	mine[p] = struct{}{}
	return nil
}

// leave removes d's folders, each kernel watch no one else needs, and d.
// The last user to leave closes the watcher and waits for its goroutine,
// so nothing outlives the DirWatches.
func (h *watchHub) leave(d *DirWatch) {
	hubMu.Lock()
	for p := range h.users[d] {
		subs := h.paths[p]
		delete(subs, d)
		if len(subs) == 0 {
			delete(h.paths, p)
			_ = h.w.Remove(p) // the folder may be gone, and its watch with it
		}
	}
	delete(h.users, d)
	last := len(h.users) == 0 && !h.closed
	if last {
		h.closed = true
		if theHub == h {
			theHub = nil
		}
	}
	hubMu.Unlock()
	if last {
		_ = h.w.Close()
		<-h.done
	}
}

// run hands each event and error to the DirWatches it concerns.
func (h *watchHub) run() {
	defer close(h.done)
	events, errs := h.w.Events, h.w.Errors
	for events != nil || errs != nil {
		select {
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			for _, d := range h.recipients(ev) {
				d.event(ev)
			}
			clear(h.buf) // keep no closed DirWatch alive
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			for _, d := range h.everyone() {
				d.trouble() // an overflow or worse: events may be lost
			}
			clear(h.buf)
		}
	}
}

// recipients returns the DirWatches an event concerns. A folder removed or
// moved away has lost its kernel watch (fsnotify drops it), so it is
// forgotten here too, and watched anew when a DirWatch asks for it again.
func (h *watchHub) recipients(ev fsnotify.Event) []*DirWatch {
	p := filepath.Clean(ev.Name)
	hubMu.Lock()
	defer hubMu.Unlock()
	out := h.buf[:0]
	for d := range h.paths[filepath.Dir(p)] {
		out = append(out, d)
	}
	if ev.Op&(fsnotify.Remove|fsnotify.Rename|fsnotify.Chmod|fsnotify.Write) != 0 {
		if subs, ok := h.paths[p]; ok {
			for d := range subs {
				if _, dup := h.paths[filepath.Dir(p)][d]; !dup {
					out = append(out, d)
				}
			}
			if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
				for d := range subs {
					delete(h.users[d], p)
				}
				delete(h.paths, p)
			}
		}
	}
	h.buf = out
	return out
}

// everyone returns every DirWatch of the hub.
func (h *watchHub) everyone() []*DirWatch {
	hubMu.Lock()
	defer hubMu.Unlock()
	out := h.buf[:0]
	for d := range h.users {
		out = append(out, d)
	}
	h.buf = out
	return out
}
