package room

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DirWatch tells its readers when something they care about changes in a
// set of folders: inotify events through fsnotify, filtered by a match
// function, and, in case events are lost or the filesystem has none, a
// cheap signature compared every RescanInterval. Folders that do not exist
// yet are watched once they appear; a folder appearing fires, since it may
// already hold what the reader waits for. One DirWatch serves any number of
// readers. The room Notifier, the watch screen (a room that does not exist
// yet, server.log) and the home screen's list all use it. All the DirWatches
// of a process share one inotify instance, the watchHub (watchhub.go), which
// hands each the events of its folders.
type DirWatch struct {
	paths func() []string        // folders to watch, asked again after changes
	match func(path string) bool // whether an event on path matters
	sig   func() string          // what the rescan compares

	gen     atomic.Uint64
	mu      sync.Mutex
	ch      chan struct{}
	hub     *watchHub // nil: no inotify, rescans only
	cancel  context.CancelFunc
	done    chan struct{}
	inotify bool
	local   bool // every folder is on a filesystem whose events are complete

	// emu serialises the handling of events (on the hub's goroutine) with
	// the rescans (on the DirWatch's own) and the end.
	emu    sync.Mutex
	added  map[string]bool // the folders watched, by clean path
	closed bool

	side *sideTopic // a second kind of change, reported apart (nil: none)
	// journal, when set, records the files that arrive (the room
	// Notifier's messages and notes), and is lost whenever events may
	// have been.
	journal *journal
}

// sideTopic is a second kind of change a DirWatch reports on its own
// channel and count, so readers of the first are not woken by it: the
// room Notifier's drafts, which change up to ~30 times a second per seat
// while a debate streams, beside its messages, notes and close.
type sideTopic struct {
	match func(path string) bool
	sig   func() string
	gen   atomic.Uint64
	mu    sync.Mutex
	ch    chan struct{}
}

func (t *sideTopic) fire() {
	t.gen.Add(1)
	t.mu.Lock()
	close(t.ch)
	t.ch = make(chan struct{})
	t.mu.Unlock()
}

// WatchDirs starts a DirWatch. The folders that exist are watched before it
// returns, so a change made after the call is never missed. It runs until
// ctx ends or Close.
func WatchDirs(ctx context.Context, paths func() []string, match func(string) bool, sig func() string) *DirWatch {
	return watchDirs(ctx, paths, match, sig, nil, nil)
}

// watchDirs is WatchDirs with a side topic (nil: none).
func watchDirs(ctx context.Context, paths func() []string, match func(string) bool, sig func() string, side *sideTopic, j *journal) *DirWatch {
	ctx, cancel := context.WithCancel(ctx)
	if side != nil {
		side.ch = make(chan struct{})
	}
	d := &DirWatch{
		paths: paths, match: match, sig: sig, side: side, journal: j,
		ch: make(chan struct{}), added: map[string]bool{}, cancel: cancel, done: make(chan struct{}),
	}
	if h := joinHub(d); h != nil {
		d.hub, d.inotify = h, true
	}
	d.emu.Lock()
	d.addAll(true)
	d.local = d.inotify && d.allComplete()
	d.emu.Unlock()
	last := d.sig()
	sideLast := ""
	if side != nil {
		sideLast = side.sig()
	}
	go d.run(ctx, last, sideLast)
	return d
}

// Changed returns a channel closed at the next change after the call. Take
// it before looking, then wait on it, so no change in between is missed.
func (d *DirWatch) Changed() <-chan struct{} {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ch
}

// Gen counts the changes seen so far.
func (d *DirWatch) Gen() uint64 { return d.gen.Load() }

// Inotify reports whether kernel events arrive (false: rescans only).
func (d *DirWatch) Inotify() bool { return d.inotify }

// Close stops the watch and waits for its goroutine.
func (d *DirWatch) Close() {
	d.cancel()
	<-d.done
}

func (d *DirWatch) fire() {
	d.gen.Add(1)
	d.mu.Lock()
	close(d.ch)
	d.ch = make(chan struct{})
	d.mu.Unlock()
}

// lose tells the journal, if any, that events may have been missed.
func (d *DirWatch) lose() {
	if d.journal != nil {
		d.journal.lose()
	}
}

// fireAll fires both topics: when events may have been lost, or a folder
// appeared that may hold either.
func (d *DirWatch) fireAll() {
	d.fire()
	if d.side != nil {
		d.side.fire()
	}
}

// allComplete reports whether every folder watched at the start, and the
// first one asked for (the one the others will appear in), is on a
// filesystem whose events are complete (eventsComplete).
func (d *DirWatch) allComplete() bool {
	paths := d.paths()
	if len(paths) == 0 || !eventsComplete(paths[0]) {
		return false
	}
	for p := range d.added {
		if !eventsComplete(p) {
			return false
		}
	}
	return true
}

// addAll watches the folders that exist now; outside the first call, a
// newly watched folder fires. It asks for the paths again after adding
// one, since a folder made inside it before its watch began sent no event.
// The caller holds emu.
func (d *DirWatch) addAll(initial bool) {
	if d.hub == nil || d.closed {
		return
	}
	for again := true; again; {
		again = false
		for _, p := range d.paths() {
			p = filepath.Clean(p)
			if d.added[p] {
				continue
			}
			if d.hub.add(p, d) == nil {
				d.added[p] = true
				again = true
				if !initial {
					d.lose() // it may hold files no event told of
					d.fireAll()
				}
			}
		}
	}
}

