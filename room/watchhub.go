package room

import (
	"errors"
	"path/filepath"
	"strings"
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
// those watching p: each sees what its own watcher showed it before. A
// folder removed or moved away loses its watch, and so does every watched
// folder beneath it: one that moved keeps its kernel watch under its old
// name, and the kernel would hand that same watch to anyone watching it at
// its new name (a room renamed on the home screen, then opened), whose
// events would then carry the old name. An
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
	under  map[string]int                    // folder → how many watched folders lie beneath it
	users  map[*DirWatch]map[string]struct{} // every DirWatch of the hub → its folders
	buf    []delivery                        // what the event being handed out makes
}

// delivery is an event for one DirWatch.
type delivery struct {
	d  *DirWatch
	ev fsnotify.Event
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
			under: map[string]int{},
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
		for a := range ancestors(p) {
			h.under[a]++
		}
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
			h.forget(p)
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
			for _, o := range h.deliveries(ev) {
				o.d.event(o.ev)
			}
			clear(h.buf) // keep no closed DirWatch alive
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			for _, o := range h.everyone() {
				o.d.trouble() // an overflow or worse: events may be lost
			}
			clear(h.buf)
		}
	}
}

// deliveries returns the DirWatches an event concerns, each with the
// event it gets. A folder removed or moved away has lost its watch
// (fsnotify drops it when the kernel says so; it is removed here at once,
// so that a folder watched at the new name gets a watch of its own), and
// so has every folder watched beneath it, whose watchers are told with a
// Rename of their folder: each forgets it, and watches it again if it
// comes back.
func (h *watchHub) deliveries(ev fsnotify.Event) []delivery {
	// fsnotify names an event by the watched folder (clean, as added) and
	// the name the kernel gives: clean already, but under "/" or ".".
	p := ev.Name
	if !filepath.IsAbs(p) || strings.Contains(p, "//") {
		p = filepath.Clean(p)
	}
	parent := p[:max(strings.LastIndexByte(p, filepath.Separator), 0)]
	if parent == "" {
		parent = filepath.Dir(p) // "/" or "."
	}
	hubMu.Lock()
	defer hubMu.Unlock()
	out := h.buf[:0]
	for d := range h.paths[parent] {
		out = append(out, delivery{d, ev})
	}
	if ev.Op&(fsnotify.Remove|fsnotify.Rename|fsnotify.Chmod|fsnotify.Write) != 0 {
		for d := range h.paths[p] {
			if _, dup := h.paths[parent][d]; !dup {
				out = append(out, delivery{d, ev})
			}
		}
	}
	if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
		if _, ok := h.paths[p]; ok {
			h.forget(p)
		}
		if h.under[p] > 0 {
			var gone []string
			for q := range h.paths {
				if beneath(q, p) {
					gone = append(gone, q)
				}
			}
			for _, q := range gone {
				for d := range h.paths[q] {
					out = append(out, delivery{d, fsnotify.Event{Name: q, Op: fsnotify.Rename}})
				}
				h.forget(q)
			}
		}
	}
	h.buf = out
	return out
}

// forget drops folder p and its kernel watch (gone already if the folder
// was removed). The caller holds hubMu.
func (h *watchHub) forget(p string) {
	for d := range h.paths[p] {
		delete(h.users[d], p)
	}
	delete(h.paths, p)
	for a := range ancestors(p) {
		if h.under[a]--; h.under[a] <= 0 {
			delete(h.under, a)
		}
	}
	_ = h.w.Remove(p)
}

// everyone returns every DirWatch of the hub.
func (h *watchHub) everyone() []delivery {
	hubMu.Lock()
	defer hubMu.Unlock()
	out := h.buf[:0]
	for d := range h.users {
		out = append(out, delivery{d: d})
	}
	h.buf = out
	return out
}

// ancestors yields the folders above clean path p, up to its root ("/",
// or "." for a relative path).
func ancestors(p string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for a := filepath.Dir(p); ; a = filepath.Dir(a) {
			if !yield(a) {
				return
			}
			if filepath.Dir(a) == a {
				return
			}
		}
	}
}

// beneath reports whether clean path q lies under folder p.
func beneath(q, p string) bool {
	for a := range ancestors(q) {
		if a == p {
			return true
		}
	}
	return false
}
