package room

import (
	"context"
	"path/filepath"
	"strings"
	"time"
)

// RescanInterval is how often a DirWatch checks its folders by itself, in
// case the filesystem sends no event for some changes (NFS, SMB, FUSE: a
// change made on another machine). It is cheap: a few stat calls, no
// listing unless they changed.
const RescanInterval = time.Second

// rescanLocal is the rescan period on a local filesystem, where inotify
// sees every change and an overflow is reported: only a safety net, so an
// idle screen does not wake for it every second.
const rescanLocal = 30 * time.Second

// rescanNoInotify is the rescan period when inotify is unavailable.
const rescanNoInotify = 250 * time.Millisecond

// Notifier tells its readers when a room changes: a message renamed into
// place, a note written to notes/, closed.json written, the room folder
// removed (Changed, Gen). It filters out temporary files and server.log.
// A draft written, replaced or removed is told apart (DraftsChanged,
// DraftsGen), so readers of the room's state are not woken ~30 times a
// second per seat while a debate streams. It is one DirWatch on the room
// folder and its messages, notes and drafts folders, and serves any number
// of readers.
type Notifier struct {
	*DirWatch
}

// DraftsChanged returns a channel closed at the next change of the room's
// drafts after the call. Take it before looking.
func (n *Notifier) DraftsChanged() <-chan struct{} {
	n.side.mu.Lock()
	defer n.side.mu.Unlock()
	return n.side.ch
}

// DraftsGen counts the changes of the room's drafts seen so far.
func (n *Notifier) DraftsGen() uint64 { return n.side.gen.Load() }

// takeJournal returns the message and note files that arrived since the
// last take, complete only where the kernel's events are (inotify on a
// local filesystem, no overflow or unexplained change since): else the
// caller lists the folders.
func (n *Notifier) takeJournal() (msgs, notes []string, complete bool) {
	msgs, notes, complete = n.journal.take()
	return msgs, notes, complete && n.local
}

// Watch starts a Notifier on a room and attaches it, so the room's State
// lists the messages folder only after a change. It runs until ctx ends or
// Close. When inotify cannot be used, it still works by rescanning.
func Watch(ctx context.Context, r *Room) *Notifier {
	dir, msgs, notes, drafts, seats := r.dir, filepath.Join(r.dir, "messages"), NotesDir(r.dir), DraftsDir(r.dir), SeatsDir(r.dir)
	match := func(p string) bool {
		name := filepath.Base(p)
		switch filepath.Dir(p) {
		case msgs, notes:
			return strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".")
		case seats:
			return !strings.HasPrefix(name, ".") // a holder took or let go a seat
		}
		switch name {
		case "closed.json", "room.json", "messages", "notes", "seats", RunFile, PauseFile:
			return true
		}
		return p == dir
	}
	sig := func() string {
		return StatSig(msgs, notes, seats, filepath.Join(dir, "closed.json"), filepath.Join(dir, "room.json"), filepath.Join(dir, RunFile), filepath.Join(dir, PauseFile))
	}
	side := &sideTopic{
		match: func(p string) bool {
			name := filepath.Base(p)
			return p == drafts || (filepath.Dir(p) == drafts && strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, "."))
		},
		sig: func() string { return StatSig(append([]string{drafts}, r.DraftFiles()...)...) },
	}
	n := &Notifier{watchDirs(ctx, fixed(dir, msgs, notes, drafts, seats), match, sig, side, newJournal(msgs, notes))}
	r.mu.Lock()
	r.notifier = n
	r.lastGen = ^uint64(0)
	r.mu.Unlock()
	return n
}