// event handles one kernel event on a folder d watches (or on one of
// those folders itself). It runs on the hub's goroutine.
func (d *DirWatch) event(ev fsnotify.Event) {
	d.emu.Lock()
	defer d.emu.Unlock()
	if d.closed {
		return
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		p := filepath.Clean(ev.Name)
		if d.added[p] {
			d.lose() // a folder gone: readers must look to see it
		}
		delete(d.added, p) // a folder made again is a new inode
	}
	if d.journal != nil && ev.Has(fsnotify.Create) {
		d.journal.add(ev.Name) // before the readers are woken
	}
	if d.match(ev.Name) {
		d.fire()
	} else if d.side != nil && d.side.match(ev.Name) {
		d.side.fire()
	}
	if ev.Has(fsnotify.Create) && d.wants(filepath.Clean(ev.Name)) {
		d.addAll(false)
	}
}

// wants reports whether p is one of the folders d watches: only such a
// folder appearing can make more of them watchable (it, and any made
// inside it before its watch began). Any other file created, a message or
// a draft, leaves them as they were, and looking for the missing ones
// again (the notes, drafts and seats folders of a room that has none yet)
// cost a failed inotify_add_watch each, on the goroutine that wakes every
// room.
func (d *DirWatch) wants(p string) bool {
	for _, q := range d.paths() {
		if filepath.Clean(q) == p {
			return !d.added[p]
		}
	}
	return false
}

// trouble handles an overflow of the kernel's queue, or any error of the
// watcher: events may be lost, so d watches what appeared and its readers
// look again. It runs on the hub's goroutine.
func (d *DirWatch) trouble() {
	d.emu.Lock()
	defer d.emu.Unlock()
	if d.closed {
		return
	}
	d.lose()
	d.addAll(false)
	d.fireAll()
}

// run rescans until ctx ends, then lets go of d's folders.
func (d *DirWatch) run(ctx context.Context, last, sideLast string) {
	defer close(d.done)
	defer func() {
		d.emu.Lock()
		d.closed = true
		d.emu.Unlock()
		if d.hub != nil {
			d.hub.leave(d)
		}
	}()
	period := RescanInterval
	switch {
	case d.hub == nil:
		period = rescanNoInotify
	case d.local:
		period = rescanLocal
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			// Only the signature is read each tick: a folder appearing
			// inside a watched one sends an event, and one the events
			// missed changes the signature, so the folders are listed
			// again only then (listing them every second was most of an
			// idle home screen's CPU beyond Bubble Tea's own).
			if s := d.sig(); s != last {
				last = s
				d.lose() // a change no event told of
				d.emu.Lock()
				d.addAll(false)
				d.emu.Unlock()
				d.fire()
			}
			if d.side != nil {
				if s := d.side.sig(); s != sideLast {
					sideLast = s
					d.emu.Lock()
					d.addAll(false)
					d.emu.Unlock()
					d.side.fire()
				}
			}
		}
	}
}

// StatSig is a file or folder's size, modification time and inode, or that
// it is missing: what a rescan compares.
func StatSig(paths ...string) string {
	var b strings.Builder
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			b.WriteString("missing;")
			continue
		}
		fmt.Fprintf(&b, "%d/%d/%d;", fi.Size(), fi.ModTime().UnixNano(), inode(fi))
	}
	return b.String()
}

func fixed(paths ...string) func() []string { return func() []string { return paths } }

// WatchAppear waits for room name to appear under cwd: .roundtable, then
// the room's folder, then its room.json.
func WatchAppear(ctx context.Context, cwd, name string) *DirWatch {
	top := filepath.Join(cwd, Folder)
	dir := filepath.Join(top, name)
	cfg := filepath.Join(dir, "room.json")
	match := func(p string) bool { return p == top || p == dir || p == cfg }
	return WatchDirs(ctx, fixed(cwd, top, dir), match, func() string { return StatSig(cfg) })
}

// WatchLog waits for a room's server.log to change.
func WatchLog(ctx context.Context, dir string) *DirWatch {
	log := filepath.Join(dir, LogFile)
	return WatchDirs(ctx, fixed(dir), func(p string) bool { return p == log }, func() string { return StatSig(log) })
}

// WatchRooms wakes on anything that changes the list of rooms under cwd: a
// room created, a message posted, a room closed; not temporary or lock
// files, nor server.log. It watches the cwd (until .roundtable appears),
// .roundtable, and every room and messages folder, new ones included.
func WatchRooms(ctx context.Context, cwd string) *DirWatch {
	top := filepath.Join(cwd, Folder)
	paths := func() []string {
		out := []string{cwd, top}
		entries, _ := os.ReadDir(top)
		for _, e := range entries {
			if e.IsDir() && ValidateName(e.Name()) == nil {
				dir := filepath.Join(top, e.Name())
				out = append(out, dir, filepath.Join(dir, "messages"))
			}
		}
		return out
	}
	match := func(p string) bool {
		if p == top {
			return true
		}
		rel, err := filepath.Rel(top, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return false
		}
		base := filepath.Base(p)
		return !strings.HasPrefix(base, ".") && base != LogFile
	}
	return WatchDirs(ctx, paths, match, func() string { return StatSig(top) })
}
