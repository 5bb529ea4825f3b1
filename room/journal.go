package room

import (
	"path/filepath"
	"sync"
)

// journalCap bounds the names a journal holds between two reads; past it
// the journal is lost and the next read lists the folders.
const journalCap = 4096

// journal is the names that arrived in a room's messages and notes
// folders, as the kernel's events told them, between two reads of the
// room's state: the store parses just those instead of listing folders
// that grow by a file a turn (a wake in a room of 2,400 messages listed
// them all, once per seat woken). When events may have been missed (an
// overflow, a rescan that saw a change, a folder that appeared, no inotify
// at all) the journal is lost, and the next read lists both folders as
// before. Only the Room the Notifier is attached to takes it.
type journal struct {
	msgs, notes string // the two folders

	mu                sync.Mutex
	lost              bool
	newMsgs, newNotes []string // the names that arrived in each
}

func newJournal(msgs, notes string) *journal {
	return &journal{msgs: msgs, notes: notes, lost: true}
}

// add records a file created or moved into one of the folders; other
// paths are not the journal's.
func (j *journal) add(path string) {
	dir, name := filepath.Split(path)
	dir = filepath.Clean(dir)
	if dir != j.msgs && dir != j.notes {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.lost:
		// The next read lists the folders anyway.
	case len(j.newMsgs)+len(j.newNotes) >= journalCap:
		j.lost, j.newMsgs, j.newNotes = true, nil, nil
	case dir == j.notes:
		j.newNotes = append(j.newNotes, name)
	default:
		j.newMsgs = append(j.newMsgs, name)
	}
}

// lose marks the journal incomplete: the next read lists the folders.
func (j *journal) lose() {
	j.mu.Lock()
	j.lost, j.newMsgs, j.newNotes = true, nil, nil
	j.mu.Unlock()
}

// take returns the names that arrived in messages/ and in notes/ since
// the last take and starts anew; complete is false when they may not be
// all (list the folders). Take it before reading, so a file that arrives
// meanwhile is in the next take.
func (j *journal) take() (msgs, notes []string, complete bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	msgs, notes, complete = j.newMsgs, j.newNotes, !j.lost
	j.newMsgs, j.newNotes, j.lost = nil, nil, false
	return msgs, notes, complete
}
